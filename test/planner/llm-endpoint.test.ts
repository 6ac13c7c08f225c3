import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { createLlmClient, LlmEndpointError } from '../../src/planner/llm/client.js';
import { type LlmConfig, resolveLlmConfig } from '../../src/planner/llm/config.js';
import { parseRetryAfter } from '../../src/planner/llm/endpoint.js';
import { toolCallCompletion } from './fixtures.js';

/**
 * A misbehaving OpenAI-compatible endpoint on loopback, one case per row of issue 12: each request
 * is handed to the next handler of the script, which may never finish, drip, lie or rate-limit.
 */
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function endpoint(script: Handler[]) {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const h = script[hits++] ?? script[script.length - 1];
      h?.(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, hits: () => hits };
}

const ok: Handler = (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(toolCallCompletion('f', '{"n": 5}')));
};
const reply =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_q, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };

const fn = { name: 'f', description: 'test', parameters: { type: 'object', properties: { n: { type: 'number' } } } };
const parse = (raw: unknown) =>
  raw && typeof raw === 'object' && 'n' in raw && typeof raw.n === 'number'
    ? ({ ok: true, value: raw.n } as const)
    : ({ ok: false, error: 'n must be a number' } as const);

function client(url: string, over: Partial<LlmConfig> = {}, clock = new VirtualClock()) {
  const config = { ...resolveLlmConfig({ baseUrl: url, model: 'm-test' }, {}), ...over };
  return createLlmClient({ config, clock, logger: new Logger('llm', { sink: () => {} }) });
}
const ask = { messages: [{ role: 'user' as const, content: 'go' }], fn, parse };

async function failure(p: Promise<unknown>): Promise<LlmEndpointError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LlmEndpointError);
  return e as LlmEndpointError;
}

/** Every failure names the model and the URL, and says what to do (the ActionableError hint). */
function expectActionable(e: LlmEndpointError, url: string) {
  expect(e.message).toContain('"m-test"');
  expect(e.message).toContain(url);
  expect(e.hint.length).toBeGreaterThan(10);
  expect(e.message.length).toBeLessThan(1000);
}

