import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { createLlmClient } from '../../src/planner/llm/client.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import { Planner } from '../../src/planner/planner.js';
import { type CatalogEntry, intentsForGoal } from '../../src/testbed/reference-model/intents.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { REGISTRY } from '../../src/tools/index.js';
import { SETTINGS_IDS, SETTINGS_SCREEN, SETTINGS_TOOLS } from '../planner/fixtures.js';

const catalog: CatalogEntry[] = [
  {
    id: 'SET-01',
    instruction: 'Turn Wi-Fi {state}.',
    intents: ['launch "Settings"', 'toggle "Wi-Fi" {state}', 'done'],
  },
  {
    id: 'SET-03',
    instruction: 'Set screen brightness to about {pct}%.',
    intents: ['slide "Brightness" {pct}', 'done'],
  },
  { id: 'SET-05', instruction: 'Which Android version is this phone running? Number only.', intents: ['answer "14"'] },
];
const tools: string[] = [...SETTINGS_TOOLS];

let model: ReferenceModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function planner(noise = 0, seed = 1) {
  model = await startReferenceModel({ catalog, noise, seed, tokenizer: noise > 0 ? 'estimate' : 'o200k' });
  const config = resolveLlmConfig({ baseUrl: model.url, model: 'reference' }, {});
  const llm = createLlmClient({ config, clock: new VirtualClock(), logger: new Logger('llm', { sink: () => {} }) });
  return new Planner({ llm, logger: new Logger('planner', { sink: () => {} }), catalog: REGISTRY.catalog });
}

const base = {
  goal: 'Turn Wi-Fi off.',
  screen: SETTINGS_SCREEN,
  screenIsDelta: false,
  aspect: 0.45,
  history: [],
  banned: [],
  tools,
  ids: SETTINGS_IDS,
  visualFirst: false,
};

describe('reference model over HTTP', () => {
  it('fills intents from the goal text', () => {
    expect(intentsForGoal(catalog, 'Set screen brightness to about 40%.')).toEqual(['slide "Brightness" 40', 'done']);
    expect(intentsForGoal(catalog, 'Order a pizza')).toBeUndefined();
  });

  it('plans with its intents and acts on the screen it reads in the prompt', async () => {
    const p = await planner();
    const { plan, usage } = await p.makePlan({ goal: 'Turn Wi-Fi off.', screen: SETTINGS_SCREEN, aspect: 0.45 });
    expect(plan.map((s) => s.text)).toEqual(['launch "Settings"', 'toggle "Wi-Fi" off', 'done']);
    expect(usage.calls).toBe(1);
    expect(usage.promptTokens).toBeGreaterThan(50);
    plan[0]!.done = true;
    const r = await p.decide({ ...base, plan, current: 1 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.step.decision.action).toEqual({ tool: 'tap', target_id: '1a2b3c4d' });
    expect(r.step.decision.expect).toEqual({ kind: 'element_state', target_id: '1a2b3c4d', state: 'off' });
    expect(r.step.subgoalDone).toBe(true);
  });

  it('slides a seek bar with a native action and answers only what is on screen', async () => {
    const p = await planner();
    const slide = await p.decide({
      ...base,
      goal: 'Set screen brightness to about 70%.',
      plan: [{ text: 'slide "Brightness" 70', done: false }],
      current: 0,
    });
    expect(slide.ok && slide.step.decision.action).toEqual({
      tool: 'control_action',
      target_id: '77aa0011',
      args: { action: 'set_progress', value: 70 },
    });
    // "14" is not on this screen: the model searches (scrolls) instead of answering blind.
    const ask = await p.decide({
      ...base,
      goal: 'Which Android version is this phone running? Number only.',
      plan: [{ text: 'answer "14"', done: false }],
      current: 0,
    });
    expect(ask.ok && ask.step.decision.action.tool).toBe('swipe');
  });

  it('a burst that finishes two subgoals ticks both by number (subgoal_done=N, as the tool help offers) and sends what is left', async () => {
    const p = await planner();
    const r = await p.decide({
      ...base,
      goal: 'Turn Wi-Fi off.',
      tools: [...tools, 'action_sequence'],
      plan: [
        { text: 'toggle "Wi-Fi" off', done: false },
        { text: 'toggle "Bluetooth" on', done: false },
        { text: 'done', done: false },
      ],
      current: 0,
      burstLimit: 3,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.step.decision.action.tool).toBe('action_sequence');
    // Subgoals 1 and 2 (indices 0–1) are ticked; before, the second was dropped by the plan.
    expect(r.step.subgoalDone).toBe(true);
    expect(r.step.doneThrough).toBe(1);
    expect(r.step.revisedPlan).toEqual(['done']);
  });

  it('says infeasible for goals it has no intents for', async () => {
    const p = await planner();
    const r = await p.decide({ ...base, goal: 'Fly to the moon', plan: [], current: 0 });
    expect(r.ok && r.step.decision.action.tool).toBe('infeasible');
  });

  it('injects seeded noise that the planner catches by re-asking', async () => {
    const p = await planner(1, 7);
    let reasks = 0;
    let ok = 0;
    for (let i = 0; i < 20; i++) {
      const r = await p.decide({
        ...base,
        plan: [
          { text: 'toggle "Wi-Fi" off', done: false },
          { text: 'done', done: false },
        ],
        current: 0,
      });
      reasks += r.usage.reasks;
      if (r.ok) ok++;
    }
    const stats = model!.stats();
    expect(Object.keys(stats.noise).length).toBeGreaterThanOrEqual(4);
    // Invented ids and broken JSON never reach the executor: they are re-asked.
    expect(reasks).toBeGreaterThan(0);
    expect(stats.requests).toBe(20 + reasks);
    expect(ok).toBeLessThanOrEqual(20);
  });
});
