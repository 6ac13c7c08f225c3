import { describe, expect, it } from 'vitest';
import type { Element, Observation } from '../../src/core/types.js';
import { checkGuard } from '../../src/executor/guardrails/guard.js';
import { REGISTRY } from '../../src/tools/index.js';
import { element, observation } from '../planner/fixtures.js';

/**
 * The payment lexicon holds what pays or places an order and lets a shop's order review through
 * (DESIGN §10): Checkout / 去结算 / 结算 open a page that charges nothing, as in real shops.
 */

const button = (id: string, text: string): Element => element(id, text, 1);
const shopPage = (elements: Element[], texts: string[] = []): Observation =>
  observation({
    app: { package: 'com.shop', activity: '.CartActivity', title: 'Cart' },
    elements,
    texts,
    pageHash: 'h',
  });

const tapOn = (label: string, texts: string[] = []) => {
  const e = button('e1', label);
  return checkGuard(REGISTRY.table, { tool: 'tap', target_id: e.id }, shopPage([e], texts), e);
};

describe('the guard on a shop', () => {
  it.each(['Checkout', 'Check out', 'Proceed to checkout', '去结算', '结算(2)', '确认订单'])(
    'a tap on "%s" (the order review) is not held',
    (label) => {
      expect(tapOn(label, ['Total ¥36'])).toMatchObject({ needsConfirmation: false, categories: [] });
    },
  );

  it.each([
    'Place order',
    'Pay ¥18',
    '提交订单',
    '确认支付 ¥18',
    '去支付',
    'Continue to payment',
    'Buy now',
    'Submit order',
  ])('a tap on "%s" (pays or places the order) is held as payment', (label) => {
    const v = tapOn(label);
    expect(v.needsConfirmation).toBe(true);
    expect(v.categories).toEqual(['payment']);
    expect(v.reasons[0]).toContain(`target "${label}" matches payment term`);
  });

  it('an OK on a page about paying inherits the payment, one about checkout does not', () => {
    expect(tapOn('OK', ['Pay ¥18 with WeChat Pay?']).categories).toEqual(['payment']);
    expect(tapOn('OK', ['Go to checkout?']).categories).toEqual([]);
  });
});

describe('choosing an option', () => {
  it.each(['WeChat Pay · 微信支付', '支付宝', 'Delete after reading'])(
    'a tap on the option "%s" is not held',
    (label) => {
      const e = { ...button('o1', label), role: 'Radio', flags: { ...button('o1', label).flags, checkable: true } };
      expect(checkGuard(REGISTRY.table, { tool: 'tap', target_id: e.id }, shopPage([e]), e).needsConfirmation).toBe(
        false,
      );
      const box = { ...e, role: 'CheckBox' };
      expect(
        checkGuard(REGISTRY.table, { tool: 'tap', target_id: box.id }, shopPage([box]), box).needsConfirmation,
      ).toBe(false);
    },
  );

  it('the button beside it still is', () => {
    const pay = button('p1', 'Pay ¥26');
    expect(checkGuard(REGISTRY.table, { tool: 'tap', target_id: pay.id }, shopPage([pay]), pay).needsConfirmation).toBe(
      true,
    );
  });
});

describe('a keypad backspace', () => {
  it.each(['Delete', '删除'])('"⌫" described "%s" is an editing key, not a delete', (desc) => {
    const key = { ...button('k1', '⌫'), desc };
    expect(checkGuard(REGISTRY.table, { tool: 'tap', target_id: key.id }, shopPage([key]), key).needsConfirmation).toBe(
      false,
    );
    const word = button('d1', 'Delete');
    expect(
      checkGuard(REGISTRY.table, { tool: 'tap', target_id: word.id }, shopPage([word]), word).needsConfirmation,
    ).toBe(true);
  });
});

/**
 * Issue 22, real screens: a mark says what the control does. The DroidTask and DroidBot screens
 * these come from are checked in test/shared/guard-real-screens.test.ts.
 */
describe('what a control does, not what a row says', () => {
  const page = (elements: Element[], texts: string[] = []) =>
    observation({ app: { package: 'com.app', activity: '.A', title: '' }, elements, texts, pageHash: 'h' });
  const tap = (e: Element, obs: Observation) => checkGuard(REGISTRY.table, { tool: 'tap', target_id: e.id }, obs, e);
  const field = (id: string, text: string, hint = '') =>
    element(id, text, 1, {
      role: 'EditText',
      className: 'android.widget.EditText',
      hint,
      flags: { ...button(id, '').flags, editable: true },
    });

  it('a settings row whose borrowed title was cut short is content, a short menu row still a command', () => {
    const row = {
      ...button('r1', ''),
      role: 'View',
      className: 'android.widget.RelativeLayout',
      label: 'Remove accents and diacritics at sendin…',
    };
    expect(tap(row, page([row])).needsConfirmation).toBe(false);
    const menu = { ...row, id: 'r2', label: 'Remove done items' };
    expect(tap(menu, page([menu])).categories).toEqual(['delete']);
  });

  it('"Send SMS" with nothing written opens the composer; with a written message it sends', () => {
    for (const words of ['Send SMS', 'Send email to group', 'Send a message']) {
      const b = { ...button('s1', ''), role: 'Image', desc: words };
      expect(tap(b, page([b])).needsConfirmation).toBe(false);
      expect(tap(b, page([b, field('f1', '', 'Type a message…')])).needsConfirmation).toBe(false);
      expect(tap(b, page([b, field('f1', 'Type a message…', 'Type a message…')])).needsConfirmation).toBe(false);
      expect(tap(b, page([b, field('f1', 'On my way', 'Type a message…')])).categories).toEqual(['send']);
    }
    const send = button('s2', 'Send');
    expect(tap(send, page([send])).categories).toEqual(['send']);
  });

  it('a call to an emergency number is held; another number, or a call-history tab, is not', () => {
    const call = { ...button('c1', ''), role: 'Image', desc: 'Call number' };
    const v = tap(call, page([call, field('d1', '911')]));
    expect(v.categories).toEqual(['emergency_call']);
    expect(v.reasons[0]).toContain('emergency call (911)');
    expect(tap(call, page([call, field('d1', '1 1 2')])).categories).toEqual(['emergency_call']);
    expect(tap(call, page([call, field('d1', '5551234')])).needsConfirmation).toBe(false);
    expect(tap(call, page([call, field('d1', '9112')])).needsConfirmation).toBe(false);
    const own = button('c2', 'Call 112');
    expect(tap(own, page([own])).categories).toEqual(['emergency_call']);
    const tab = button('c3', 'Call history');
    expect(tap(tab, page([tab, field('d1', '911')])).needsConfirmation).toBe(false);
  });

  it("an OK beside the dialog's own DELETE button is the other way out; one under a question about deleting is not", () => {
    const ok = button('o1', 'OK');
    const dialog = page([button('e1', 'EDIT'), button('d1', 'DELETE'), ok], ['Car Dock']);
    expect(tap(ok, dialog).needsConfirmation).toBe(false);
    expect(tap(button('d1', 'DELETE'), dialog).categories).toEqual(['delete']);
    expect(tap(ok, page([button('n1', 'Cancel'), ok], ['Delete 3 files?'])).categories).toEqual(['delete']);
  });
});
