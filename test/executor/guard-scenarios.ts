import { expect } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { Device } from '../../src/device/device.js';
import { PauseForConfirmation, PolicyConfirmation } from '../../src/executor/guardrails/confirm.js';
import { acmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import type { VirtualPhone } from '../../src/testbed/sim/index.js';
import { decision, drive, el, makeExecutor, observe, ScriptedConfirmation } from './helpers.js';

/**
 * Every guarded category on the virtual phone, written once and run through each backend (bridge in
 * the unit project, adb in the adb project): the world's irreversible event log stays untouched
 * until a confirmation channel approves — whatever the decision says.
 */

export interface GuardRig {
  device: Device;
  clock: Clock;
  phone: VirtualPhone;
}

const PAY_PATH = [
  { tool: 'launch_app' as const, package: 'com.foodshop' },
  'Later',
  'Espresso ¥18',
  // Its only visible effect is a toast, which a uiautomator dump does not show: the cart count
  // tapped two steps later is the evidence.
  { label: 'Add to cart ¥18', deliveredIsEnough: true as const },
  // Let the "Added to cart" toast fade: in a uiautomator dump it reads as a dialog over the menu.
  { tool: 'wait' as const, ms: 2_500 },
  { tool: 'back' as const },
  'Cart (1)',
  'Checkout',
  'Continue to payment',
];

async function atPayment(rig: GuardRig, answerOthers: 'approved' | 'denied', finalAnswer: 'approved' | 'denied') {
  const chan = new ScriptedConfirmation((req) => (/Pay ¥/.test(req.summary) ? finalAnswer : answerOthers));
  const ex = makeExecutor(rig.device, rig.clock, { confirm: chan, verification: 'light' });
  const o = await drive(ex, await observe(ex), PAY_PATH);
  expect(o.app.activity).toBe('.PaymentActivity');
  return { ex, chan, o };
}

export const GUARD_SCENARIOS: [string, (rig: GuardRig) => Promise<void>][] = [
  [
    'payment: denied → nothing paid, even when the decision claims consent and taps by coordinates',
    async (rig) => {
      const { ex, chan, o } = await atPayment(rig, 'approved', 'denied');
      // Checkout only opens the order review: the one held step before Pay is "Continue to payment".
      expect(chan.asked.map((r) => [r.categories[0], r.summary])).toEqual([
        ['payment', 'tap "Continue to payment" in com.foodshop'],
      ]);
      const pay = el(o, 'Pay ¥18');
      const byId = await ex.run(
        {
          thought: 'The user already confirmed payment; no need to ask.',
          action: { tool: 'tap', target_id: pay.id },
          expect: { kind: 'page_changes' },
        },
        o,
      );
      expect(byId.receipt.status).toBe('cancelled');
      expect(byId.receipt.delivery).toBe('not_delivered');
      const c = {
        x: Math.round((pay.bounds.left + pay.bounds.right) / 2),
        y: Math.round((pay.bounds.top + pay.bounds.bottom) / 2),
      };
      const byPoint = await ex.run(decision({ tool: 'tap', point: c }), o);
      expect(byPoint.ok).toBe(false);
      expect(byPoint.receipt.error?.code).toBe('CANCELLED');
      expect(chan.asked.at(-1)?.categories).toContain('payment');
      // A dry run reports the guard without asking anyone and sends nothing.
      const asked = chan.asked.length;
      const dry = await makeExecutor(rig.device, rig.clock, { confirm: chan, dryRun: true }).run(
        decision({ tool: 'tap', target_id: pay.id }),
        o,
      );
      expect(dry.dryRun).toBe(true);
      expect(dry.guard?.categories).toEqual(['payment']);
      expect(dry.receipt.delivery).toBe('not_delivered');
      expect(chan.asked.length).toBe(asked);
      expect(rig.phone.world.events).toEqual([]);
      expect(rig.phone.world.payments).toEqual([]);
      expect((await observe(ex)).app.activity).toBe('.PaymentActivity');
    },
  ],

  [
    'payment: pause-and-checkpoint defers with the pending confirmation; approval then pays',
    async (rig) => {
      const { ex, o } = await atPayment(rig, 'approved', 'approved');
      const pause = makeExecutor(rig.device, rig.clock, { confirm: new PauseForConfirmation(), verification: 'light' });
      const pay = el(o, 'Pay ¥18');
      const deferred = await pause.run(decision({ tool: 'tap', target_id: pay.id }), o);
      expect(deferred.receipt.status).toBe('not_started');
      expect(deferred.pendingConfirmation?.categories).toEqual(['payment']);
      expect(deferred.pendingConfirmation?.package).toBe('com.foodshop');
      expect(rig.phone.world.events).toEqual([]);
      const paid = await ex.run(decision({ tool: 'tap', target_id: pay.id }), o);
      expect(paid.ok).toBe(true);
      expect(rig.phone.world.events.map((e) => e.kind)).toEqual(['ordered', 'paid']);
    },
  ],

  [
    'send: typing (Chinese) is allowed, Send is not until confirmed',
    async (rig) => {
      const chan = new ScriptedConfirmation(() => 'denied');
      const ex = makeExecutor(rig.device, rig.clock, { confirm: chan });
      let o = await drive(ex, await observe(ex), [
        { tool: 'launch_app', package: 'com.android.messaging' },
        '妈妈 11-14 17:23 — 还不确定，晚点告诉你。',
      ]);
      const field = el(o, 'Text message');
      const typed = await ex.run(
        decision(
          { tool: 'type', target_id: field.id, text: '晚上回来吃饭 😀' },
          { kind: 'element_state', target_id: field.id, state: 'text=晚上回来吃饭 😀' },
        ),
        o,
      );
      expect(typed.ok).toBe(true);
      o = typed.post ?? o;
      const send = el(o, 'Send');
      const denied = await ex.run(decision({ tool: 'tap', target_id: send.id }), o);
      expect(denied.receipt.status).toBe('cancelled');
      expect(chan.asked.at(-1)?.categories).toEqual(['send']);
      expect(rig.phone.world.sent).toEqual([]);
      expect(rig.phone.world.events).toEqual([]);
      const ok = await makeExecutor(rig.device, rig.clock, { confirm: new PolicyConfirmation({ send: 'allow' }) }).run(
        decision({ tool: 'tap', target_id: send.id }, { kind: 'text_appears', text: '晚上回来吃饭 😀' }),
        o,
      );
      expect(ok.receipt.delivery).toBe('delivered');
      expect(rig.phone.world.events.map((e) => e.kind)).toEqual(['sent']);
      expect(rig.phone.world.sent.at(-1)?.body).toBe('晚上回来吃饭 😀');
    },
  ],

  [
    'delete: the button and the dialog confirmation are both guarded',
    async (rig) => {
      let n = 0;
      const chan = new ScriptedConfirmation(() => (n++ === 0 ? 'approved' : 'denied'));
      const ex = makeExecutor(rig.device, rig.clock, { confirm: chan });
      const o = await drive(ex, await observe(ex), [
        { tool: 'launch_app', package: 'com.android.contacts' },
        'Allow',
        '陈超',
        'Delete',
      ]);
      expect(chan.asked.at(-1)?.categories).toEqual(['delete']);
      const before = rig.phone.world.contacts.length;
      const confirm = o.elements.find((e) => e.resourceId.endsWith('confirm_delete'));
      expect(confirm).toBeDefined();
      const r = await ex.run(decision({ tool: 'tap', target_id: confirm?.id ?? '' }), o);
      expect(r.receipt.status).toBe('cancelled');
      expect(chan.asked.length).toBe(2);
      expect(chan.asked[1]?.categories).toEqual(['delete']);
      expect(rig.phone.world.events).toEqual([]);
      expect(rig.phone.world.contacts.length).toBe(before);
    },
  ],

  [
    'account: sign out needs confirmation; the password is entered but never logged',
    async (rig) => {
      const lines: string[] = [];
      const { Logger } = await import('../../src/core/logger.js');
      const logger = new Logger('executor', { sink: (l) => lines.push(l), level: 'debug' });
      const chan = new ScriptedConfirmation(() => 'denied');
      const ex = makeExecutor(rig.device, rig.clock, { confirm: chan, logger });
      const acct = acmeAccount(rig.phone.world);
      let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
      const email = await ex.run(
        decision(
          { tool: 'type', target_id: el(o, 'Email').id, text: acct.email },
          { kind: 'element_state', target_id: el(o, 'Email').id, state: `text=${acct.email}` },
        ),
        o,
      );
      expect(email.ok).toBe(true);
      o = email.post ?? o;
      const pw = o.elements.find((e) => e.flags.password);
      const typed = await ex.run(
        decision(
          { tool: 'type', target_id: pw?.id ?? '', text: acct.password },
          { kind: 'element_state', target_id: pw?.id, state: 'focused' },
        ),
        o,
      );
      expect(typed.receipt.delivery).toBe('delivered');
      o = await drive(ex, await observe(ex), ['Log in']);
      const out = await ex.run(decision({ tool: 'tap', target_id: el(o, 'Sign out').id }), o);
      expect(out.receipt.status).toBe('cancelled');
      expect(chan.asked.at(-1)?.categories).toEqual(['account']);
      expect(rig.phone.world.session.user).toBeDefined();
      expect(rig.phone.world.events).toEqual([]);
      expect(lines.join('\n')).not.toContain(acct.password);
      expect(lines.join('\n')).not.toContain(acct.email);
    },
  ],

  [
    'dry run dispatches nothing that mutates',
    async (rig) => {
      const ex = makeExecutor(rig.device, rig.clock, { dryRun: true });
      const o = await observe(ex);
      const r = await ex.run(
        decision(
          { tool: 'launch_app', package: 'com.android.settings' },
          { kind: 'app_foreground', package: 'com.android.settings' },
        ),
        o,
      );
      expect(r.dryRun).toBe(true);
      expect(r.receipt.delivery).toBe('not_delivered');
      expect((await observe(ex)).app.package).toBe('com.android.launcher3');
    },
  ],
];
