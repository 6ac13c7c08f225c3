import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ActionableError } from '../../src/core/errors.js';
import { Logger } from '../../src/core/logger.js';
import { createLlmClient } from '../../src/planner/llm/client.js';
import { type LlmConfig, resolveLlmConfig } from '../../src/planner/llm/config.js';
import { toolCallCompletion } from './fixtures.js';

/** A scripted OpenAI-compatible endpoint on loopback: each request gets the next canned reply. */
async function scripted(replies: { status: number; body: unknown }[]) {
  const seen: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => {
      seen.push(JSON.parse(data));
      const r = replies.shift() ?? { status: 500, body: { error: { message: 'script exhausted' } } };
      res.writeHead(r.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const call = (args: string) => ({ status: 200, body: toolCallCompletion('f', args) });

const fn = { name: 'f', description: 'test', parameters: { type: 'object', properties: { n: { type: 'number' } } } };
const parse = (raw: unknown) =>
  raw && typeof raw === 'object' && 'n' in raw && typeof raw.n === 'number'
    ? ({ ok: true, value: raw.n } as const)
    : ({ ok: false, error: 'n must be a number' } as const);

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

function client(url: string, over: Partial<LlmConfig> = {}) {
  const config = { ...resolveLlmConfig({ baseUrl: url, model: 'm' }, {}), ...over };
  return createLlmClient({ config, clock: new VirtualClock(), logger: new Logger('llm', { sink: () => {} }) });
}

describe('resolveLlmConfig', () => {
  it('refuses to guess an endpoint and names the variables to set', () => {
    expect(() => resolveLlmConfig({}, {})).toThrow(ActionableError);
    try {
      resolveLlmConfig({}, {});
    } catch (e) {
      expect(String(e)).toMatch(/OPENAI_BASE_URL/);
      expect(String(e)).toMatch(/PHONE_AGENT_MODEL/);
    }
  });
  it('reads env, flags win, presets are explicit and need keys when hosted', () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', PHONE_AGENT_MODEL: 'env-model', OPENAI_API_KEY: 'k' };
    expect(resolveLlmConfig({}, env)).toMatchObject({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'env-model',
      apiKey: 'k',
    });
    expect(resolveLlmConfig({ model: 'flag' }, env).model).toBe('flag');
    expect(resolveLlmConfig({ preset: 'ollama' }, {})).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1' });
    expect(() => resolveLlmConfig({ preset: 'deepseek' }, {})).toThrow(/OPENAI_API_KEY/);
    expect(() => resolveLlmConfig({ preset: 'nope' }, {})).toThrow(/unknown LLM preset/);
    expect(resolveLlmConfig({ preset: 'openai' }, { OPENAI_API_KEY: 'k' }).strictTools).toBe(true);
  });
});

describe('LLM client', () => {
  it('re-asks after malformed JSON and invalid arguments, feeding the error back', async () => {
    const s = await scripted([call('{"n": 1'), call('{"n": "one"}'), call('{"n": 3}')]);
    closers.push(s.close);
    const r = await client(s.url).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse });
    expect(r).toMatchObject({ ok: true, value: 3, usage: { calls: 3, reasks: 2, promptTokens: 300 } });
    const third = s.seen[2] as { messages: { role: string; content: string | null }[] };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(third.messages[2]?.content).toContain('not valid JSON');
    expect(third.messages[4]?.content).toContain('n must be a number');
  });
  it('gives up after the bounded re-asks with the last error', async () => {
    const s = await scripted([call('{}'), call('{}'), call('{}')]);
    closers.push(s.close);
    const r = await client(s.url).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('n must be a number');
    expect(s.seen).toHaveLength(3);
  });
  it('retries 429 and 5xx with backoff, but not 400', async () => {
    const s = await scripted([
      { status: 429, body: { error: { message: 'slow down' } } },
      { status: 503, body: { error: { message: 'busy' } } },
      call('{"n": 7}'),
    ]);
    closers.push(s.close);
    const r = await client(s.url).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse });
    expect(r).toMatchObject({ ok: true, value: 7, usage: { retries: 2, calls: 3 } });
    const bad = await scripted([{ status: 400, body: { error: { message: 'bad' } } }, call('{"n": 1}')]);
    closers.push(bad.close);
    await expect(client(bad.url).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse })).rejects.toThrow(
      /400/,
    );
  });
  it('uses strict schemas when the provider supports them and JSON mode when it has no tools', async () => {
    const s = await scripted([
      call('{"n": 1}'),
      {
        status: 200,
        body: {
          ...call('').body,
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '```json\n{"n": 2}\n```' } },
          ],
        },
      },
    ]);
    closers.push(s.close);
    await client(s.url, { strictTools: true }).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse });
    const strictReq = s.seen[0] as {
      tools: { function: { strict: boolean; parameters: { required: string[]; additionalProperties: boolean } } }[];
    };
    expect(strictReq.tools[0]?.function.strict).toBe(true);
    expect(strictReq.tools[0]?.function.parameters).toMatchObject({ required: ['n'], additionalProperties: false });
    const r = await client(s.url, { tools: false }).infer({ messages: [{ role: 'user', content: 'go' }], fn, parse });
    expect(r).toMatchObject({ ok: true, value: 2 });
    expect(s.seen[1]).toMatchObject({ response_format: { type: 'json_object' } });
    expect(s.seen[1]).not.toHaveProperty('tools');
  });
});
