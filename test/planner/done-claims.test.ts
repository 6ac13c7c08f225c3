import { afterEach, describe, expect, it } from 'vitest';
import { plannerAt, SETTINGS_DECIDE, scriptedEndpoint } from './fixtures.js';

/**
 * Subgoals are the model's bookkeeping, not evidence: `done` with subgoals unmarked is questioned
 * once, and a repeat that says what on the screen shows the goal is accepted — never refused
 * identically forever, never accepted on a bare repeat.
 */

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
});

const req = {
  ...SETTINGS_DECIDE,
  plan: [
    { text: 'open Settings', done: false },
    { text: 'turn Wi-Fi off', done: false },
    { text: 'done', done: false },
  ],
  tools: ['tap', 'back', 'done'],
  visualFirst: false,
};

async function decide(replies: Record<string, unknown>[]) {
  const e = await scriptedEndpoint(replies);
  close = e.close;
  return { r: await plannerAt(e.url).decide(req), seen: e.seen };
}

describe('done with subgoals unmarked', () => {
  it('is accepted when repeated with what the screen shows', async () => {
    const { r, seen } = await decide([
      { thought: 'already off', tool: 'done' },
      { thought: 'already off', tool: 'done', text: 'The Wi-Fi switch shows off' },
    ]);
    expect(r.ok && r.step.decision.action.tool).toBe('done');
    expect(JSON.stringify(seen[1]!.messages)).toContain('call done again with `text`');
  });

  it('is not accepted on a bare repeat', async () => {
    const bare = { thought: 'finished', tool: 'done' };
    const { r } = await decide([bare, bare, bare]);
    expect(r.ok).toBe(false);
  });
});

describe('a plan needs no "finish" subgoal', () => {
  it('done on the last subgoal closes the plan at once, without a turn spent on a "finish" step', async () => {
    const e = await scriptedEndpoint([{ thought: 'Wi-Fi shows off', tool: 'done', expect: '-' }]);
    close = e.close;
    const plan = [
      { text: 'open Settings', done: true },
      { text: 'turn Wi-Fi off', done: false },
    ];
    const r = await plannerAt(e.url).decide({ ...req, plan, current: 1 });
    expect(r.ok && r.step.decision.action.tool).toBe('done');
    expect(e.seen).toHaveLength(1);
  });
});

describe('done on the second-last subgoal', () => {
  const plan = [
    { text: 'open Settings', done: true },
    { text: 'turn Wi-Fi off', done: false },
    { text: 'check it', done: false },
  ];

  it('is questioned when it is bare (an early done says nothing of what shows the goal reached)', async () => {
    const e = await scriptedEndpoint([
      { thought: 'looks finished', tool: 'done' },
      { thought: 'not yet', tool: 'tap', target_id: '1a2b3c4d', expect: 'element_state 1a2b3c4d off' },
    ]);
    close = e.close;
    const r = await plannerAt(e.url).decide({ ...req, plan, current: 1 });
    expect(r.ok && r.step.decision.action.tool).toBe('tap');
    expect(JSON.stringify(e.seen[1]!.messages)).toContain('subgoals not marked done: ');
  });

  it('closes the plan at once when the done says what on the screen shows the goal reached', async () => {
    const e = await scriptedEndpoint([
      { thought: 'it is off', tool: 'done', subgoal_done: true, text: 'The Wi-Fi switch shows off', expect: '-' },
    ]);
    close = e.close;
    const r = await plannerAt(e.url).decide({ ...req, plan, current: 1 });
    expect(r.ok && r.step.decision.action.tool).toBe('done');
    expect(e.seen).toHaveLength(1);
  });
});
