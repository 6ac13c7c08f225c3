import { describe, expect, it } from 'vitest';
import { formatHistory } from '../../src/planner/prompt/format.js';
import { extractHistory, extractScreen } from '../../src/testbed/reference-model/read-request.js';
import { decideWithPlan } from '../../src/testbed/reference-model/recovery.js';

/**
 * The reference model reads a failed step's note the way a careful model would: when it says what
 * the step changed by mistake and how to undo it, the undo comes before the current subgoal.
 */

const SCREEN = `<screen untrusted>
app com.foodshop/.ProductActivity "Latte" · 1080x2400 (0.45) · keyboard hidden
[8f15a8f4] toggle CheckBox "Large 大杯 +¥3" off #size_large 500,503
[04e70589] toggle CheckBox "Extra shot +¥4" on 500,643
[96e5d23e] slide SeekBar "Sweetness" 70 (0–100) 500,744
</screen>`;

function prompt(note: string, ok = false): string {
  const history = formatHistory([
    { step: 4, action: 'tap [04e70589] "Extra shot"', expect: 'element_state 8f15a8f4 on', ok, note },
  ]);
  return `Recent steps:\n${history}\n\n${SCREEN}`;
}

const ctx = (p: string) => ({
  intents: ['launch "FoodShop"', 'tap "Large"'],
  current: 1,
  screen: extractScreen(p),
  history: extractHistory(p),
  banned: [],
  app: 'com.foodshop/.ProductActivity',
});

describe('reference model: undo hints', () => {
  it('parses the note of a failed step out of the prompt', () => {
    const h = extractHistory(
      prompt('element 8f15a8f4 is not "on"; undo: tap [04e70589] expect element_state 04e70589 off'),
    );
    expect(h).toEqual([
      {
        step: 4,
        action: 'tap [04e70589] "Extra shot"',
        expect: 'element_state 8f15a8f4 on',
        ok: false,
        met: false,
        note: 'element 8f15a8f4 is not "on"; undo: tap [04e70589] expect element_state 04e70589 off',
      },
    ]);
  });

  it('undoes the mistake first, then goes back to the subgoal', () => {
    const p = prompt(
      'element 8f15a8f4 is not "on"; the action hit … and changed … unasked; undo: tap [04e70589] expect element_state 04e70589 off; control_action [96e5d23e] set_progress 50 expect element_state 96e5d23e value=50',
    );
    expect(decideWithPlan(ctx(p))).toMatchObject({
      tool: 'tap',
      target_id: '04e70589',
      expect: 'element_state 04e70589 off',
      subgoal_done: false,
    });
    const noUndo = prompt('element 8f15a8f4 is not "on"');
    expect(decideWithPlan(ctx(noUndo))).toMatchObject({ tool: 'tap', target_id: '8f15a8f4', subgoal_done: true });
  });

  it('closes a keyboard opened by mistake with back', () => {
    const p = prompt('x; the action hit the field … and opened the keyboard; undo: back expect page_changes');
    expect(decideWithPlan(ctx(p))).toMatchObject({ tool: 'back', expect: 'page_changes', subgoal_done: false });
  });

  it('skips undo steps whose element is not on screen and sets a slider back by value', () => {
    const p = prompt(
      'x; undo: tap [deadbeef] expect element_state deadbeef off; control_action [96e5d23e] set_progress 50 expect element_state 96e5d23e value=50',
    );
    expect(decideWithPlan(ctx(p))).toMatchObject({
      tool: 'control_action',
      target_id: '96e5d23e',
      op: 'set_progress',
      value: 50,
      expect: 'element_state 96e5d23e value=50',
    });
  });
});

/** The lean listing shows each id's shortest unique prefix; the agent's notes and bans write full ids. */
const LEAN = `<screen untrusted>
app com.foodshop/.CartActivity "Cart"
[8f1] "−"
[04e] "+"
[96e] Button "Checkout"
[a1b] "Remove" 900,300
[a1c] "Remove" 900,400
</screen>`;

const leanCtx = (history: string, banned: string[] = [], intent = 'tap "Checkout"') => {
  const p = `Recent steps:\n${history}\n\n${LEAN}`;
  return { ...ctx(p), intents: ['launch "FoodShop"', intent], banned };
};

describe('reference model on the lean listing (short ids)', () => {
  it("undoes by the listed id that the note's full id starts with", () => {
    const history = formatHistory([
      {
        step: 4,
        action: 'tap [04e70589] "+"',
        expect: 'element_gone 96e5d23e',
        ok: false,
        note: 'the action hit "+" [04e70589] instead of "Checkout" [96e5d23e]; undo: tap [8f15a8f4] expect text_appears 1',
      },
    ]);
    expect(decideWithPlan(leanCtx(history))).toMatchObject({ tool: 'tap', target_id: '8f1', subgoal_done: false });
  });

  it('knows a ban written with the full id, and retries by the centre only where the line shows one', () => {
    const history = formatHistory([{ step: 4, action: 'tap [96e5d23e] "Checkout"', expect: '-', ok: false }]);
    // No centre on the line: not the banned tap again.
    expect(decideWithPlan(leanCtx(history, ['tap [96e5d23e]']))).toMatchObject({ tool: 'ask_user' });
    const removeBanned = decideWithPlan(leanCtx(history, ['tap [a1b00000]'], 'tap "Remove"'));
    expect(removeBanned).toMatchObject({ tool: 'tap', point: { x: 900, y: 300 } });
    expect(removeBanned.target_id).toBeUndefined();
  });
});
