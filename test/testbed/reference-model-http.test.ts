import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

/** Malformed chat-completions requests get a 400 naming the parameter, as from any OpenAI-compatible server. */
let model: ReferenceModel;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: [], tokenizer: 'estimate' });
});
afterAll(async () => {
  await model.close();
});

async function post(body: string) {
  const r = await fetch(`${model.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: r.status, json: (await r.json()) as { error?: { message: string; type: string; param: unknown } } };
}

describe('reference model: request validation', () => {
  it.each([
    ['null', /body must be a JSON object, got null/, null],
    ['1', /body must be a JSON object, got a number/, null],
    ['[]', /body must be a JSON object, got an array/, null],
    ['{}', /messages must be an array of message objects, got nothing/, 'messages'],
    ['{"messages":"hi"}', /messages must be an array .* got a string/, 'messages'],
    ['{"messages":{}}', /messages must be an array .* got an object/, 'messages'],
    ['{"messages":[]}', /at least one message/, 'messages'],
    ['{"messages":[null]}', /messages\[0\] must be an object, got null/, 'messages[0]'],
    ['{"messages":[{"content":"x"}]}', /messages\[0\]\.role must be one of/, 'messages[0]'],
    ['{"messages":[{"role":"user","content":5}]}', /messages\[0\]\.content must be a string/, 'messages[0]'],
    ['{"model":7,"messages":[{"role":"user","content":"x"}]}', /model must be a string/, 'model'],
    ['{"messages":[{"role":"user","content":"x"}],"tools":{}}', /tools must be an array/, 'tools'],
    ['{"messages": [', /bad request/, undefined],
  ])('%s → 400', async (body, message, param) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.error?.type).toBe('invalid_request_error');
    expect(r.json.error?.message).toMatch(message);
    if (param !== undefined) expect(r.json.error?.param).toBe(param);
  });

  it('a well-formed request still gets a completion, and the SDK reads a 400 as a BadRequestError', async () => {
    const ok = await post('{"model":"m","messages":[{"role":"user","content":"Goal: x"}]}');
    expect(ok.status).toBe(200);
    const sdk = new OpenAI({ baseURL: model.url, apiKey: 'k', maxRetries: 0 });
    await expect(sdk.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
  });
});

describe('reference model: latencyMs (a hosted model stand-in for bench wall time)', () => {
  it('sleeps before answering, really: the reply comes no sooner than latencyMs', async () => {
    const slow = await startReferenceModel({ catalog: [], tokenizer: 'estimate', latencyMs: 120 });
    try {
      const t0 = performance.now();
      const r = await fetch(`${slow.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":"m","messages":[{"role":"user","content":"Goal: x"}]}',
      });
      expect(r.status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
      expect(slow.stats().requests).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
