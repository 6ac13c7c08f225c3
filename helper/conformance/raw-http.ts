import { connect as tcp } from 'node:net';
import { connect as tls } from 'node:tls';

/**
 * Requests fetch cannot make: headers that never end, a body announced but never sent, a body that
 * stalls. Bytes go to the helper's host and port as given; the exchange ends when the server closes,
 * or at `waitMs` (then `closedByServer` is false) — never later.
 */

export interface RawExchange {
  /** The status code of the first response line, or undefined when none arrived. */
  status?: number;
  /** Time from connect to the first response byte (or to the end of the exchange). */
  answeredMs: number;
  closedByServer: boolean;
}

export interface RawPlan {
  /** Sent at once after connecting. */
  head: string;
  /** Then one byte of this every `dripMs` (a slow client), until the server answers or closes. */
  drip?: { text: string; everyMs: number };
  waitMs: number;
}

export function rawExchange(url: string, plan: RawPlan): Promise<RawExchange> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = u.protocol === 'https:' ? tls({ host, port, rejectUnauthorized: false }) : tcp({ host, port });
    let first = '';
    let answeredMs: number | undefined;
    let dripAt = 0;
    let drip: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(limit);
      clearInterval(drip);
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(first);
      resolve({
        status: m ? Number(m[1]) : undefined,
        answeredMs: Math.round(answeredMs ?? performance.now() - t0),
        closedByServer,
      });
    };
    const limit = setTimeout(() => finish(false), plan.waitMs);
    socket.on('connect', () => {
      socket.write(plan.head);
      const d = plan.drip;
      if (d)
        drip = setInterval(() => {
          if (socket.writable) socket.write(d.text[dripAt++ % d.text.length] ?? ' ');
        }, d.everyMs);
    });
    socket.on('data', (c: Buffer) => {
      answeredMs ??= performance.now() - t0;
      if (first.length < 64) first += c.toString('latin1');
      clearInterval(drip);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
  });
}

/** The request line and headers of a POST, ending with the blank line. */
export function postHead(url: string, path: string, headers: Record<string, string | number>): string {
  const u = new URL(url);
  const lines = [`POST ${path} HTTP/1.1`, `host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
