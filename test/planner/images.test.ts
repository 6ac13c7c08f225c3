import { afterEach, describe, expect, it } from 'vitest';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import { plannerAt, SETTINGS_DECIDE, scriptedEndpoint } from './fixtures.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
});

const images = (m: { messages: { role: string; content: unknown }[] }) =>
  m.messages
    .flatMap((x) => (Array.isArray(x.content) ? x.content : []))
    .filter((p) => (p as { type: string }).type === 'image_url');

function planner(url: string, requests: unknown[]) {
  return plannerAt(url, async (req) => {
    requests.push(req);
    return 'data:image/jpeg;base64,AAAA';
  });
}

const base = SETTINGS_DECIDE;
const tap = { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'element_state 1a2b3c4d off' };

describe('screenshots go to the model only when needed', () => {
  it('sends none on a normal page', async () => {
    const e = await scriptedEndpoint([tap]);
    close = e.close;
    const asked: unknown[] = [];
    const r = await planner(e.url, asked).decide({ ...base, visualFirst: false });
    expect(r.ok).toBe(true);
    expect(images(e.seen[0]!)).toHaveLength(0);
    expect(asked).toHaveLength(0);
  });
  it('sends the screen on a visual-first page', async () => {
    const e = await scriptedEndpoint([tap]);
    close = e.close;
    const asked: unknown[] = [];
    await planner(e.url, asked).decide({ ...base, visualFirst: true });
    expect(images(e.seen[0]!)).toHaveLength(1);
    expect(asked).toEqual([{}]);
  });
  it('a look is the step: the planner returns it, takes no picture, and makes one call', async () => {
    const e = await scriptedEndpoint([{ thought: 'zoom', tool: 'look', target_id: '77aa0011' }]);
    close = e.close;
    const asked: unknown[] = [];
    const r = await planner(e.url, asked).decide({ ...base, visualFirst: false });
    expect(r.ok && r.step.look).toEqual({ target_id: '77aa0011', point: undefined });
    expect(asked).toHaveLength(0);
    expect(r.usage.calls).toBe(1);
  });
  it("sends the look's screenshot with the next decision, saying what it shows", async () => {
    const e = await scriptedEndpoint([tap]);
    close = e.close;
    const asked: unknown[] = [];
    const look = { url: 'data:image/png;base64,AAAA', of: '[77aa0011] "Brightness" and its row' };
    const r = await planner(e.url, asked).decide({ ...base, visualFirst: true, look });
    expect(r.ok).toBe(true);
    // The look's picture stands in for the whole-screen one a visual-first page would get.
    expect(asked).toHaveLength(0);
    expect(images(e.seen[0]!)).toEqual([{ type: 'image_url', image_url: { url: look.url, detail: 'low' } }]);
    expect(JSON.stringify(e.seen[0]!.messages)).toContain(
      'Your look: a screenshot of [77aa0011] \\"Brightness\\" and its row is attached.',
    );
  });
});

describe('a model that reads no images', () => {
  it('is told a visual-first screen is pixels it cannot see, and gets no image', async () => {
    const e = await scriptedEndpoint([tap]);
    close = e.close;
    const r = await plannerAt(e.url).decide({ ...base, tools: ['tap', 'back', 'done'], visualFirst: true });
    expect(r.ok).toBe(true);
    expect(images(e.seen[0]!)).toHaveLength(0);
    const text = JSON.stringify(e.seen[0]!.messages);
    expect(text).toContain('no screenshot can be given to you');
    expect(text).not.toMatch(/look\(/);
  });

  it('declares vision by flag, environment or preset; an unknown model has none', () => {
    expect(resolveLlmConfig({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, {}).vision).toBe(false);
    expect(resolveLlmConfig({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', vision: true }, {}).vision).toBe(true);
    expect(resolveLlmConfig({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, { PHONE_AGENT_VISION: '1' }).vision).toBe(
      true,
    );
    expect(resolveLlmConfig({ preset: 'openai', apiKey: 'k' }, {}).vision).toBe(true);
    expect(resolveLlmConfig({ preset: 'ollama' }, {}).vision).toBe(false);
  });

  it('encodes screenshots as jpeg unless --image-format or PHONE_AGENT_IMAGE_FORMAT says png; a typo is refused', () => {
    const at = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };
    expect(resolveLlmConfig(at, {}).imageFormat).toBe('jpeg');
    expect(resolveLlmConfig({ ...at, imageFormat: 'png' }, {}).imageFormat).toBe('png');
    expect(resolveLlmConfig(at, { PHONE_AGENT_IMAGE_FORMAT: 'png' }).imageFormat).toBe('png');
    expect(resolveLlmConfig({ ...at, imageFormat: 'jpeg' }, { PHONE_AGENT_IMAGE_FORMAT: 'png' }).imageFormat).toBe(
      'jpeg',
    );
    expect(() => resolveLlmConfig({ ...at, imageFormat: 'jpg' }, {})).toThrow(/unknown image format "jpg".*png/s);
  });
});
