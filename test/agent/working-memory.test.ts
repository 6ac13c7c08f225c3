import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { scriptedEndpoint } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';

/**
 * Decisions that act on the agent, not the phone: a `note` is shown in every later prompt and kept
 * in the checkpoint; a `read` answers in the history; a revised plan lists the subgoals still open
 * (it replaces the open ones; those it leaves out are removed).
 * Nothing of these reaches the phone.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-notes-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('working memory in the loop', () => {
  it('keeps a note in every later prompt, answers a read in the history, and takes a revised plan', async () => {
    const model = await scriptedEndpoint([
      // Not a plan (asked three times): the goal becomes the only subgoal.
      { thought: 'plan', tool: 'done' },
      { thought: 'plan', tool: 'done' },
      { thought: 'plan', tool: 'done' },
      { thought: 'remember', tool: 'note', text: 'the code is 4711', plan: ['check the code', 'finish'] },
      { thought: 'full text', tool: 'read', text: 'Acme' },
      // Subgoals unmarked: questioned once, then believed with what shows it.
      { thought: 'finished', tool: 'done', text: 'The code 4711 is noted' },
      { thought: 'finished', tool: 'done', text: 'The code 4711 is noted' },
    ]);
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const inputs = rig.phone.world.events.length;
      const run = await runAgent(a.deps, { goal: 'Remember the code 4711.', maxSteps: 6, runsDir });
      await a.close();
      expect(run.status).toBe('done');
      expect(rig.phone.world.events.length).toBe(inputs);
      const prompts = model.seen.map((r) => JSON.stringify(r.messages));
      expect(prompts[3]).not.toContain('the code is 4711');
      expect(prompts[4]).toContain('the code is 4711');
      expect(prompts[5]).toContain('the code is 4711');
      expect(prompts[5]).toMatch(/read text=\\"Acme\\"/);
      expect(prompts[4]).toContain('check the code');
      const cp = JSON.parse(await readFile(path.join(run.runDir, 'checkpoint.json'), 'utf8'));
      expect(cp.notes).toEqual(['the code is 4711']);
      // The plan sent replaces the open subgoals: the one it leaves out is removed, never ticked.
      expect(cp.subgoals.map((p: { text: string }) => p.text)).toEqual(['check the code', 'finish']);
      expect(prompts[4]).not.toContain('[x] Remember the code 4711.');
      expect(prompts[4]).toContain('1. [>] check the code');
    } finally {
      await rig.close();
      await model.close();
    }
  });
});

describe('a revised plan sent with subgoal_done', () => {
  it('closes the subgoal the model was shown, then puts the new plan after it', async () => {
    const model = await scriptedEndpoint([
      { __fn: 'plan', subgoals: ['read the code', 'write it down'] },
      {
        thought: 'read it; the rest is new',
        tool: 'note',
        text: 'code 4711',
        subgoal_done: true,
        plan: ['say the code'],
      },
      { thought: 'finished', tool: 'done', text: 'code 4711', subgoal_done: true },
    ]);
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const run = await runAgent(a.deps, { goal: 'Remember the code 4711.', maxSteps: 4, runsDir });
      await a.close();
      const prompt = JSON.stringify(model.seen[2]?.messages);
      // The shown subgoal is ticked; the open one the plan leaves out is replaced (removed, not
      // ticked, and the note says so); the revised one is the current one.
      expect(prompt).toMatch(/\[x\] read the code/);
      expect(prompt).not.toMatch(/\[.\] write it down/);
      expect(prompt).toContain('kept in Notes; plan: 1 ticked; left 2; dropped, not done: \\"write it down\\"');
      expect(prompt).toMatch(/\[>\] say the code/);
      expect(run.status).toBe('done');
    } finally {
      await rig.close();
      await model.close();
    }
  });
});

describe('page memory within one run', () => {
  it('does not replay an action the model has just done on the same page (it learned it now)', async () => {
    const model = await scriptedEndpoint([
      { thought: 'plan', tool: 'done' },
      { thought: 'plan', tool: 'done' },
      { thought: 'plan', tool: 'done' },
      { thought: 'stay', tool: 'back', expect: 'no_change' },
      { thought: 'finished', tool: 'done', text: 'The home screen is shown' },
    ]);
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const run = await runAgent(a.deps, { goal: 'Stay on the home screen.', maxSteps: 4, runsDir });
      await a.close();
      expect(run.stepLog.map((s) => s.source)).toEqual(['llm', 'llm']);
      expect(run.status).toBe('done');
    } finally {
      await rig.close();
      await model.close();
    }
  });
});
