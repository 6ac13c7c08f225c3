import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Small HTTP plumbing for the bridge: bounded bodies, JSON answers, constant-time token checks. */

export class BodyTooLarge extends Error {}

/** Bytes drained (and discarded) after the limit so the client can still read our 413. */
const DRAIN_CAP = 8 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    let size = 0;
    let over = declared > limit;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      if (over) {
        chunks.length = 0;
        if (size > DRAIN_CAP) req.destroy();
        return;
      }
      chunks.push(c);
    });
    let ended = false;
    req.on('end', () => {
      ended = true;
      if (over) reject(new BodyTooLarge());
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
    // A destroyed or aborted request never ends: settle instead of leaving the handler waiting.
    req.on('close', () => {
      if (!ended) reject(new Error('the client closed the request before sending its body'));
    });
  });
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
