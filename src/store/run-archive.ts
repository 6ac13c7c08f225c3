import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { maskValue } from './mask.js';

/**
 * The run folder (DESIGN §6): `steps/NNN.json` for every step (observation, decision, receipt,
 * outcome, timings, tokens), `steps/NNN.png` when a screenshot was taken (the screen the step was
 * decided on), `steps/final.png` (the screen the run ended on) and `steps/NNN.calls.jsonl` (the
 * model's requests and responses and the device commands of that step, masked; step 000 is
 * planning). Typed text is redacted by the caller before it gets here.
 */

export function runStamp(now: number): string {
  return new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/** `<UTC timestamp>-<4 hex>`, or `<UTC timestamp>-<label>-<4 hex>` (a suite names its task). */
export function newRunId(now: number, random: () => number = Math.random, label?: string): string {
  const tag = label ? `${label.replace(/[^\w.-]+/g, '_').slice(0, 40)}-` : '';
  return `${runStamp(now)}-${tag}${Math.floor(random() * 0xffff)
    .toString(16)
    .padStart(4, '0')}`;
}

/** One model or device call of a step, as the report shows it. */
export type ArchivedCall =
  | {
      kind: 'llm';
      /** What was sent (messages, tools, model), before masking. */
      request: unknown;
      /** What came back (the raw reply, or the parsed arguments). */
      response?: unknown;
      error?: string;
      ms?: number;
    }
  | {
      kind: 'device';
      /** The command as sent (`tap 540,452`, `POST /action {…}`, `adb shell input tap 540 452`). */
      command: string;
      output?: unknown;
      ok?: boolean;
      ms?: number;
    };

export interface ArchiveOptions {
  /** Values that must never reach a file (credentials from the goal, bridge tokens, API keys). */
  secrets?: readonly string[];
}

export class RunArchive {
  readonly stepsDir: string;
  private readonly secrets: readonly string[];
  private pending: Promise<void> = Promise.resolve();
  constructor(
    readonly dir: string,
    opts: ArchiveOptions = {},
  ) {
    this.stepsDir = path.join(dir, 'steps');
    this.secrets = opts.secrets ?? [];
  }

  static async create(dir: string, opts: ArchiveOptions = {}): Promise<RunArchive> {
    const a = new RunArchive(dir, opts);
    await mkdir(a.stepsDir, { recursive: true });
    return a;
  }

  stepName(n: number): string {
    return String(n).padStart(3, '0');
  }

  /** The screen the run ended on (`steps/final.png`): each step's picture is the screen before it. */
  async writeFinal(png: Buffer): Promise<string> {
    const file = path.join(this.stepsDir, 'final.png');
    await writeFile(file, png);
    return file;
  }

  pngPath(n: number): string {
    return path.join(this.stepsDir, `${this.stepName(n)}.png`);
  }

  async writeStep(n: number, record: unknown, png?: Buffer): Promise<{ json: string; png?: string }> {
    const base = path.join(this.stepsDir, this.stepName(n));
    await writeFile(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
    if (png) await writeFile(`${base}.png`, png);
    return { json: `${base}.json`, png: png ? `${base}.png` : undefined };
  }

  /** Appends one call to `steps/NNN.calls.jsonl`, masked (step 0: planning, before the first step). */
  async recordCall(step: number, call: ArchivedCall): Promise<void> {
    const line = JSON.stringify({ at: Date.now(), ...(maskValue(call, this.secrets) as object) });
    await mkdir(this.stepsDir, { recursive: true });
    await appendFile(path.join(this.stepsDir, `${this.stepName(step)}.calls.jsonl`), `${line}\n`);
  }

  /**
   * For hooks that cannot await (an SDK callback, a device wrapper): calls are written in the order
   * they arrive; `flush()` waits for all of them (call it before the step's record is written).
   */
  record(step: number, call: ArchivedCall): void {
    this.pending = this.pending.then(() => this.recordCall(step, call)).catch(() => {});
  }

  flush(): Promise<void> {
    return this.pending;
  }
}
