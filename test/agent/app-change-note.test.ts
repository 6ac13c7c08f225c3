import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { LAUNCHER_PACKAGE } from '../../src/testbed/sim/index.js';
import { scriptedEndpoint } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';

/**
 * Issue 22, item 8: a step after which another app is in front says which (`→ met (now in …)`):
 * players read a bare `met` as "still in the app". A launch, which names its app, says nothing more.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-appchange-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('the history line of a step that brought another app to the front', () => {
  it('names the app now in front; an app_foreground expectation, which names the app, does not repeat it', async () => {
    const model = await scriptedEndpoint([
      { __fn: 'plan', subgoals: ['open FoodShop', 'leave it'] },
      {
        thought: 'open',
        tool: 'launch_app',
        package: 'FoodShop',
        expect: 'app_foreground FoodShop',
        subgoal_done: true,
      },
      { thought: 'leave', tool: 'home', expect: 'page_changes' },
      { thought: 'stop', tool: 'ask_user', text: 'where now?', expect: '-' },
    ]);
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      await runAgent(a.deps, { goal: 'Open FoodShop, then go home.', maxSteps: 5, runsDir });
      await a.close();
      const prompts = model.seen.map((r) => String(r.messages.find((m) => m.role === 'user')?.content ?? ''));
      const last = prompts.at(-1) ?? '';
      expect(last).toContain(`home expect page_changes → met (now in ${LAUNCHER_PACKAGE})`);
      expect(last).toMatch(/launch_app .*expect app_foreground FoodShop → met$/m);
    } finally {
      await rig.close();
      await model.close();
    }
  });
});
