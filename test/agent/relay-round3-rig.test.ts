import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { scriptedEndpoint } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';
import { userPrompt } from './support/scripted-run.js';

/**
 * Issue 21, relay round 3, on a phone the test sets up first (a dialog over the app): what the
 * history says about a dialog an interrupt rule dismissed, and what the plan line says while a
 * dialog is open.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-round3-rig-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

async function withDialog(
  dialog: Parameters<Awaited<ReturnType<typeof startRig>>['phone']['popup']>[0],
  replies: Record<string, unknown>[],
  goal: string,
) {
  const model = await scriptedEndpoint(replies);
  const rig = await startRig({ modelUrl: model.url });
  try {
    await rig.phone.launch('com.android.settings');
    await rig.clock.sleep(300);
    rig.phone.popup(dialog);
    await rig.clock.sleep(300);
    const a = await rig.agent({ confirm: () => 'approved' });
    const run = await runAgent(a.deps, { goal, maxSteps: 3, runsDir });
    await a.close();
    return { run, seen: model.seen as { messages: { role: string; content: unknown }[] }[] };
  } finally {
    await rig.close();
    await model.close();
  }
}

describe('an interrupt rule', () => {
  it('names the dialog its tap dismissed', async () => {
    const { seen } = await withDialog(
      {
        kind: 'app',
        title: '',
        message: 'A new version is available. Update now?',
        buttons: [
          { text: 'Later', onTap: () => {} },
          { text: 'Update', onTap: () => {} },
        ],
      },
      [
        { __fn: 'plan', subgoals: ['look at Settings'] },
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Look at the Settings app.',
    );
    const user = userPrompt(seen, 1);
    expect(user).toMatch(
      /1\. tap \[[0-9a-f~]+\] "Later" .*\(not your action: an interrupt rule; update dialog "A new version is available/,
    );
  });
});

describe('all subgoals done while a dialog is open', () => {
  it('does not say "call done" over the dialog: it names it and says to answer it first', async () => {
    const { seen } = await withDialog(
      {
        kind: 'app',
        title: 'Delete this note?',
        message: 'It cannot be restored.',
        buttons: [
          { text: 'Cancel', onTap: () => {} },
          { text: 'Delete', onTap: () => {} },
        ],
      },
      [
        { __fn: 'plan', subgoals: ['ask to delete the note'] },
        { thought: 'asked', tool: 'read', text: 'Delete this note?', expect: '-', subgoal_done: true },
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Ask to delete the note.',
    );
    const user = userPrompt(seen, 2);
    expect(user).toContain(
      'Current subgoal: all subgoals done, but a dialog is open ("Delete this note?"): answer it first (unless the goal wants it left open), then check the screen and call done',
    );
    expect(user).not.toContain('all subgoals done — call done if');
  });
});
