import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { FILE_02 } from '../../regression-tasks/tasks/file-02.js';
import { SHOP_02 } from '../../regression-tasks/tasks/shop-02.js';
import { SHOP_05 } from '../../regression-tasks/tasks/shop-05.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ParsedPrompt, readRequest } from '../../src/testbed/reference-model/read-request.js';
import type { ChatRequest } from '../../src/testbed/reference-model/request.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

/**
 * What a model reads on the way to FoodShop's payment page, end to end (virtual phone, the product's
 * factory, the reference model over HTTP): the listing marks the taps the guard will hold before
 * they are made — Pay, and "Continue to payment", never Checkout — and after the approval the
 * history names the control that was approved, not "this payment step".
 */

let model: ReferenceModel;
let runsDir: string;
let seen: ChatRequest[] = [];
beforeAll(async () => {
  model = await startReferenceModel({
    catalog: referenceCatalog(),
    noise: 0,
    seed: 1,
    tokenizer: 'estimate',
    onRequest: (body) => seen.push(body),
  });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-held-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

const text = (c: unknown) => (typeof c === 'string' ? c : JSON.stringify(c));
function decidePrompts(): ParsedPrompt[] {
  return seen.filter((r) => r.tools?.some((t) => t.function?.name === 'act')).map((r) => readRequest(r).prompt);
}
const onActivity = (ps: ParsedPrompt[], activity: string) => ps.find((p) => p.app.endsWith(`/${activity}`));
const line = (p: ParsedPrompt | undefined, label: RegExp) => p?.screen.elements.find((e) => label.test(e.text));

describe('held taps in the listing, on the way to payment', () => {
  it.each([
    [SHOP_02.id, SHOP_02, 'Checkout', 'Continue to payment', /^Pay ¥/],
    [SHOP_05.id, SHOP_05, '去结算', '去支付', /^确认支付 ¥/],
  ] as const)(
    '%s: marks Pay and the step to it, not Checkout; the approval names the control',
    async (_id, task, checkout, toPayment, pay) => {
      seen = [];
      const r = await runTask(task, { seed: 3, modelUrl: model.url, memory: new PageMemory(), runsDir });
      expect(r.check).toEqual({ ok: true });
      // Only the step to the payment page asked the user (Checkout is not guarded); Pay was never tapped.
      expect(r.confirmations.map((c) => c.summary)).toEqual([`tap "${toPayment}" in com.foodshop`]);
      const prompts = decidePrompts();
      const cart = onActivity(prompts, '.CartActivity');
      expect(line(cart, new RegExp(`^${checkout}$`))).toMatchObject({ text: checkout });
      expect(line(cart, new RegExp(`^${checkout}$`))?.held).toBeUndefined();
      expect(line(onActivity(prompts, '.CheckoutActivity'), new RegExp(`^${toPayment}$`))?.held).toEqual(['payment']);
      const payment = onActivity(prompts, '.PaymentActivity');
      expect(line(payment, pay)?.held).toEqual(['payment']);
      const system = text(seen.at(-1)?.messages.find((m) => m.role === 'system')?.content);
      expect(system).toContain('Tapping a line marked "asks user: <kind>" asks the user first');
      const approved = payment?.history.at(-1);
      expect(approved?.action).toContain(`"${toPayment}"`);
      expect(approved?.note).toBe(`the user approved tap "${toPayment}" (held as payment)`);
    },
  );
});

describe('a declined guarded tap', () => {
  it('FILE-02: the history and the hint name the control that was declined, and that it was not done', async () => {
    seen = [];
    const r = await runTask(FILE_02, { seed: 3, modelUrl: model.url, memory: new PageMemory(), runsDir });
    expect(r.check).toEqual({ ok: true });
    const last = decidePrompts().at(-1);
    const declined = 'the user declined tap "删除" (held as delete): not done';
    expect(last?.history.at(-1)).toMatchObject({
      action: expect.stringMatching(/^tap \[\w+\] "删除"$/),
      note: declined,
    });
    expect(last?.hint).toMatch(/^The user declined tap "删除" \(held as delete\): not done\. Do not try it again/);
    expect(r.run.status).toBe('ask_user');
  });
});
