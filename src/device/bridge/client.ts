import type { Clock, Deadline } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { type Hello, HelloSchema, HttpErrorBodySchema, PROTOCOL_VERSION } from '../protocol/index.js';

/**
 * HTTP client of the helper protocol v3 (`/v3/hello`, `/v3/snapshot`, `/v3/action`, `/v3/cancel`):
 * bearer token, one deadline per call (an AbortSignal), and reconnect with backoff — while the
 * helper is down, calls fail fast as `not_delivered` until the next retry is due, so a failover
 * device can move on at once instead of waiting out every deadline.
 */

export interface BridgeClientOptions {
  url: string;
  token: string;
  clock: Clock;
  logger: Logger;
  /** Backoff between reconnect attempts (ms): doubles from `min` up to `max`. */
  backoff?: { minMs: number; maxMs: number };
  /** Upper bound of real time any one request may hang (the deadline may be on a virtual clock). */
  maxRealWaitMs?: number;
  fetch?: typeof fetch;
}

export type HttpOutcome =
  | { ok: true; status: number; body: unknown }
  /** `sent: false` — the request never reached the helper (refused, down, deadline before send). */
  | {
      ok: false;
      sent: boolean;
      code: 'UNAVAILABLE' | 'TIMEOUT' | 'INVALID_ARGUMENT' | 'INTERNAL' | 'UNSUPPORTED' | 'CANCELLED';
      message: string;
      status?: number;
    };

/** Errors that mean the request never left this machine. */
const REFUSED = /ECONNREFUSED|EHOSTUNREACH|ENOTFOUND|EADDRNOTAVAIL/i;

export class BridgeClient {
  private hello?: Hello;
  private down = false;
  private nextRetryAt = 0;
  private backoffMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: BridgeClientOptions) {
    this.backoffMs = opts.backoff?.minMs ?? 250;
    this.fetchImpl = opts.fetch ?? fetch;
  }

  get info(): Hello | undefined {
    return this.hello;
  }

  get isDown(): boolean {
    return this.down;
  }

  /** `hello` + capability negotiation; refuses helpers that do not speak protocol 3. */
  async connect(d: Deadline): Promise<{ ok: true; hello: Hello } | { ok: false; message: string }> {
    const r = await this.raw('/v3/hello', { protocol: PROTOCOL_VERSION }, d, true);
    if (!r.ok) return { ok: false, message: r.message };
    const h = HelloSchema.safeParse(r.body);
    if (!h.success) {
      return {
        ok: false,
        message: `the helper's hello is not protocol ${PROTOCOL_VERSION} (${h.error.issues[0]?.message ?? 'invalid'}); update the helper app`,
      };
    }
    if (this.down) this.opts.logger.warn('helper is back', { url: this.opts.url });
    this.hello = h.data;
    this.down = false;
    this.backoffMs = this.opts.backoff?.minMs ?? 250;
    return { ok: true, hello: h.data };
  }

  /** POST a v3 request. Reconnects first when the helper was down and a retry is due. */
  async post(path: string, body: unknown, d: Deadline): Promise<HttpOutcome> {
    if (this.down) {
      if (this.opts.clock.now() < this.nextRetryAt)
        return {
          ok: false,
          sent: false,
          code: 'UNAVAILABLE',
          message: `the helper is not answering (next reconnect in ${this.nextRetryAt - this.opts.clock.now()} ms)`,
        };
      const c = await this.connect(d);
      if (!c.ok) return { ok: false, sent: false, code: 'UNAVAILABLE', message: c.message };
    }
    return this.raw(path, body, d, false);
  }

  private markDown(why: string): void {
    const now = this.opts.clock.now();
    if (!this.down) this.opts.logger.warn('helper stopped answering', { url: this.opts.url, why });
    this.down = true;
    this.nextRetryAt = now + this.backoffMs;
    this.backoffMs = Math.min(this.opts.backoff?.maxMs ?? 5_000, this.backoffMs * 2);
  }

  private async raw(path: string, body: unknown, d: Deadline, isHello: boolean): Promise<HttpOutcome> {
    if (d.aborted)
      return { ok: false, sent: false, code: 'CANCELLED', message: `${path}: cancelled before the request was sent` };
    if (d.expired())
      return {
        ok: false,
        sent: false,
        code: 'TIMEOUT',
        message: `${path}: the deadline passed before the request was sent`,
      };
    const ac = new AbortController();
    // The deadline may run on a virtual clock; the real-time cap keeps a hung helper from hanging us.
    const realMs = Math.min(d.remaining(), this.opts.maxRealWaitMs ?? 15_000);
    const timer = setTimeout(() => ac.abort(new Error('deadline')), Math.max(1, realMs));
    // A cancelled run ends the request at once (the helper is not down: no backoff).
    const onCancel = () => ac.abort(new Error('cancelled'));
    d.signal?.addEventListener('abort', onCancel, { once: true });
    const sent = true;
    try {
      const res = await this.fetchImpl(new URL(path, this.opts.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.token}` },
        body: JSON.stringify(body),
        signal: ac.signal,
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        return {
          ok: false,
          sent,
          code: 'INTERNAL',
          status: res.status,
          message: `${path}: the helper answered HTTP ${res.status} with non-JSON`,
        };
      }
      if (res.status === 200) return { ok: true, status: 200, body: json };
      const err = HttpErrorBodySchema.safeParse(json);
      const msg = err.success ? `${err.data.error.code}: ${err.data.error.message}` : `HTTP ${res.status}`;
      if (res.status === 401)
        return {
          ok: false,
          sent: false,
          code: 'UNAVAILABLE',
          status: 401,
          message: `${path}: the helper refused the token (${msg}); check the bridge token`,
        };
      if (res.status === 404)
        return { ok: false, sent: false, code: 'UNSUPPORTED', status: 404, message: `${path}: ${msg}` };
      if (res.status === 400 || res.status === 413)
        return { ok: false, sent: false, code: 'INVALID_ARGUMENT', status: res.status, message: `${path}: ${msg}` };
      if (res.status === 503) {
        this.markDown(msg);
        return { ok: false, sent: false, code: 'UNAVAILABLE', status: 503, message: `${path}: ${msg}` };
      }
      return { ok: false, sent, code: 'INTERNAL', status: res.status, message: `${path}: ${msg}` };
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause;
      const m = `${errorMessage(e)} ${cause ? errorMessage(cause) : ''}`;
      if (ac.signal.aborted && d.aborted)
        return {
          ok: false,
          sent: true,
          code: 'CANCELLED',
          message: `${path}: cancelled while the request was under way`,
        };
      if (ac.signal.aborted) {
        if (!isHello) this.markDown('deadline');
        else this.markDown('hello timed out');
        return {
          ok: false,
          sent: true,
          code: 'TIMEOUT',
          message: `${path}: no answer from the helper before the deadline`,
        };
      }
      this.markDown(m);
      // A refused connection never carried the request.
      return {
        ok: false,
        sent: !REFUSED.test(m),
        code: 'UNAVAILABLE',
        message: `${path}: the helper is not reachable (${m.trim()})`,
      };
    } finally {
      clearTimeout(timer);
      d.signal?.removeEventListener('abort', onCancel);
    }
  }
}
