import type { ActionRequestInput } from '../../src/device/protocol/actions.js';
import { COMPAT_TOKEN_HEADER, type CompatResponse } from '../../src/device/protocol/compat.js';
import type { ActionReceipt } from '../../src/device/protocol/receipt.js';
import { type Hello, HelloSchema, SnapshotSchema, type WireSnapshot } from '../../src/device/protocol/wire.js';

/** A minimal HTTP client of the helper protocol for the black-box suite: fetch, nothing else. */

export type FetchLike = typeof fetch;

export interface RawResponse {
  status: number;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: unknown;
  text: string;
}

export type Auth = 'bearer' | 'compat' | 'none' | 'wrong-bearer' | 'wrong-compat';

export class ConformanceClient {
  constructor(
    readonly url: string,
    private readonly token: string,
    private readonly fetchImpl: FetchLike = fetch,
    private readonly timeoutMs = 60_000,
  ) {}

  /** The headers of a request with this kind of authentication (also for raw-socket checks). */
  headersFor(auth: Auth): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth === 'bearer') headers.authorization = `Bearer ${this.token}`;
    if (auth === 'wrong-bearer') headers.authorization = `Bearer ${this.token}x`;
    if (auth === 'compat') headers[COMPAT_TOKEN_HEADER] = this.token;
    if (auth === 'wrong-compat') headers[COMPAT_TOKEN_HEADER] = `x${this.token}`;
    return headers;
  }

  async post(path: string, body: unknown, auth: Auth = 'bearer', raw?: string | Uint8Array): Promise<RawResponse> {
    const headers = this.headersFor(auth);
    const res = await this.fetchImpl(`${this.url.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers,
      body: raw ?? JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }

  async hello(): Promise<Hello> {
    const r = await this.post('/v3/hello', {});
    if (r.status !== 200) throw new Error(`hello: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    return HelloSchema.parse(r.json);
  }

  async snapshot(screenshot?: { format?: 'png' | 'jpeg'; scale?: number }): Promise<WireSnapshot> {
    const r = await this.post('/v3/snapshot', screenshot ? { screenshot } : {});
    if (r.status !== 200) throw new Error(`snapshot: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    return SnapshotSchema.parse(r.json);
  }

  /** An action that must pass validation (HTTP 200); returns its receipt. */
  async action(body: ActionRequestInput): Promise<ActionReceipt> {
    const r = await this.post('/v3/action', body);
    if (r.status !== 200) throw new Error(`${body.action}: HTTP ${r.status} ${r.text.slice(0, 300)}`);
    return r.json as ActionReceipt;
  }

  async compat(body: Record<string, unknown>): Promise<CompatResponse> {
    const r = await this.post('/action', body, 'compat');
    if (r.status !== 200) throw new Error(`compat ${String(body.action)}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    return r.json as CompatResponse;
  }
}
