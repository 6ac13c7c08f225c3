/**
 * A logger with typed channels writing JSON-ish lines to stderr (or any sink). It is passed in, never
 * ambient. Every message and field goes through the redaction hook first: secrets never reach a log.
 */

export type LogChannel =
  | 'core'
  | 'device'
  | 'perception'
  | 'planner'
  | 'llm'
  | 'executor'
  | 'guardrail'
  | 'agent'
  | 'store'
  | 'sim'
  | 'adb'
  | 'bridge'
  | 'cli'
  | 'mcp';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type Redactor = (text: string) => string;
export type LogSink = (line: string) => void;

export interface LogRecord {
  level: LogLevel;
  channel: LogChannel;
  msg: string;
  fields?: Record<string, unknown>;
}

export interface LoggerOptions {
  level?: LogLevel;
  sink?: LogSink;
  redact?: Redactor;
  /** Only these channels are written; all when omitted. */
  channels?: readonly LogChannel[];
}

/** Field names whose values are never logged, whatever the redactor says. */
const SECRET_KEYS = /pass(word)?|token|secret|api[-_]?key|authorization/i;

export class Logger {
  private readonly level: number;
  private readonly sink: LogSink;
  private readonly redact: Redactor;
  private readonly channels?: ReadonlySet<LogChannel>;

  constructor(
    readonly channel: LogChannel = 'core',
    private readonly opts: LoggerOptions = {},
  ) {
    this.level = LEVELS[opts.level ?? 'info'];
    this.sink = opts.sink ?? ((line) => process.stderr.write(`${line}\n`));
    this.redact = opts.redact ?? ((s) => s);
    this.channels = opts.channels ? new Set(opts.channels) : undefined;
  }

  child(channel: LogChannel): Logger {
    return new Logger(channel, this.opts);
  }

  /** A logger that writes nothing (tests, library use). */
  static silent(): Logger {
    return new Logger('core', { sink: () => {}, level: 'error' });
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.write('error', msg, fields);
  }

  private write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (LEVELS[level] < this.level) return;
    if (this.channels && !this.channels.has(this.channel)) return;
    const safe = fields ? this.redactFields(fields) : undefined;
    const tail = safe && Object.keys(safe).length ? ` ${JSON.stringify(safe)}` : '';
    this.sink(`${level.toUpperCase().padEnd(5)} [${this.channel}] ${this.redact(msg)}${tail}`);
  }

  private redactFields(fields: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if (SECRET_KEYS.test(k)) out[k] = '[redacted]';
      else if (typeof v === 'string') out[k] = this.redact(v);
      else if (v && typeof v === 'object' && !Array.isArray(v))
        out[k] = this.redactFields(v as Record<string, unknown>);
      else out[k] = v;
    }
    return out;
  }
}
