import { describe, expect, it } from 'vitest';
import { extractScreen } from '../../src/testbed/reference-model/read-request.js';
import { decideWithPlan } from '../../src/testbed/reference-model/recovery.js';

/**
 * The reference model re-checks earlier steps on the current screen and redoes one whose effect is
 * gone — but not one a later step superseded: a box that Send emptied, a search typed again.
 */

const screen = (body: string) =>
  extractScreen(`<screen untrusted>
app com.example/.Main "Chat" · 1080x2400 (0.45) · keyboard hidden
${body}
</screen>`);

const ctx = (intents: string[], current: number, body: string) => ({
  intents,
  current,
  screen: screen(body),
  history: [],
  banned: [],
  app: 'com.example/.Main',
});

const CHAT = `[0e2f1832] fill EditText "Text message" 500,2200
[92aadffb] tap Button "Send" 950,2200`;

describe('reference model: superseded steps are not redone', () => {
  it('a message box emptied by Send is not typed into again', () => {
    const intents = ['type "Text message" "On my way"', 'tap "Send" keep', 'done'];
    expect(decideWithPlan(ctx(intents, 2, CHAT))).toMatchObject({ tool: 'done' });
  });

  it('before Send, an emptied box is still redone (the check still works)', () => {
    const intents = ['type "Text message" "On my way"', 'tap "Send" keep', 'done'];
    expect(decideWithPlan(ctx(intents, 1, CHAT))).toMatchObject({
      tool: 'type',
      target_id: '0e2f1832',
      text: 'On my way',
      subgoal_done: false,
    });
  });

  it('a search typed again later is checked against the later text only', () => {
    const intents = ['type "Search" "Latte"', 'tap "Latte"', 'type "Search" "Mocha"', 'tap "Mocha"', 'done'];
    const body = `[11111111] fill EditText "Search" ="Mocha" 500,200
[22222222] tap Button "Mocha" 500,600`;
    expect(decideWithPlan(ctx(intents, 4, body))).toMatchObject({ tool: 'done' });
  });
});