describe('LLM endpoint faults', () => {
  it('headers sent, body never ends: fails at the deadline', async () => {
    const s = await endpoint([
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"x","choices":[');
      },
    ]);
    const t0 = performance.now();
    const e = await failure(client(s.url, { timeoutMs: 300, maxRetries: 0 }).infer(ask));
    const took = performance.now() - t0;
    expectActionable(e, s.url);
    expect(e.message).toMatch(/within 300 ms \(headers and body\)/);
    expect(e.hint).toMatch(/PHONE_AGENT_LLM_TIMEOUT_MS/);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(5000);
  });

  it('a body dripping a byte every 100 ms fails at the deadline too, and the deadline is retried', async () => {
    const drip: Handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 100);
      timers.push(t);
    };
    const s = await endpoint([drip, drip]);
    const t0 = performance.now();
    const r = client(s.url, { timeoutMs: 450, maxRetries: 1 }).infer(ask);
    const e = await failure(r);
    expectActionable(e, s.url);
    expect(e.message).toMatch(/within 450 ms/);
    expect(s.hits()).toBe(2);
    expect(performance.now() - t0).toBeLessThan(8000);
  });

  it('a deadline then a good answer: the retry succeeds', async () => {
    const s = await endpoint([(_q, res) => res.writeHead(200), ok]);
    const r = await client(s.url, { timeoutMs: 300 }).infer(ask);
    expect(r).toMatchObject({ ok: true, value: 5, usage: { retries: 1, calls: 2 } });
  });

  it.each([
    ['invalid JSON', '{"choices": [', /not JSON/],
    ['an HTML 200', '<!doctype html><html><body>Welcome to nginx!</body></html>', /HTML/],
    ['a body without choices', '{"object":"list","data":[]}', /no `choices`/],
    ['a null body', 'null', /JSON null/],
    ['choices without a message', '{"choices":[{"index":0}]}', /no choice with a message/],
  ])('%s: a typed error naming the model and the URL, not retried', async (_name, body, what) => {
    const s = await endpoint([reply(200, body), ok]);
    const e = await failure(client(s.url).infer(ask));
    expectActionable(e, s.url);
    expect(e.message).toMatch(what);
    expect(e.hint).toMatch(/OpenAI-compatible/);
    expect(s.hits()).toBe(1);
  });

  it('a 2.4 MB HTML page is quoted in a bounded excerpt', async () => {
    const s = await endpoint([reply(200, `<html>${'x'.repeat(2_400_000)}</html>`)]);
    const e = await failure(client(s.url).infer(ask));
    expect(e.message.length).toBeLessThan(400);
    expect(e.message).toContain('2400013 bytes');
  });

  it('429 with Retry-After: 86400 fails at once, without sleeping', async () => {
    const clock = new VirtualClock();
    const s = await endpoint([reply(429, '{"error":{"message":"quota"}}', { 'retry-after': '86400' }), ok]);
    const start = clock.now();
    const e = await failure(client(s.url, {}, clock).infer(ask));
    expectActionable(e, s.url);
    expect(e.message).toMatch(/retry after 86400 s/);
    expect(e.message).toMatch(/429/);
    expect(e.hint).toMatch(/resume/);
    expect(s.hits()).toBe(1);
    expect(clock.now()).toBe(start);
  });

  it('429 with Retry-After in seconds is honoured (not the 0.5 s backoff)', async () => {
    const clock = new VirtualClock();
    const s = await endpoint([reply(429, '{}', { 'retry-after': '7' }), ok]);
    const start = clock.now();
    const r = await client(s.url, {}, clock).infer(ask);
    expect(r).toMatchObject({ ok: true, value: 5, usage: { retries: 1 } });
    expect(clock.now() - start).toBe(7000);
  });

  it('503 with Retry-After as an HTTP-date is honoured, measured on the run clock', async () => {
    const clock = new VirtualClock({ start: Date.parse('2026-01-01T00:00:00Z') });
    const at = new Date(clock.now() + 12_000).toUTCString();
    const s = await endpoint([reply(503, '{}', { 'retry-after': at }), ok]);
    const r = await client(s.url, {}, clock).infer(ask);
    expect(r).toMatchObject({ ok: true, value: 5 });
    expect(clock.now() - Date.parse('2026-01-01T00:00:00Z')).toBe(12_000);
  });

  it('retries stop when their waits would exceed the budget', async () => {
    const clock = new VirtualClock();
    const busy = reply(503, '{"error":{"message":"busy"}}', { 'retry-after': '20' });
    const s = await endpoint([busy, busy, busy, ok]);
    const e = await failure(client(s.url, { maxRetryWaitMs: 50_000 }, clock).infer(ask));
    expect(e.message).toMatch(/50000 ms in all/);
    expect(s.hits()).toBe(3);
  });

  it('401 names the key to check; a refused connection names the URL', async () => {
    const s = await endpoint([reply(401, '{"error":{"message":"bad key"}}')]);
    const e = await failure(client(s.url).infer(ask));
    expectActionable(e, s.url);
    expect(e.hint).toMatch(/OPENAI_API_KEY/);
    expect(s.hits()).toBe(1);
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/v1`;
    await new Promise<void>((r) => dead.close(() => r()));
    const c = await failure(client(url, { maxRetries: 1 }).infer(ask));
    expectActionable(c, url);
    expect(c.message).toMatch(/could not be reached/);
  });
});

describe('parseRetryAfter', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it('reads seconds, HTTP-dates, retry-after-ms, and ignores junk', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(h({ 'retry-after': 'Wed, 31 Dec 2025 00:00:05 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(h({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(h({ 'retry-after': '-1' }), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
