import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Small HTTP plumbing for the bridge: bounded bodies, depth-bounded JSON, JSON answers, early
 * refusals, constant-time token checks.
 */

export class BodyTooLarge extends Error {}

/** The declared body length, or undefined when the client streams (chunked) or sends none. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const v = req.headers['content-length'];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** Reads a body of at most `limit` bytes; a chunked body that grows past it rejects at once. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    // A destroyed or aborted request never ends: settle instead of leaving the handler waiting.
    req.on('close', () => {
      if (!ended) reject(new Error('the client closed the request before sending its body'));
    });
  });
}

/**
 * Bytes and time spent discarding what a refused client still sends, so it can read the answer. A
 * body just over the limit, refused from its Content-Length, is still sent whole, and through adb's
 * forwarding on a loaded machine that can take seconds.
 */
const LINGER_BYTES = 8 * 1024 * 1024;
const LINGER_MS = 10_000;

/**
 * Answer now and close, without reading the body into memory (401 / 413 decided from the headers).
 * Node ends a `Connection: close` answer with `socket.destroySoon()`, which destroys the socket as
 * soon as the answer is flushed; with the client's body still arriving that is a TCP reset, and a
 * reset makes the receiving kernel drop bytes not yet read — through adb's forwarding the client
 * then lost the 413 (verify-device's "a body over the limit → 413" failed in CI). So this socket
 * half-closes instead (FIN after the answer), what the client still sends is discarded, and the
 * socket is destroyed once the client closes or past a byte or time bound.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
  };
  sendJson(res, status, body, true);
  let seen = 0;
  const stop = () => socket.destroy();
  const timer = setTimeout(stop, LINGER_MS);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  req.on('data', (c: Buffer) => {
    seen += c.length;
    if (seen > LINGER_BYTES) stop();
  });
  req.resume();
}

/** Nesting allowed in a request: far above any real one, far below what a recursive walk chokes on. */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of arrays and objects in a JSON text, counted in one linear pass (strings and
 * their escapes skipped); stops counting once past `max`.
 */
export function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON of a request body; an empty body is `{}`; nesting beyond MAX_JSON_DEPTH is refused. */
export function parseJson(buf: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  if (buf.length === 0) return { ok: true, value: {} };
  const text = buf.toString('utf8');
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    return { ok: false, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, message: `malformed JSON: ${why.length > 200 ? `${why.slice(0, 200)}…` : why}` };
  }
}

/** A value quoted into an error message, at most ~60 characters (never a whole hostile body). */
export function quoteBrief(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  if (res.writableEnded || res.destroyed) return;
  const data = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': data.length,
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(data);
}

/**
 * Constant-time comparison: both sides are hashed to equal-length digests first, so neither the
 * content nor the length of the expected token leaks through timing.
 */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer (.+)$/i.exec(h.trim());
  return m?.[1];
}

export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}
