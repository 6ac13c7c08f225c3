import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ScriptedReply, scriptedEndpoint } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';
import { runScripted, type SeenRequest, userPrompt } from './support/scripted-run.js';

/**
 * The model's subgoal bookkeeping, over real HTTP and the virtual phone: `subgoal_done` on a read
 * closes the [>] subgoal when the read answers; `plan=[]` closes what is open; one action that
 * completes two subgoals sends `subgoal_done` with the rest as `plan`, and `done` afterwards is not
 * questioned for bookkeeping. A step that did not work applies none of it, and says so.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-subgoals-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

const prompt = userPrompt;
const drive = (replies: ScriptedReply[], goal: string, maxSteps = 5) =>
  runScripted(replies, goal, { runsDir, maxSteps });

describe('subgoal_done on a read', () => {
  it('closes the [>] subgoal when the read answers, and not when it fails (said in the history)', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['read the first app name', 'say it'] },
        { thought: 'read', tool: 'read', text: 'No such text…', subgoal_done: true, expect: '-' },
        { thought: 'read', tool: 'read', text: 'Settings', subgoal_done: true, expect: '-' },
        { thought: 'said', tool: 'done', text: 'The first app is Settings', subgoal_done: true },
      ],
      'Read the first app name on the home screen.',
    );
    expect(prompt(seen, 2)).toContain('[>] read the first app name');
    expect(prompt(seen, 2)).toMatch(/subgoal_done not applied, the \[>\] subgoal stays open: /);
    expect(prompt(seen, 3)).toContain('[x] read the first app name');
    expect(prompt(seen, 3)).toContain('[>] say it');
    expect(run.status).toBe('done');
    // The done was taken at once: no question about open subgoals.
    expect(seen).toHaveLength(4);
  });
});

describe('plan=[]', () => {
  it('leaves no subgoal open once the action worked; a bare done then ends the run unquestioned', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'look at Settings'] },
        {
          thought: 'opening it is all there is',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          plan: [],
        },
        { thought: 'finished', tool: 'done', expect: '-' },
      ],
      'Open Settings.',
    );
    // Nothing is left open; the subgoal it replaced is removed, not claimed done.
    expect(prompt(seen, 2)).not.toContain('look at Settings');
    expect(prompt(seen, 2)).not.toContain('[>]');
    expect(run.status).toBe('done');
    expect(seen).toHaveLength(3);
  });

  it('a failed step with a plan, when nothing is open, reopens the task with that plan (nothing can be left out)', async () => {
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings'] },
        {
          thought: 'opening it is all there is',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          plan: [],
        },
        { thought: 'wait', tool: 'wait', value: 0, expect: 'text_appears Zebra crossing', plan: ['check it'] },
        { thought: 'finished', tool: 'done', text: 'Settings is open', expect: '-' },
      ],
      'Open Settings.',
    );
    expect(prompt(seen, 3)).toMatch(/\[>\] check it/);
    expect(prompt(seen, 3)).not.toContain('all subgoals done');
    expect(prompt(seen, 3)).toMatch(/→ FAILED \(your plan=\[…\] is the plan now: /);
    expect(prompt(seen, 3)).not.toContain('subgoal stays open');
  });

  it('on done itself is no way around the question: open subgoals still ask for what shows the goal', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'turn Wi-Fi off'] },
        { thought: 'finished', tool: 'done', plan: [], expect: '-' },
        { thought: 'finished', tool: 'done', text: 'The home screen shows', expect: '-' },
      ],
      'Open Settings and turn Wi-Fi off.',
      3,
    );
    // Questioned (a re-ask inside the step; done itself closes the [>] one), then believed with text.
    expect(JSON.stringify(seen[2]?.messages)).toMatch(/subgoals not marked done: turn Wi-Fi off\./);
    expect(run.stepLog).toHaveLength(1);
  });
});

describe('one action that completes two subgoals', () => {
  it('closes the [>] one and takes plan=[the rest]; after a failed try nothing was applied', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'open the Settings main page', 'turn Wi-Fi off'] },
        // Fails its expectation: neither the subgoal_done nor the plan is applied.
        {
          thought: 'wait for it',
          tool: 'wait',
          value: 0,
          expect: 'text_appears Zebra crossing',
          subgoal_done: true,
          plan: ['turn Wi-Fi off'],
        },
        {
          thought: 'this opens the main page too',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          subgoal_done: true,
          plan: ['turn Wi-Fi off'],
        },
        { thought: 'Wi-Fi', tool: 'done', text: 'Settings is open', subgoal_done: true },
      ],
      'Open Settings.',
    );
    expect(prompt(seen, 2)).toContain('[>] open Settings');
    expect(prompt(seen, 2)).toContain('[ ] open the Settings main page');
    expect(prompt(seen, 2)).toMatch(/subgoal_done and plan not applied/);
    expect(prompt(seen, 3)).toContain('[x] open Settings');
    expect(prompt(seen, 3)).toContain('[>] turn Wi-Fi off');
    // The open subgoal the plan leaves out is replaced: removed, never ticked as if done, and said so.
    expect(prompt(seen, 3)).not.toMatch(/\[.\] open the Settings main page/);
    expect(prompt(seen, 3)).toContain('(plan: 1 ticked; left 2; dropped, not done: "open the Settings main page")');
    expect(run.status).toBe('done');
    expect(seen).toHaveLength(4);
  });
});

describe('subgoal_done=N', () => {
  it('ticks the [>] subgoal and the open ones up to N; plan=[…] then replaces only what is left; the history says so', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'see the main page', 'find Wi-Fi', 'turn Wi-Fi off'] },
        {
          thought: 'opening it shows the main page too',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          subgoal_done: 2,
          plan: ['turn Wi-Fi off'],
        },
        { thought: 'enough', tool: 'done', text: 'Settings is open on its main page', subgoal_done: 3 },
      ],
      'Open Settings.',
    );
    // Both subgoals the action finished are ticked, the one the plan left out is dropped (not ticked).
    expect(prompt(seen, 2)).toContain('Plan:\n1. [x] open Settings\n2. [x] see the main page\n3. [>] turn Wi-Fi off\n');
    expect(prompt(seen, 2)).toContain('(plan: 1–2 ticked; left 3; dropped, not done: "find Wi-Fi")');
    expect(JSON.stringify(seen[1]?.messages.find((m) => m.role === 'system'))).toContain('subgoal_done=true|N');
    // `done` with subgoal_done=3 closes the last one: not questioned.
    expect(run.status).toBe('done');
    expect(seen).toHaveLength(3);
  });
});

describe('subgoal_done=N from page memory', () => {
  it('a replayed action ticks as many subgoals as it did when it was learned', async () => {
    const memory = new PageMemory();
    const plan = { __fn: 'plan', subgoals: ['open Settings', 'see the main page', 'turn Wi-Fi off'] };
    const launch = {
      thought: 'opening it shows the main page too',
      tool: 'launch_app',
      package: 'com.android.settings',
      expect: 'app_foreground com.android.settings',
      subgoal_done: 2,
    };
    const finish = { thought: 'enough', tool: 'done', text: 'Settings is open on its main page', subgoal_done: 3 };
    for (const replies of [
      [plan, launch, finish],
      [plan, finish],
    ]) {
      const calls = replies.length;
      const model = await scriptedEndpoint(replies);
      const rig = await startRig({ modelUrl: model.url });
      try {
        const a = await rig.agent({ confirm: () => 'approved' });
        const run = await runAgent({ ...a.deps, memory }, { goal: 'Open Settings.', maxSteps: 4, runsDir });
        await a.close();
        expect(run.status).toBe('done');
        // The second run's launch is the replay, and it ticked both subgoals as the first did.
        expect(model.seen).toHaveLength(calls);
        const last = userPrompt(model.seen as SeenRequest[], model.seen.length - 1);
        expect(last).toContain('1. [x] open Settings\n2. [x] see the main page\n3. [>] turn Wi-Fi off');
      } finally {
        await rig.close();
        await model.close();
      }
    }
  });
});

describe('plan=[…] without subgoal_done', () => {
  it('replaces the open subgoals once the action worked (left-out ones removed, not ticked), and nothing after a failure', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'find the Network row', 'open Network'] },
        // Fails its expectation: the plan is not applied (before, a plan alone applied at once).
        { thought: 'wait', tool: 'wait', value: 0, expect: 'text_appears Zebra crossing', plan: ['open Network'] },
        // Works, and the Network row is on the first page: two subgoals done by one action.
        {
          thought: 'open it; the row is right there',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          plan: ['open Network'],
        },
        { thought: 'enough', tool: 'done', text: 'Settings is open with the Network row' },
      ],
      'Open Settings.',
    );
    expect(prompt(seen, 2)).toContain('[>] open Settings');
    expect(prompt(seen, 2)).toContain('[ ] find the Network row');
    expect(prompt(seen, 2)).toMatch(/→ FAILED \(plan not applied, the \[>\] subgoal stays open: /);
    expect(prompt(seen, 3)).toContain('Plan:\n1. [>] open Network\n');
    expect(prompt(seen, 3)).not.toContain('[x]');
    expect(run.status).toBe('done');
  });
});

describe('a revised plan', () => {
  it('keeps a subgoal that repeats a done one (the second "Add to cart"), and drops only a resent done prefix', async () => {
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['wait a moment', 'open Settings', 'wait a moment', 'say it'] },
        { thought: 'wait', tool: 'wait', value: 0, expect: 'no_change', subgoal_done: true },
        {
          thought: 'open',
          tool: 'launch_app',
          package: 'com.android.settings',
          expect: 'app_foreground com.android.settings',
          subgoal_done: true,
        },
        // The rest of the plan, unchanged: the second wait is still to do.
        { thought: 'same plan', tool: 'wait', value: 0, expect: 'no_change', plan: ['wait a moment', 'say it'] },
        // The whole plan resent: its done part is not done again.
        {
          thought: 'same plan',
          tool: 'wait',
          value: 0,
          expect: 'no_change',
          plan: ['wait a moment', 'open Settings', 'wait a moment', 'say it'],
        },
        { thought: 'said', tool: 'done', text: 'Settings is open', expect: '-' },
      ],
      'Open Settings.',
      10,
    );
    expect(prompt(seen, 4)).toMatch(/2\. \[x\] open Settings\n3\. \[>\] wait a moment\n4\. \[ \] say it/);
    expect(prompt(seen, 5)).toMatch(/2\. \[x\] open Settings\n3\. \[>\] wait a moment\n4\. \[ \] say it$/m);
  });
});

describe('subgoal_done on read_control', () => {
  it('closes the [>] subgoal when the control was read', async () => {
    const replies: Record<string, unknown>[] = [{ __fn: 'plan', subgoals: ['read the brightness level', 'say it'] }];
    const model = await scriptedEndpoint(replies);
    const rig = await startRig({ modelUrl: model.url });
    try {
      rig.phone.world.settings.brightness = 26;
      await rig.phone.launch('com.android.settings', '.DisplaySettings');
      await rig.clock.sleep(500);
      const a = await rig.agent({ confirm: () => 'approved' });
      const slider = (await a.deps.ports.observe()).obs.elements.find((e) => e.range);
      if (!slider) throw new Error('no slider on the Display page');
      replies.push(
        { thought: 'read', tool: 'read_control', target_id: slider.id, expect: 'no_change', subgoal_done: true },
        { thought: 'said', tool: 'done', text: 'Brightness level is 26/255', subgoal_done: true },
      );
      const run = await runAgent(a.deps, { goal: 'Read the brightness level.', maxSteps: 4, runsDir });
      await a.close();
      expect(prompt(model.seen, 2)).toContain('[x] read the brightness level');
      expect(prompt(model.seen, 2)).toMatch(/value=26 \(0–255\)/);
      expect(run.status).toBe('done');
      expect(model.seen).toHaveLength(3);
    } finally {
      await rig.close();
      await model.close();
    }
  });
});
