import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { scriptedEndpoint } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';

/**
 * An action whose expectation already held (the field already held the text) changed nothing: the
 * history says so, and repeating it is a circle the loop breaker ends — it is not the invisible
 * progress of a pinch on a map. Over plain adb this once retyped a search until the budget ran out.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-noop-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

const SEARCH = '817612f6'; // FoodShop's search field: its fingerprint is stable across runs
const retype = {
  thought: 'search',
  tool: 'type',
  target_id: SEARCH,
  text: 'Tea',
  expect: `element_state ${SEARCH} text=Tea`,
};

describe('an action that was already so', () => {
  it('is noted as changing nothing, and repeated it is banned on the page', async () => {
    const model = await scriptedEndpoint([
      { __fn: 'plan', subgoals: ['open FoodShop', 'search Tea'] },
      {
        thought: 'open',
        tool: 'launch_app',
        package: 'FoodShop',
        expect: 'app_foreground FoodShop',
        subgoal_done: true,
      },
      retype,
      retype,
      retype,
      retype,
      { thought: 'stuck', tool: 'ask_user', text: 'stuck', expect: '-' },
    ]);
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const run = await runAgent(a.deps, { goal: 'Search the FoodShop menu for Tea.', maxSteps: 10, runsDir });
      await a.close();
      const prompts = model.seen.map((r) => String(r.messages.find((m) => m.role === 'user')?.content ?? ''));
      const last = prompts.at(-1) ?? '';
      // Checked and held, before the action as after it: met, and said to have changed nothing.
      expect(last).toMatch(
        /type \[817[0-9a-f]*\] .*expect element_state text=Tea → met \(it was already so: nothing changed\)/,
      );
      expect(last).toContain('repeated without progress; banned');
      expect(run.status).toBe('ask_user');
    } finally {
      await rig.close();
      await model.close();
    }
  });
});
