import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../planner/fixtures.js';
import { runScripted, userPrompt } from './support/scripted-run.js';

/**
 * Issue 21, relay round 3: what capable relay players still reported about the feedback they read
 * (history lines, action results), over real HTTP and the virtual phone.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-round3-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

/** The listed id of the screen line whose label starts with `label`. */
function idOf(user: string, label: string): string {
  const line = user.split('\n').find((l) => l.includes(`"${label}`) && /^\[[0-9a-f~]+\]/.test(l));
  const id = line ? /^\[([0-9a-f~]+)\]/.exec(line)?.[1] : undefined;
  if (!id) throw new Error(`no screen line labelled "${label}" in:\n${user}`);
  return id;
}

const history = (user: string) => /Recent steps:\n([\s\S]*?)(?:\n\n|$)/.exec(user)?.[1] ?? '';

const drive = (replies: ScriptedReply[], goal: string, maxSteps = 6) =>
  runScripted(replies, goal, { runsDir, maxSteps });

describe('history ids and expectations as the listing shows them', () => {
  it('prints each id as listed, in the action, its expect and its note, and takes either length back', async () => {
    let plane = '';
    let sims = '';
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Network settings', 'turn on airplane mode'] },
        { thought: 'open', tool: 'launch_app', package: 'com.android.settings', expect: 'page_changes' },
        (u) => ({ thought: 'network', tool: 'tap', target_id: idOf(u, 'Network'), expect: 'page_changes' }),
        (u) => {
          plane = idOf(u, 'Airplane mode');
          sims = idOf(u, 'SIMs');
          // Wrong on purpose, on another element, with its id in brackets as the expect forms show it.
          return { thought: 'plane', tool: 'tap', target_id: plane, expect: `element_state [${sims}] on` };
        },
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Turn on airplane mode.',
    );
    const last = userPrompt(seen, 4);
    const lines = history(last);
    // No full 8-hex id in the lines the model reads: each is the id the listing shows.
    expect(lines).not.toMatch(/[0-9a-f]{8}/);
    expect(idOf(last, 'Airplane mode')).toBe(plane);
    expect(lines).toContain(`3. tap [${plane}] "Airplane mode" expect element_state ${sims} on → FAILED`);
  });
});

describe('element_state across the page', () => {
  it('judges a control whose label is its state on the same control after the label changed', async () => {
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['start the stopwatch'] },
        { thought: 'open', tool: 'launch_app', package: 'com.android.deskclock', expect: 'page_changes' },
        (u) => ({ thought: 'tab', tool: 'tap', target_id: idOf(u, 'Stopwatch'), expect: 'page_changes' }),
        (u) => ({ thought: 'start', tool: 'tap', target_id: idOf(u, 'Start'), expect: 'element_state text=Pause' }),
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Start the stopwatch.',
    );
    const lines = history(userPrompt(seen, 4));
    expect(lines).toMatch(/3\. tap \[[0-9a-f~]+\] "Start" expect element_state text=Pause → met/);
  });

  it('says an expectation on an element that left with its page was not checkable, not failed', async () => {
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['open Network settings'] },
        { thought: 'open', tool: 'launch_app', package: 'com.android.settings', expect: 'page_changes' },
        // The row opens its page: the row itself is not on the next one.
        (u) => ({ thought: 'network', tool: 'tap', target_id: idOf(u, 'Network'), expect: 'element_state selected' }),
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Open the network settings.',
    );
    const lines = history(userPrompt(seen, 3));
    expect(lines).toMatch(
      /2\. tap \[[0-9a-f~]+\] "Network[^"]*" expect element_state selected → ok, not checked \(not checkable \(page changed\)\)/,
    );
  });
});

describe('a failed step the user approved', () => {
  it('still says the user approved it', async () => {
    const text = 'Running late';
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['send the text to 15556889650'] },
        { thought: 'open', tool: 'launch_app', package: 'Messages', expect: 'page_changes' },
        (u) => ({ thought: 'new', tool: 'tap', target_id: idOf(u, 'Start chat'), expect: 'page_changes' }),
        (u) => ({
          thought: 'to',
          tool: 'type',
          target_id: idOf(u, 'To'),
          text: '15556889650',
          expect: 'element_state text=15556889650',
        }),
        (u) => ({
          thought: 'body',
          tool: 'type',
          target_id: idOf(u, 'Text message'),
          text,
          expect: `element_state text=${text}`,
        }),
        // Wrong on purpose: the send works, its expectation does not hold.
        (u) => ({ thought: 'send', tool: 'tap', target_id: idOf(u, 'Send'), expect: 'text_appears Delivered to Mars' }),
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      `Text "${text}" to 15556889650.`,
      8,
    );
    const lines = history(userPrompt(seen, 6));
    expect(lines).toMatch(
      /5\. tap \[[0-9a-f~]+\] "Send" expect text_appears Delivered to Mars → FAILED \(the user approved tap "Send"[^)]*\)?; /,
    );
  });
});

describe('typed text in the history', () => {
  it('shows what was typed into a plain field, and only the length of a password', async () => {
    const { seen } = await drive(
      [
        { __fn: 'plan', subgoals: ['fill in the sign-in form'] },
        { thought: 'open', tool: 'launch_app', package: 'Acme', expect: 'app_foreground Acme' },
        (u) => ({
          thought: 'email',
          tool: 'type',
          target_id: idOf(u, 'Email'),
          text: 'bo@acme.test',
          expect: 'element_state filled',
        }),
        (u) => ({
          thought: 'pw',
          tool: 'type',
          target_id: idOf(u, 'Password'),
          text: 'Hunter2-x',
          expect: 'element_state filled',
        }),
        { thought: 'stop', tool: 'ask_user', text: 'stuck' },
      ],
      'Fill in the Acme sign-in form.',
    );
    const lines = history(userPrompt(seen, 4));
    expect(lines).toMatch(/2\. type \[[0-9a-f~]+\] "Email" text="bo@acme\.test" expect element_state filled → met/);
    expect(lines).toMatch(/3\. type \[[0-9a-f~]+\] "Password" text=\(9 chars\) expect element_state filled → met/);
    expect(lines).not.toContain('Hunter2');
  });
});
