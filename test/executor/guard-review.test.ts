import { describe, expect, it } from 'vitest';
import type { Element, Observation } from '../../src/core/types.js';
import { checkGuard } from '../../src/executor/guardrails/guard.js';
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
  return checkGuard({ tool: 'tap', target_id: e.id }, shopPage([e], texts), e);
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
      expect(checkGuard({ tool: 'tap', target_id: e.id }, shopPage([e]), e).needsConfirmation).toBe(false);
      const box = { ...e, role: 'CheckBox' };
      expect(checkGuard({ tool: 'tap', target_id: box.id }, shopPage([box]), box).needsConfirmation).toBe(false);
    },
  );

  it('the button beside it still is', () => {
    const pay = button('p1', 'Pay ¥26');
    expect(checkGuard({ tool: 'tap', target_id: pay.id }, shopPage([pay]), pay).needsConfirmation).toBe(true);
  });
});

describe('a keypad backspace', () => {
  it.each(['Delete', '删除'])('"⌫" described "%s" is an editing key, not a delete', (desc) => {
    const key = { ...button('k1', '⌫'), desc };
    expect(checkGuard({ tool: 'tap', target_id: key.id }, shopPage([key]), key).needsConfirmation).toBe(false);
    const word = button('d1', 'Delete');
    expect(checkGuard({ tool: 'tap', target_id: word.id }, shopPage([word]), word).needsConfirmation).toBe(true);
  });
});
