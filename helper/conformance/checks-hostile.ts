import { postHead, rawExchange } from './raw-http.js';
import { type Check, expect, type SuiteState } from './suite.js';

/**
 * Hostile requests (PROTOCOL §2–§4): token and size decided from the headers before any body is
 * read, header and body deadlines (408), bounded JSON nesting (400). A helper that reads a body
 * before refusing it, or keeps a silent connection open for good, fails here.
 */

/** PROTOCOL §3 defaults, used when `hello.limits` does not announce its own. */
const DEFAULTS = { headerTimeoutMs: 10_000, bodyTimeoutMs: 30_000 };
/** How long past a deadline a helper may take to act on it (its timer granularity, a loaded phone). */
const SLACK_MS = 2_000;
/** "At once": an answer decided from the headers arrives well before any deadline. */
const PROMPT_MS = 3_000;

function limits(state: SuiteState) {
  const l = state.hello?.limits;
  return {
    maxBody: l?.maxBodyBytes ?? 256 * 1024,
    headerMs: l?.headerTimeoutMs ?? DEFAULTS.headerTimeoutMs,
    bodyMs: l?.bodyTimeoutMs ?? DEFAULTS.bodyTimeoutMs,
  };
}

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const hostileChecks: Check[] = [
  {
    name: 'limits: Content-Length over the limit → 413 before the body is sent',
    async run({ client, state }) {
      const { maxBody } = limits(state);
      const head = postHead(client.url, '/v3/action', {
        ...client.headersFor('bearer'),
        'content-length': maxBody * 64,
      });
      const r = await rawExchange(client.url, { head, waitMs: PROMPT_MS });
      expect(r.status === 413, `announced ${maxBody * 64} bytes, sent none: got ${r.status ?? 'no answer'}`);
    },
  },
  {
    name: 'auth: a missing token → 401 before the body is sent (v3 and compat)',
    async run({ client }) {
      for (const [path, auth] of [
        ['/v3/action', 'none'],
        ['/action', 'wrong-compat'],
      ] as const) {
        const head = postHead(client.url, path, { ...client.headersFor(auth), 'content-length': 100_000 });
        const r = await rawExchange(client.url, { head, waitMs: PROMPT_MS });
        expect(r.status === 401, `${path}: announced a body, sent none: got ${r.status ?? 'no answer'}`);
      }
    },
  },
  {
    name: 'limits: JSON nested 10,000 deep → 400 (v3 and compat), never 500',
    async run({ client }) {
      const v3 = await client.post('/v3/action', undefined, 'bearer', `{"action":${nested(10_000)}}`);
      expect(v3.status === 400, `v3 object depth: got HTTP ${v3.status} ${v3.text.slice(0, 120)}`);
      const arr = await client.post('/v3/action', undefined, 'bearer', `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
      expect(arr.status === 400, `v3 array depth: got HTTP ${arr.status}`);
      const c = await client.post('/action', undefined, 'compat', `{"action":${nested(10_000)}}`);
      expect(c.status === 400, `compat: got HTTP ${c.status} ${c.text.slice(0, 120)}`);
    },
  },
  {
    name: 'timeouts: headers that never finish → 408 and closed within hello.limits.headerTimeoutMs',
    async run({ client, state, note }) {
      const { headerMs } = limits(state);
      const u = new URL(client.url);
      const r = await rawExchange(client.url, {
        head: `POST /v3/hello HTTP/1.1\r\nhost: ${u.host}\r\n`,
        drip: { text: 'x-slow: 1', everyMs: Math.max(20, Math.floor(headerMs / 20)) },
        waitMs: headerMs + SLACK_MS,
      });
      expect(r.closedByServer, `a client dripping its headers was still connected after ${headerMs + SLACK_MS} ms`);
      expect(r.status === 408 || r.status === undefined, `expected 408, got ${r.status}`);
      note(`closed after ${r.answeredMs} ms (limit ${headerMs})`);
    },
  },
  {
    name: 'timeouts: an authorized body that stalls → 408 within hello.limits.bodyTimeoutMs',
    async run({ client, state, note }) {
      const { bodyMs } = limits(state);
      const head = postHead(client.url, '/v3/action', { ...client.headersFor('bearer'), 'content-length': 200 });
      const r = await rawExchange(client.url, { head: `${head}{"action":`, waitMs: bodyMs + SLACK_MS });
      expect(r.status === 408, `a body stalled after 10 of 200 bytes: got ${r.status ?? 'no answer'}`);
      expect(r.closedByServer, 'the connection stayed open after the 408');
      note(`408 after ${r.answeredMs} ms (limit ${bodyMs})`);
    },
  },
];
