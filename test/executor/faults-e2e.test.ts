import { afterEach, describe, expect, it } from 'vitest';
import type { Device } from '../../src/device/device.js';
import { InteractiveConfirmation } from '../../src/executor/guardrails/confirm.js';
import { bridgeRig, decision, drive, el, makeExecutor, observe } from './helpers.js';

/**
 * "It tapped, so it worked" is the lie these catch: a keyboard that moved the button, a transparent
 * overlay, input the phone silently dropped, a cropped screenshot — on the real bridge.
 */

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function settings(mode: 'full' | 'light' = 'full', omitCapabilities?: string[]) {
  rig = await bridgeRig({ omitCapabilities });
  const ex = makeExecutor(rig.device, rig.clock, { verification: mode });
  await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.settings' }]);
  // Quick settings pulled down over Settings: the Wi-Fi and Bluetooth tiles side by side.
  await rig.phone.swipe(540, 20, 540, 1400, 400);
  await rig.clock.sleep(500);
  const o = await observe(ex);
  return { rig, ex, o };
}

describe('pre-injection re-check', () => {
  it('the keyboard shifting a button aborts as STALE instead of tapping the old spot', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    const login = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const button = el(login, 'Log in');
    const focus = await ex.run(
      decision({ tool: 'tap', target_id: el(login, 'Email').id }, { kind: 'keyboard_shown' }),
      login,
    );
    expect(focus.ok).toBe(true);
    expect(focus.post?.keyboard.shown).toBe(true);
    const before = rig.inputs.count;
    // The planner decided on the page read before the keyboard opened.
    const r = await ex.run(decision({ tool: 'tap', target_id: button.id }), login);
    expect(r.ok).toBe(false);
    expect(r.receipt.error?.code).toBe('STALE');
    expect(r.receipt.error?.message).toMatch(/moved \d+ px/);
    expect(r.receipt.delivery).toBe('not_delivered');
    expect(rig.inputs.count).toBe(before);
    // Re-perceived, the same button is tapped where it now is.
    const fresh = await observe(ex);
    const again = await ex.run(
      decision({ tool: 'tap', target_id: el(fresh, 'Log in').id }, { kind: 'no_change' }),
      fresh,
    );
    expect(again.receipt.delivery).toBe('delivered');
    expect(again.receipt.injectedPx?.y).toBeLessThan(button.boundsPx.top);
  });
});

describe('light verification', () => {
  it('re-checks its own post-action read once time has passed (the model was thinking)', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock, { verification: 'light' });
    const login = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    // Meanwhile the person touches the e-mail field: the keyboard opens and pushes "Log in" up.
    const email = el(login, 'Email').boundsPx;
    await rig.phone.tap((email.left + email.right) / 2, (email.top + email.bottom) / 2, 50);
    await rig.clock.sleep(2_000);
    const before = rig.inputs.count;
    const r = await ex.run(decision({ tool: 'tap', target_id: el(login, 'Log in').id }), login);
    expect(r.receipt.error?.code).toBe('STALE');
    expect(rig.inputs.count).toBe(before);
  });
});

describe('per-app high-risk configuration', () => {
  it('every mutating action in a high-risk app asks first; a slow answer does not eat the action deadline', async () => {
    rig = await bridgeRig();
    const r0 = rig;
    const asked: string[] = [];
    const confirm = new InteractiveConfirmation(async (q) => {
      asked.push(q);
      await r0.clock.sleep(20_000); // the person takes 20 s to answer
      return 'y';
    });
    const ex = makeExecutor(rig.device, rig.clock, {
      confirm,
      guard: { apps: { 'com.android.settings': { all: 'account' } } },
    });
    await rig.phone.launch('com.android.settings', '.InternetSettings');
    await rig.clock.sleep(500);
    const o = await observe(ex);
    const wifi = el(o, 'Wi-Fi');
    const r = await ex.run(
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
      o,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/com.android.settings is configured as high-risk/);
    expect(r.ok).toBe(true);
    expect(rig.phone.world.settings.wifi).toBe(false);
  });
});

