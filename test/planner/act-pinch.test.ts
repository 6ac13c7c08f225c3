import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { actArgsSchema, parseAct } from '../../src/planner/act-tool.js';
import { parseExpect } from '../../src/planner/expect-dsl.js';
import { createLlmClient } from '../../src/planner/llm/client.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import { Planner } from '../../src/planner/planner.js';
import { systemPrompt } from '../../src/planner/prompt/builders.js';
import { REGISTRY } from '../../src/tools/index.js';
import { SETTINGS_DECIDE, SETTINGS_IDS, scriptedEndpoint } from './fixtures.js';

/** The planner's pinch: a scale around a target or point, checked before anything is sent. */

const tools = ['tap', 'pinch', 'back', 'done'] as const;
const ctx = { catalog: REGISTRY.catalog, tools, ids: SETTINGS_IDS, subgoal: 'zoom in' };
const MAP = '1a2b3c4d';
const pinch = (over: Record<string, unknown>) => ({
  thought: 'zoom',
  tool: 'pinch',
  target_id: MAP,
  scale: 2.5,
  expect: 'frame_changes',
  ...over,
});

describe('pinch in the act schema', () => {
  it('offers scale in the JSON schema and lists pinch with its scale range in the prompt', () => {
    const schema = z.toJSONSchema(actArgsSchema([...tools], REGISTRY.catalog)) as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties.scale).toEqual({ type: 'number' });
    expect(systemPrompt([...tools], REGISTRY.catalog)).toContain('pinch(target_id|point, scale=0.25..4, >1 zooms in)');
    expect(systemPrompt([...tools], REGISTRY.catalog)).toContain('frame_changes');
  });

  it('turns a valid pinch into an action with the scale and a frame_changes expectation', () => {
    const r = parseAct(pinch({}), ctx);
    expect(r.ok && r.value.decision).toEqual({
      thought: 'zoom',
      action: { tool: 'pinch', target_id: MAP, args: { scale: 2.5 } },
      expect: { kind: 'frame_changes' },
      subgoal: 'zoom in',
    });
    const out = parseAct(pinch({ target_id: undefined, point: { x: 500, y: 600 }, scale: 0.5 }), ctx);
    expect(out.ok && out.value.decision.action).toEqual({
      tool: 'pinch',
      point: { x: 500, y: 600 },
      args: { scale: 0.5 },
    });
    expect(parseExpect('frame_changes')).toEqual({ ok: true, value: { kind: 'frame_changes' } });
  });

  it('rejects a scale out of range, a scale of 1, no scale and no centre, saying what is allowed', () => {
    for (const scale of [10, 0.1, 1, -2]) {
      const r = parseAct(pinch({ scale }), ctx);
      expect(r.ok, String(scale)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/0\.25\.\.4/);
    }
    const none = parseAct(pinch({ scale: undefined }), ctx);
    expect(!none.ok && none.error).toMatch(/pinch needs scale/);
    const nowhere = parseAct(pinch({ target_id: undefined }), ctx);
    expect(!nowhere.ok && nowhere.error).toMatch(/target_id .* or a point/);
    const text = parseAct(pinch({ scale: 'big' }), ctx);
    expect(!text.ok && text.error).toMatch(/scale/);
  });
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('an invalid pinch is re-asked', () => {
  it('feeds the scale error back to the model and takes its corrected call', async () => {
    const e = await scriptedEndpoint([pinch({ scale: 8 }), pinch({ scale: 4 })]);
    close = e.close;
    const logger = new Logger('planner', { sink: () => {} });
    const llm = createLlmClient({
      config: resolveLlmConfig({ baseUrl: e.url, model: 'm' }, {}),
      clock: new VirtualClock(),
      logger,
    });
    const r = await new Planner({ llm, logger, catalog: REGISTRY.catalog }).decide({
      ...SETTINGS_DECIDE,
      goal: 'Zoom in on the map.',
      plan: [
        { text: 'zoom in', done: false },
        { text: 'finish', done: false },
      ],
      tools: [...tools],
      visualFirst: false,
    });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.step.decision.action.args).toEqual({ scale: 4 });
    expect(e.seen).toHaveLength(2);
    const retry = JSON.stringify(e.seen[1]?.messages);
    expect(retry).toContain('pinch scale 8 is out of range');
  });
});
