import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { AdbDevice } from '../../src/device/adb/device.js';
import { sortedContacts } from '../../src/testbed/sim/apps/contacts-data.js';
import { AGENT_IME } from '../../src/testbed/sim/index.js';
import { REGISTRY } from '../../src/tools/index.js';
import { decision, drive, el, makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/** The executor over the ADB backend: adbkit → a real adb server → the virtual phone's adbd. */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('adb backend', () => {
  it('reads the screen through uiautomator and offers only what adb can do', async () => {
    const caps = rig.adb.capabilities();
    expect(caps.screen.width).toBe(1080);
    const tools = REGISTRY.offered(caps);
    expect(tools).toEqual(expect.arrayContaining(['tap', 'swipe', 'type', 'back', 'launch_app']));
    for (const t of ['control_action', 'pinch', 'touch_gesture', 'action_sequence']) expect(tools).not.toContain(t);
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    expect(o.app.package).toBe('com.android.launcher3');
    expect(o.elements.some((e) => e.label === 'Settings' || e.text === 'Settings')).toBe(true);
    const r = await ex.run(
      decision({ tool: 'control_action', args: { selector: { text: 'Settings' }, action: 'click' } }),
      o,
    );
    expect(r.receipt.error?.code).toBe('UNSUPPORTED');
    expect(r.receipt.delivery).toBe('not_delivered');
  });

  it('launches, taps and verifies through adb', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.settings' }]);
    // Android 14: the Wi-Fi switch lives on Network & internet → Internet.
    await rig.phone.launch('com.android.settings', '.InternetSettings');
    await rig.clock.sleep(500);
    const o = await observe(ex);
    expect(o.app.package).toBe('com.android.settings');
    const wifi = el(o, 'Wi-Fi');
    const r = await ex.run(
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
      o,
    );
    expect(r.ok).toBe(true);
    expect(r.receipt.backend).toBe('adb');
    expect(rig.phone.world.settings.wifi).toBe(false);
    await ex.run(decision({ tool: 'home' }), r.post ?? o);
  });

  it('types ASCII with input text; other scripts through an installed base64 IME, selected for the typing only; without one the ladder asks the user', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const email = el(o, 'Email');
    const ascii = await ex.run(
      decision(
        { tool: 'type', target_id: email.id, text: "it's a b@c.d" },
        { kind: 'element_state', target_id: email.id, state: "text=it's a b@c.d" },
      ),
      o,
    );
    expect(ascii.ok).toBe(true);
    o = ascii.post ?? o;
    // The virtual phone has the agent's base64 IME installed but off (as a phone with ADBKeyboard
    // installed): it is selected for the moment of typing and the user's keyboard given back.
    const imeBefore = rig.phone.imes();
    expect(imeBefore.find((i) => i.current)?.id).not.toBe(AGENT_IME);
    expect(rig.adb.capabilities().unicodeText).toBe(true);
    const field = o.elements.find((e) => e.text === "it's a b@c.d");
    const zh = await ex.run(
      decision(
        { tool: 'type', target_id: field?.id ?? '', text: '张伟 😀' },
        { kind: 'element_state', target_id: field?.id ?? '', state: 'text=张伟 😀' },
      ),
      o,
    );
    expect(zh.ok, zh.error).toBe(true);
    expect(zh.post?.elements.some((e) => e.text === '张伟 😀')).toBe(true);
    expect(rig.phone.imes()).toEqual(imeBefore);

    // A phone with no base64 IME (the list names none it has): the ladder asks the user.
    const plain = new AdbDevice({
      serial: rig.serial,
      port: rig.server.port,
      clock: rig.clock,
      logger: Logger.silent(),
      base64Imes: [],
    });
    expect((await plain.connect(Deadline.after(rig.clock, 5_000))).ok).toBe(true);
    expect(plain.capabilities().unicodeText).toBe(false);
    const ex2 = makeExecutor(plain, rig.clock);
    const o2 = await observe(ex2);
    const f2 = o2.elements.find((e) => e.flags.editable && !e.flags.password);
    const refused = await ex2.run(
      decision(
        { tool: 'type', target_id: f2?.id ?? '', text: '王芳' },
        { kind: 'element_state', target_id: f2?.id ?? '', state: 'text=王芳' },
      ),
      o2,
    );
    expect(refused.ok).toBe(false);
    expect(refused.receipt.error?.code).toBe('UNSUPPORTED');
    expect(refused.receipt.error?.message).toMatch(/ask the user/);
    expect((await observe(ex2)).elements.some((e) => e.text.includes('王'))).toBe(false);
    await ex.run(decision({ tool: 'home' }), zh.post ?? o);
  });

  it('wait_until over plain reads: an unreadable screen never proves that something disappeared', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    expect(REGISTRY.offered(rig.adb.capabilities())).toContain('wait_until');
    const label = o.elements.find((e) => e.text === 'Settings' || e.label === 'Settings');
    const sel = { text: label?.text || 'Settings' };
    const appears = await ex.run(
      decision(
        { tool: 'wait_until', args: { condition: 'appears', selector: sel, timeout_ms: 2_000 } },
        { kind: 'no_change' },
      ),
      o,
    );
    expect(appears.receipt.error).toBeUndefined();
    expect(appears.receipt.status).toBe('observed');
    rig.phone.faults.emptyTree = true;
    try {
      const t0 = rig.clock.now();
      const gone = await ex.run(
        decision(
          { tool: 'wait_until', args: { condition: 'disappears', selector: sel, timeout_ms: 3_000 } },
          { kind: 'no_change' },
        ),
        o,
      );
      expect(gone.ok).toBe(false);
      expect(gone.receipt.error?.code).toBe('TIMEOUT');
      expect(gone.receipt.error?.message).toMatch(/last read error/);
      expect(rig.clock.now() - t0).toBeGreaterThanOrEqual(3_000);
    } finally {
      rig.phone.faults.emptyTree = false;
    }
    const tooLong = await ex.run(
      decision({ tool: 'wait_until', args: { condition: 'appears', selector: sel, timeout_ms: 31_000 } }),
      o,
    );
    expect(tooLong.receipt.error?.code).toBe('INVALID_ARGUMENT');
  });

  it('scroll_to over swipes and reads: finds a contact below the fold; stops at the end of the list', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.contacts' }]);
    const allow = o.elements.find((e) => e.resourceId.endsWith('permission_allow_button'));
    if (allow) o = await drive(ex, o, [{ tool: 'tap', target_id: allow.id }]);
    const list = o.elements.find((e) => e.flags.scrollable);
    expect(list?.resourceId).toBeTruthy();
    const last = sortedContacts(rig.phone.world.contacts)[40]?.name ?? '';
    expect(o.elements.some((e) => e.text === last || e.label === last)).toBe(false);
    const container = { resource_id: list?.resourceId };
    const found = await ex.run(
      decision(
        { tool: 'scroll_to', args: { container, target: { text: last }, max_scrolls: 20, timeout_ms: 30_000 } },
        { kind: 'text_appears', text: last },
      ),
      o,
    );
    expect(found.receipt.error?.message ?? found.outcome?.reason ?? '').toBe('');
    expect(found.ok).toBe(true);
    expect(found.receipt.status).toBe('completed');
    expect(found.value).toMatchObject({ found: last });
    const o2 = found.post ?? (await observe(ex));
    const limit = await ex.run(
      decision(
        { tool: 'scroll_to', args: { container, target: { text: 'Nobody Here 查无此人' }, max_scrolls: 3 } },
        { kind: 'no_change' },
      ),
      o2,
    );
    expect(limit.receipt.error?.code).toBe('NOT_FOUND');
    expect(limit.receipt.error?.message).toMatch(/3 scrolls; the list goes on: scroll_to again/);
    expect(limit.value).toEqual({ listEnd: false, scrolls: 3 });
    expect(limit.receipt.status).toBe('partial');
    // A short list ends: no progress stops the search long before the scroll limit.
    await drive(ex, o2, [{ tool: 'launch_app', package: 'com.android.settings' }]);
    await rig.phone.launch('com.android.settings', '.Settings');
    await rig.clock.sleep(500);
    const s = await observe(ex);
    const slist = s.elements.find((e) => e.flags.scrollable);
    const none = await ex.run(
      decision(
        {
          tool: 'scroll_to',
          args: {
            container: { resource_id: slist?.resourceId },
            target: { text: 'Nobody Here 查无此人' },
            max_scrolls: 20,
            timeout_ms: 30_000,
          },
        },
        { kind: 'no_change' },
      ),
      s,
    );
    expect(none.receipt.error?.code).toBe('NO_PROGRESS');
    expect(none.receipt.error?.message).toMatch(/the list ended there/);
    expect(none.value).toMatchObject({ listEnd: true });
    await ex.run(decision({ tool: 'home' }), s);
  });

  it('read_control over a plain read reports state and range, and never offers native writes', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    await rig.phone.launch('com.android.settings', '.DisplaySettings');
    await rig.clock.sleep(500);
    const o = await observe(ex);
    const wifi = el(o, 'Dark theme');
    const r = await ex.run(decision({ tool: 'read_control', target_id: wifi.id }, { kind: 'no_change' }), o);
    expect(r.receipt.status).toBe('observed');
    const c = r.value as { flags: { checkable: boolean; checked: boolean }; actions: string[]; token: string };
    expect(c.flags.checkable).toBe(true);
    expect(c.flags.checked).toBe(rig.phone.world.settings.darkMode);
    expect(c.actions).toEqual([]);
    expect(c.token).toMatch(/^[0-9a-f]{12}$/);
    const amb = await ex.run(
      decision(
        { tool: 'read_control', args: { selector: { class_name: 'android.widget.Switch' } } },
        { kind: 'no_change' },
      ),
      o,
    );
    expect(amb.receipt.error?.code).toBe('AMBIGUOUS');
    await ex.run(decision({ tool: 'home' }), o);
  });
});