describe('validation catches what dispatch cannot see', () => {
  it('a reported overlay makes the tap OCCLUDED before dispatch', async () => {
    const { rig, ex } = await settings('full');
    rig.phone.faults.overlay = true;
    const o = await observe(ex);
    const before = rig.inputs.count;
    const r = await ex.run(
      decision(
        { tool: 'tap', target_id: el(o, 'Wi-Fi').id },
        { kind: 'element_state', target_id: el(o, 'Wi-Fi').id, state: 'off' },
      ),
      o,
    );
    expect(r.receipt.error?.code).toBe('OCCLUDED');
    expect(rig.inputs.count).toBe(before);
    expect(rig.phone.world.settings.wifi).toBe(true);
  });

  it('an overlay that appeared after the read swallows the tap; the unchanged page fails validation', async () => {
    // A helper without guarded_touch (an older one): nothing on the phone checks the touch.
    const { rig, ex, o } = await settings('light', ['guarded_touch']);
    rig.phone.faults.overlay = true;
    const wifi = el(o, 'Wi-Fi');
    const r = await ex.run(
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
      o,
      // A scripted journey: no decision time, so light mode trusts its own read and skips the re-check.
      { fresh: true },
    );
    expect(r.receipt.delivery).toBe('delivered');
    expect(r.ok).toBe(false);
    expect(r.outcome?.ok).toBe(false);
    expect(r.outcome?.unchanged).toBe(true);
    expect(r.outcome?.reason).toMatch(/nothing on the page changed/);
    expect(rig.phone.world.settings.wifi).toBe(true);
  });

  it('on a helper with guarded_touch, an overlay that appeared after the read stops the tap on the phone', async () => {
    const { rig, ex, o } = await settings('light');
    rig.phone.faults.overlay = true;
    const before = rig.inputs.count;
    const wifi = el(o, 'Wi-Fi');
    const r = await ex.run(
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
      o,
      { fresh: true },
    );
    expect(r.receipt.error?.code).toBe('OCCLUDED');
    expect(r.receipt.delivery).toBe('not_delivered');
    expect(r.reads).toBe(0); // no read on the host: the phone checked
    expect(rig.inputs.count).toBe(before);
    expect(rig.phone.world.settings.wifi).toBe(true);
  });

  it('silently dropped input is delivered but fails validation', async () => {
    const { rig, ex, o } = await settings('full');
    rig.phone.faults.dropInput = true;
    const bt = el(o, 'Bluetooth');
    const r = await ex.run(
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: bt.id, state: 'on' }),
      o,
    );
    expect(r.receipt.status).toBe('completed');
    expect(r.ok).toBe(false);
    expect(r.outcome?.unchanged).toBe(true);
    rig.phone.faults.dropInput = false;
    const ok = await ex.run(
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: bt.id, state: 'on' }),
      r.post ?? o,
    );
    expect(ok.ok).toBe(true);
    expect(rig.phone.world.settings.bluetooth).toBe(true);
  });

  it('a cropped screenshot does not shift taps', async () => {
    const { rig, ex } = await settings('full');
    rig.phone.faults.cropStatusBar = true;
    const r0 = await ex.observe(undefined, { screenshot: true });
    if (!r0.ok) throw new Error(r0.message);
    expect(r0.screenshot?.offsetY).toBeGreaterThan(0);
    const o = r0.obs;
    const bt = el(o, 'Bluetooth');
    const centre = {
      x: Math.round((bt.bounds.left + bt.bounds.right) / 2),
      y: Math.round((bt.bounds.top + bt.bounds.bottom) / 2),
    };
    const r = await ex.run(
      decision({ tool: 'tap', point: centre }, { kind: 'element_state', target_id: bt.id, state: 'on' }),
      o,
    );
    expect(r.ok).toBe(true);
    const want = { x: (bt.boundsPx.left + bt.boundsPx.right) / 2, y: (bt.boundsPx.top + bt.boundsPx.bottom) / 2 };
    expect(Math.abs((r.receipt.injectedPx?.y ?? 0) - want.y)).toBeLessThanOrEqual(3);
    expect(rig.phone.world.settings.bluetooth).toBe(true);
  });
});

