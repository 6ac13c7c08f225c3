import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';
import { MASK, maskValue } from '../store/mask.js';

/**
 * `phone-agent mcp --call-log FILE`: one JSON line per tool call the server served — the tool, its
 * arguments (typed text reduced to its length, credentials masked), how long it took, whether it
 * failed, and the content the client received (text whole, so its tokens can be counted; an image
 * by its type, size and pixels). The server's own record of what a client did, which a benchmark
 * counts instead of the client's word.
 */

export type LoggedContent =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; bytes: number; width?: number; height?: number }
  | { type: string };

export interface McpCallRecord {
  /** 1, 2, … in the order calls finished, across all client sessions. */
  seq: number;
  /** When the call arrived (ISO). */
  at: string;
  tool: string;
  args: unknown;
  ms: number;
  is_error: boolean;
  failure_code?: string;
  content: LoggedContent[];
}

/** Typed text may be a password: only its length is kept. A selector's `text` is a label, kept. */
function redactTyped(v: unknown, parentKey?: string): unknown {
  if (Array.isArray(v)) return v.map((x) => redactTyped(x, parentKey));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    out[k] =
      k === 'text' && typeof x === 'string' && parentKey !== 'selector'
        ? `(${[...x].length} chars)`
        : redactTyped(x, k);
  return out;
}

/** PNG and JPEG pixel sizes from their headers (what a vision model's image tokens depend on). */
export function imageSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47)
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  // JPEG: walk the segments to the first start-of-frame (SOF0..SOF15 except DHT/JPG/DAC).
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1] as number;
    const len = bytes.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return undefined;
}

function masked(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join(MASK);
  return out;
}

function contentOf(result: CallToolResult, secrets: readonly string[]): LoggedContent[] {
  return result.content.map((c): LoggedContent => {
    if (c.type === 'text') return { type: 'text', text: masked(c.text, secrets) };
    if (c.type === 'image') {
      const bytes = Buffer.from(c.data, 'base64');
      return { type: 'image', mimeType: c.mimeType, bytes: bytes.length, ...imageSize(bytes) };
    }
    return { type: c.type };
  });
}

export class McpCallLog {
  private seq = 0;
  private pending: Promise<void> = Promise.resolve();
  private ready?: Promise<unknown>;
  /** The first write that failed, if any: the server keeps serving, and says once that the log is incomplete. */
  failed?: string;

  constructor(
    readonly file: string,
    private readonly opts: { secrets?: readonly string[]; logger?: Logger } = {},
  ) {}

  /** Append one served call; writes happen in order and never fail the call (see `flush`). */
  record(call: { tool: string; args: unknown; startedAt: number; ms: number; result: CallToolResult }): void {
    const sc = call.result.structuredContent as { failure_code?: unknown } | undefined;
    const entry: McpCallRecord = {
      seq: ++this.seq,
      at: new Date(call.startedAt).toISOString(),
      tool: call.tool,
      args: maskValue(redactTyped(call.args), this.opts.secrets ?? []),
      ms: Math.round(call.ms),
      is_error: call.result.isError === true,
      ...(typeof sc?.failure_code === 'string' ? { failure_code: sc.failure_code } : {}),
      content: contentOf(call.result, this.opts.secrets ?? []),
    };
    this.ready ??= mkdir(path.dirname(this.file), { recursive: true });
    const line = `${JSON.stringify(entry)}\n`;
    this.pending = this.pending
      .then(() => this.ready)
      .then(() => appendFile(this.file, line))
      .catch((e: unknown) => {
        if (this.failed) return;
        this.failed = e instanceof Error ? e.message : String(e);
        this.opts.logger?.warn(`the call log ${this.file} is incomplete from call ${entry.seq} on`, {
          error: this.failed,
        });
      });
  }

  /** Every call recorded so far is on disk. */
  flush(): Promise<void> {
    return this.pending;
  }
}

/** Read a call log back (a benchmark's count of what the server served). */
export function parseCallLog(text: string): McpCallRecord[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as McpCallRecord);
}
