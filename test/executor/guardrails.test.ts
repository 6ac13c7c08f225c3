import { describe, expect, it } from 'vitest';
import { classifyText, isGenericConfirm } from '../../src/core/risk-lexicon.js';
import { PolicyConfirmation } from '../../src/executor/guardrails/confirm.js';
import { findPii, luhn, redactPii, redactTyped } from '../../src/executor/guardrails/pii.js';

describe('risk lexicon (zh + en)', () => {
  it.each([
    ['确认支付', 'payment'],
    ['立即购买', 'payment'],
    ['提交订单', 'payment'],
    ['转账给张三', 'payment'],
    ['Place order', 'payment'],
    ['去支付', 'payment'],
    ['Continue to payment', 'payment'],
    ['Pay ¥18', 'payment'],
    ['Buy now', 'payment'],
    ['发送', 'send'],
    ['发布动态', 'send'],
    ['Send', 'send'],
    ['Post', 'send'],
    ['删除聊天记录', 'delete'],
    ['清空缓存', 'delete'],
    ['卸载', 'delete'],
    ['Uninstall', 'delete'],
    ['退出登录', 'account'],
    ['修改密码', 'account'],
    ['授权登录', 'account'],
    ['Sign out', 'account'],
  ])('%s → %s', (text, cat) => {
    expect(classifyText(text).map((h) => h.category)).toContain(cat);
  });

  it('does not fire on look-alikes and harmless words', () => {
    for (const t of ['Sender info', 'Paypal-free zone', 'Postcode', 'Settings', 'Add to cart', 'Log in', 'Display'])
      expect(classifyText(t), t).toEqual([]);
  });

  it('reviewing an order is not paying: checkout words are not payment terms (DESIGN §10)', () => {
    for (const t of ['Checkout', 'Check out', 'Proceed to checkout', '去结算', '结算', '确认订单', 'Payment method'])
      expect(classifyText(t), t).toEqual([]);
  });

  it('per-app terms extend the lexicon', () => {
    expect(classifyText('Redeem points', { payment: ['redeem'] })[0]?.category).toBe('payment');
  });

  it('generic confirmations are recognised', () => {
    expect(isGenericConfirm('OK')).toBe(true);
    expect(isGenericConfirm('确定')).toBe(true);
    expect(isGenericConfirm('OK then, what?')).toBe(false);
  });
});

describe('personal data', () => {
  it('finds phones, e-mails, ID and card numbers and redacts them', () => {
    const t = 'call 13812345678 or mail zhang.wei@example.cn, ID 11010519491231002X, card 4111 1111 1111 1111';
    expect(findPii(t).map((f) => f.kind)).toEqual(['phone', 'email', 'id_number', 'card_number']);
    const r = redactPii(t);
    for (const secret of ['13812345678', 'zhang.wei@example.cn', '11010519491231002X', '4111 1111 1111 1111'])
      expect(r).not.toContain(secret);
    expect(r).toContain('[phone]');
  });
  it('card numbers need the Luhn check', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(findPii('order 4111111111111112').some((f) => f.kind === 'card_number')).toBe(false);
  });
  it('a password is never shown, only its length', () => {
    expect(redactTyped('hunter2', true)).toBe('[password: 7 chars]');
    expect(redactTyped('hello', false)).toBe('hello');
  });
});

describe('policy confirmation', () => {
  it('approves only what it allows, refuses what it denies, and hands the rest on', async () => {
    const { Deadline, VirtualClock } = await import('../../src/core/clock.js');
    const { PauseForConfirmation } = await import('../../src/executor/guardrails/confirm.js');
    const d = Deadline.after(new VirtualClock(), 1_000);
    const p = new PolicyConfirmation({ send: 'allow' });
    const req = { summary: 's', reasons: [], package: 'p', pageHash: 'h' };
    expect((await p.confirm({ ...req, categories: ['send'] }, d)).verdict).toBe('approved');
    expect((await p.confirm({ ...req, categories: ['send', 'payment'] }, d)).verdict).toBe('denied');
    expect((await p.confirm({ ...req, categories: ['ambiguous_target'] }, d)).verdict).toBe('denied');
    const handOn = new PolicyConfirmation({ send: 'allow', delete: 'deny' }, { otherwise: new PauseForConfirmation() });
    expect((await handOn.confirm({ ...req, categories: ['payment'] }, d)).verdict).toBe('deferred');
    expect((await handOn.confirm({ ...req, categories: ['send', 'delete'] }, d)).verdict).toBe('denied');
  });
});

describe('interactive confirmation', () => {
  it('only an explicit yes approves; the question names the action and why', async () => {
    const { InteractiveConfirmation } = await import('../../src/executor/guardrails/confirm.js');
    const { Deadline, VirtualClock } = await import('../../src/core/clock.js');
    const d = Deadline.after(new VirtualClock(), 1_000);
    const req = {
      categories: ['payment' as const],
      summary: 'tap "Pay ¥18" in com.foodshop',
      reasons: ['target matches payment term "pay"'],
      package: 'com.foodshop',
      pageHash: 'h',
    };
    const asked: string[] = [];
    const yes = new InteractiveConfirmation(async (q) => {
      asked.push(q);
      return 'y';
    });
    expect((await yes.confirm(req, d)).verdict).toBe('approved');
    expect(asked[0]).toContain('Pay ¥18');
    expect(asked[0]).toContain('payment');
    for (const reply of ['', 'n', 'maybe', undefined]) {
      const c = new InteractiveConfirmation(async () => reply);
      expect((await c.confirm(req, d)).verdict).toBe('denied');
    }
  });
});