/** The real bridge device without ACTION_SET_TEXT, as on a WebView field: the ladder must go on to the IME. */
function withoutSetText(d: Device): Device {
  return new Proxy(d, {
    get(t, p, r) {
      if (p === 'capabilities')
        return () => {
          const c = t.capabilities();
          const ops = new Set(c.ops);
          ops.delete('set_text');
          return { ...c, ops };
        };
      const v = Reflect.get(t, p, r);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });
}

describe('text ladder', () => {
  it('set_text replaces pre-filled text with Chinese and reads it back', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const r1 = await ex.run(
      decision(
        { tool: 'type', target_id: el(o, 'Email').id, text: 'old@x.io' },
        { kind: 'element_state', target_id: el(o, 'Email').id, state: 'text=old@x.io' },
      ),
      o,
    );
    o = r1.post ?? o;
    const field = o.elements.find((e) => e.text === 'old@x.io');
    const r2 = await ex.run(
      decision(
        { tool: 'type', target_id: field?.id ?? '', text: '张伟@例子.中国' },
        { kind: 'element_state', target_id: field?.id ?? '', state: 'text=张伟@例子.中国' },
      ),
      o,
    );
    expect(r2.ok).toBe(true);
    expect(r2.post?.elements.some((e) => e.text === '张伟@例子.中国')).toBe(true);
    expect(r2.post?.elements.some((e) => e.text.includes('old@x.io'))).toBe(false);
  });

  it('typing "" clears a field that then shows its hint (the contacts search)', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.contacts' }, 'Allow']);
    const search = o.elements.find((e) => e.flags.editable);
    expect(search).toBeDefined();
    const typed = await ex.run(
      decision(
        { tool: 'type', target_id: search?.id ?? '', text: 'Zed' },
        { kind: 'element_state', target_id: search?.id ?? '', state: 'text=Zed' },
      ),
      o,
    );
    expect(typed.ok).toBe(true);
    o = typed.post ?? o;
    const filled = o.elements.find((e) => e.flags.editable && e.text === 'Zed');
    const cleared = await ex.run(
      decision({ tool: 'type', target_id: filled?.id ?? '', text: '' }, { kind: 'screen_changes' }),
      o,
    );
    expect(cleared.receipt.error?.message).toBeUndefined();
    expect(cleared.ok).toBe(true);
    expect(cleared.post?.elements.some((e) => e.flags.editable && e.text === 'Zed')).toBe(false);
  });

  it('without set_text, the IME commit enters Unicode after clearing the field', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(withoutSetText(rig.device), rig.clock);
    let o = await drive(ex, await observe(ex), [
      { tool: 'launch_app', package: 'com.android.messaging' },
      '妈妈 11-14 17:23 — 还不确定，晚点告诉你。',
    ]);
    const first = await ex.run(
      decision(
        { tool: 'type', target_id: el(o, 'Text message').id, text: 'draft' },
        { kind: 'element_state', target_id: el(o, 'Text message').id, state: 'text=draft' },
      ),
      o,
    );
    expect(first.ok).toBe(true);
    o = first.post ?? o;
    const f = o.elements.find((e) => e.text === 'draft');
    const r = await ex.run(
      decision(
        { tool: 'type', target_id: f?.id ?? '', text: '好的 👍 马上到' },
        { kind: 'element_state', target_id: f?.id ?? '', state: 'text=好的 👍 马上到' },
      ),
      o,
    );
    expect(r.ok).toBe(true);
    expect(rig.inputs.calls).toContain('imeCommit');
    expect(rig.inputs.calls).not.toContain('nodeAction');
    expect(r.post?.elements.some((e) => e.text === '好的 👍 马上到')).toBe(true);
  });
});
