import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINE_ID_RE } from '../../src/core/element-ref.js';
import type { ScriptedReply } from '../planner/fixtures.js';
import { runScripted, type SeenRequest, userPrompt } from './support/scripted-run.js';

/**
 * What the model is told after each step, over real HTTP and the virtual phone (issue 21): every
 * history line says whether its expectation was checked and held (`→ met`) or failed with what was
 * seen; a failed check keeps `done` refused until an action's check is met or the model reads or
 * looks at the screen, and the refusal says so; a look is a step of its own whose screenshot comes
 * with the next prompt; a ban names the action as it was sent.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-feedback-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

type Seen = SeenRequest;
const prompt = userPrompt;
const images = (seen: Seen[], n: number) =>
  (seen[n]?.messages ?? []).flatMap((m) =>
    Array.isArray(m.content) ? m.content.filter((p: { type?: string }) => p.type === 'image_url') : [],
  );

/** The id of the screen line whose label starts with `label`. */
function idOf(user: string, label: string): string {
  const line = user.split('\n').find((l) => l.includes(`"${label}`) && LINE_ID_RE.test(l));
  const id = line ? LINE_ID_RE.exec(line)?.[1] : undefined;
  if (!id) throw new Error(`no screen line labelled "${label}" in:\n${user}`);
  return id;
}

const drive = (replies: ScriptedReply[], goal: string, opts: { maxSteps?: number; vision?: boolean } = {}) =>
  runScripted(replies, goal, { runsDir, maxSteps: opts.maxSteps ?? 8, vision: opts.vision });

describe('the history says what became of each expectation', () => {
  it('met when checked and held; a failed value= check says the value it saw; done waits for a read', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Display settings', 'set brightness to 40'] },
        { thought: 'open', tool: 'launch_app', package: 'com.android.settings', expect: 'page_changes' },
        (u) => ({ thought: 'display', tool: 'tap', target_id: idOf(u, 'Display'), expect: 'element_gone' }),
        (u) => ({
          thought: 'brightness',
          tool: 'control_action',
          target_id: idOf(u, 'Brightness'),
          op: 'set_progress',
          value: 40,
          // Wrong on purpose: the slider will hold 40, not 99.
          expect: `element_state ${idOf(u, 'Brightness')} value=99`,
        }),
        { thought: 'it is set', tool: 'done', text: 'Brightness is 40' },
        (u) => ({ thought: 'check it', tool: 'read', target_id: idOf(u, 'Brightness'), expect: '-' }),
        { thought: 'it is set', tool: 'done', text: 'Brightness is 40' },
      ],
      'Set the screen brightness to 40.',
    );
    const last = prompt(seen, 6);
    // Another app came to the front: the history says which (issue 22 item 8).
    expect(last).toMatch(
      /1\. launch_app package=com\.android\.settings expect page_changes → met \(now in com\.android\.settings\)\n/,
    );
    // The action's own target is left out of its expectation (`element_gone`, not `element_gone <id>`).
    expect(last).toMatch(/2\. tap \[[0-9a-f~]+\] "Display[^"]*" expect element_gone → met\n/);
    expect(last).toMatch(
      /3\. control_action \[[0-9a-f~]+\] "Brightness[^"]*" op=set_progress value=40 expect element_state value=99 → FAILED \("Brightness[^"]*" \[[0-9a-f~]+\] is value=40 \(0\.\.255\), not value=99\)/,
    );
    // The refused done says exactly what would clear it…
    expect(last).toMatch(
      /4\. done text="Brightness is 40" → FAILED \(the last action failed its check \(.*\); done is accepted after an action whose expect is met, or after a read or look at what shows the goal reached\)/,
    );
    // …and a read of the screen does: the done after it ends the run.
    expect(last).toMatch(/5\. read \[[0-9a-f~]+\] → ok \(full text: /);
    expect(run.status).toBe('done');
    expect(seen).toHaveLength(7);
  });
});

describe('look is a step', () => {
  it('is recorded in the history, its screenshot comes with the next prompt, and a second look is one more step', async () => {
    const { run, seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Settings', 'see the Wi-Fi switch'] },
        { thought: 'open', tool: 'launch_app', package: 'com.android.settings', expect: 'page_changes' },
        (u) => ({ thought: 'zoom', tool: 'look', target_id: idOf(u, 'Network') }),
        (u) => ({ thought: 'zoom more', tool: 'look', target_id: idOf(u, 'Battery') }),
        { thought: 'seen', tool: 'done', text: 'Settings shows Network & internet' },
      ],
      'Open Settings.',
      { vision: true },
    );
    expect(images(seen, 2)).toHaveLength(0);
    // The look's own step, then its picture with the next decision, saying what it shows.
    expect(prompt(seen, 3)).toMatch(
      /2\. look \[[0-9a-f~]+\] "Network[^"]*" → ok \(screenshot sent with the next prompt\)/,
    );
    expect(images(seen, 3)).toHaveLength(1);
    // The look names the control by the id the listing and the history show it by, not the agent's full id.
    const historyId = prompt(seen, 3).match(/2\. look \[([0-9a-f~]+)\]/)?.[1];
    expect(prompt(seen, 3).match(/Your look: a screenshot of \[([0-9a-f~]+)\]/)?.[1]).toBe(historyId);
    expect(prompt(seen, 3)).toMatch(
      /Your look: a screenshot of \[[0-9a-f~]+\] "Network[^"]*" and its row is attached\./,
    );
    // No "no (further) screenshot": another look is another step, with its own picture.
    expect(prompt(seen, 4)).toMatch(/3\. look \[[0-9a-f~]+\] "Battery[^"]*" → ok/);
    expect(images(seen, 4)).toHaveLength(1);
    expect(run.status).toBe('done');
    expect(run.steps).toBe(4);
  });
});

describe('a ban names the action as it was sent', () => {
  it('shows the point tapped, and a tap a few units off is refused naming both', async () => {
    const miss = (x: number, y: number) => ({ thought: 'tap', tool: 'tap', point: { x, y }, expect: 'page_changes' });
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['tap the middle'] },
        miss(503, 497),
        miss(503, 497),
        // Inside the banned tap's 20-unit cell: refused by the parse, before anything is sent.
        miss(506, 499),
        { thought: 'stuck', tool: 'ask_user', text: 'nothing there', expect: '-' },
      ],
      'Tap the middle of the home screen.',
    );
    expect(prompt(seen, 3)).toContain('Banned on this page: tap point=503,497');
    expect(prompt(seen, 3)).not.toMatch(/tap @\d/);
    const reask = JSON.stringify(seen[4]?.messages ?? []);
    expect(reask).toContain('tap point=506,499 is banned on this page (too close to the banned tap point=503,497)');
  });
});
