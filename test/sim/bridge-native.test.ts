import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './bridge-harness.js';

// Native control semantics of the bridge on the virtual phone: occlusion by the keyboard, a dialog
// and an overlay; scroll_to over a long list; waits that never take a failed read for absence.
let h: Harness | undefined;
afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

async function launch(harness: Harness, pkg: string, activity?: string) {
  expect((await harness.act({ action: 'launch_app', package: pkg, activity })).status).toBe('completed');
  await harness.act({ action: 'wait_until', condition: 'stable', timeout_ms: 3_000 });
}

describe('bridge: occlusion', () => {
  it('the keyboard moves a button: the old expected_token is STALE, a fresh resolution clicks it where it is now', async () => {
    h = await startHarness();
    await launch(h, 'com.acme.bank');
    const login = { resource_id: 'com.acme.bank:id/login' };
    // With both fields filled, a click that lands counts as a login attempt.
    await h.act({ action: 'set_text', selector: { resource_id: 'com.acme.bank:id/email' }, text: 'a@b.c' });
    await h.act({ action: 'set_text', selector: { resource_id: 'com.acme.bank:id/password' }, text: 'pw' });
    const before = await h.act({ action: 'read_control', selector: login });
    const token = before.control?.token ?? '';
    const focus = await h.act({
      action: 'control_action',
      request: { selector: { resource_id: 'com.acme.bank:id/email' }, action: 'click' },
    });
    expect(focus.status).toBe('completed');
    const snap = await h.snapshot();
    expect(snap.keyboard.shown).toBe(true);

    const stale = await h.act({
      action: 'control_action',
      request: { selector: login, action: 'click', expected_token: token },
    });
    expect(stale.error?.code).toBe('STALE');
    expect(stale.delivery).toBe('not_delivered');
    expect(h.phone.world.session.attempts).toBe(0);

    const now = await h.act({ action: 'control_action', request: { selector: login, action: 'click' } });
    expect(now.status).toBe('completed');
    expect(h.phone.world.session.attempts).toBe(1);
    expect(now.before?.bounds.top).toBeLessThan(before.control?.bounds.top ?? 0);
    expect(now.before?.bounds.bottom).toBeLessThanOrEqual(snap.keyboard.bounds?.top ?? 0);
  });

  it('app content under a dialog is OCCLUDED; the dialog button works', async () => {
    h = await startHarness();
    await launch(h, 'com.foodshop');
    const snap = await h.snapshot();
    const dialog = snap.windows.find((w) => w.type === 'dialog');
    expect(dialog).toBeDefined();
    const covered = snap.nodes.find((n) => {
      const w = snap.windows.find((x) => x.id === n.window);
      const d = dialog?.bounds;
      return (
        w?.type === 'application' &&
        n.flags.visible &&
        n.text !== '' &&
        d &&
        n.bounds.left >= d.left &&
        n.bounds.right <= d.right &&
        n.bounds.top >= d.top &&
        n.bounds.bottom <= d.bottom &&
        snap.nodes.filter((m) => m.text === n.text).length === 1
      );
    });
    expect(covered, 'an app node entirely under the dialog').toBeDefined();
    const r = await h.act({ action: 'read_control', selector: { text: covered?.text ?? '' } });
    expect(r.control?.visible_area).toBe(0);
    const click = await h.act({
      action: 'control_action',
      request: { selector: { text: covered?.text ?? '' }, action: 'show_on_screen' },
    });
    expect(click.error?.code).not.toBe('OCCLUDED'); // show_on_screen is exempt: it is how a target gets visible
    const later = await h.act({
      action: 'control_action',
      request: { selector: { text: 'Later' }, action: 'click' },
    });
    expect(later.status).toBe('completed');
  });

  it('the overlay fault makes every native write OCCLUDED', async () => {
    h = await startHarness();
    await launch(h, 'com.android.settings', '.InternetSettings');
    h.phone.faults.overlay = true;
    const r = await h.act({ action: 'control_action', request: { selector: { text: 'Wi-Fi' }, action: 'click' } });
    expect(r.error?.code).toBe('OCCLUDED');
    expect(h.phone.world.settings.wifi).toBe(true);
    h.phone.faults.overlay = false;
    const ok = await h.act({ action: 'control_action', request: { selector: { text: 'Wi-Fi' }, action: 'click' } });
    expect(ok.status).toBe('completed');
    expect(h.phone.world.settings.wifi).toBe(false);
  });
});

describe('bridge: scroll_to and wait_until', () => {
  it('scroll_to finds an item far down a 120-item menu and logs every scroll', async () => {
    h = await startHarness();
    await launch(h, 'com.foodshop');
    await h.act({ action: 'control_action', request: { selector: { text: 'Later' }, action: 'click' } });
    await h.act({ action: 'wait_until', condition: 'stable', timeout_ms: 3_000 });
    const menu = { resource_id: 'com.foodshop:id/menu' };
    // The last category header is far below the first screen.
    const snap = await h.snapshot();
    expect(snap.nodes.some((n) => n.resourceId === 'com.foodshop:id/menu')).toBe(true);
    const r = await h.act({
      action: 'scroll_to',
      container: menu,
      target: { text: 'Bakery', resource_id: 'com.foodshop:id/category' },
      max_scrolls: 20,
    });
    if (r.error) throw new Error(JSON.stringify(r.error));
    expect(r.status).toBe('completed');
    expect(r.scroll_log?.length).toBeGreaterThan(1);
    expect(r.scroll_log?.every((e) => e.outcome === 'moved')).toBe(true);
    expect(r.scroll_log?.at(-1)?.target_visible).toBe(true);
    const none = await h.act({
      action: 'scroll_to',
      container: menu,
      target: { text: 'No such dish' },
      direction: 'backward',
      max_scrolls: 20,
    });
    expect(['NO_PROGRESS', 'NOT_FOUND']).toContain(none.error?.code);
    expect(none.status).toBe('partial');
  });

  it('wait_until disappears never succeeds on failed (empty) reads', async () => {
    h = await startHarness();
    await launch(h, 'com.android.settings', '.InternetSettings');
    h.phone.faults.emptyTree = true;
    const r = await h.act({
      action: 'wait_until',
      condition: 'disappears',
      selector: { text: 'Wi-Fi' },
      timeout_ms: 1_000,
    });
    expect(r.error?.code).toBe('TIMEOUT');
    expect(r.last_read_error).toMatch(/READ_FAILED/);
    expect(r.polls).toBe(0);
    h.phone.faults.emptyTree = false;
    const ok = await h.act({
      action: 'wait_until',
      condition: 'appears',
      selector: { text: 'Wi-Fi' },
      timeout_ms: 1_000,
    });
    expect(ok.status).toBe('observed');
  });

  it('wait_until checked follows a switch flipped by control_action, with before/after state', async () => {
    h = await startHarness();
    await launch(h, 'com.android.settings', '.BluetoothSettings');
    const sel = { resource_id: 'com.android.settings:id/bluetooth_switch' };
    const flip = await h.act({ action: 'control_action', request: { selector: sel, action: 'click' } });
    expect(flip.before?.checked).toBe(!flip.after?.checked);
    const want = flip.after?.checked ? 'checked' : 'unchecked';
    const r = await h.act({ action: 'wait_until', condition: want, selector: sel, timeout_ms: 1_000 });
    expect(r.status).toBe('observed');
    const bad = await h.act({
      action: 'wait_until',
      condition: 'checked',
      selector: { text: 'Pair new device' },
      timeout_ms: 1_000,
    });
    expect(bad.error?.code).toBe('UNSUPPORTED');
  });

  it('password fields: set_text works, the text is never exposed', async () => {
    h = await startHarness();
    await launch(h, 'com.acme.bank');
    const sel = { resource_id: 'com.acme.bank:id/password' };
    const r = await h.act({ action: 'set_text', selector: sel, text: 'hunter2' });
    expect(r.status).toBe('completed');
    const read = await h.act({ action: 'read_control', selector: sel });
    expect(read.control?.flags.password).toBe(true);
    expect(JSON.stringify(read)).not.toContain('hunter2');
    expect(JSON.stringify(await h.snapshot())).not.toContain('hunter2');
    const sel2 = await h.act({
      action: 'control_action',
      request: { selector: sel, action: 'replace_selection', text: 'x' },
    });
    expect(sel2.error?.code).toBe('UNSUPPORTED');
  });

  it("a popup between the helper's read and its act: re-resolved once, acted exactly once", async () => {
    h = await startHarness({ latency: { helperInput: 100 } });
    await launch(h, 'com.android.settings', '.InternetSettings');
    const sel = { text: 'Wi-Fi' };
    const read = await h.act({ action: 'read_control', selector: sel });
    const token = read.control?.token;
    // Due while the phone handles the click (helperInput latency): the screen revision moves on.
    h.phone.popup(
      { kind: 'app', title: 'Rate us', buttons: [{ text: 'Not now', onTap: () => {} }] },
      h.phone.clock.now() + 50,
    );
    const r = await h.act({
      action: 'control_action',
      request: { selector: sel, action: 'click', expected_token: token },
    });
    expect(r.status).toBe('completed');
    // The state it acted on was read after the popup: the first attempt was refused and re-resolved.
    expect(r.before?.seq).toBeGreaterThan(read.control?.seq ?? Number.POSITIVE_INFINITY);
    expect(h.phone.world.toggles.wifi).toBe(1);
    expect((await h.snapshot()).windows.some((w) => w.type === 'dialog')).toBe(true);
  });

  it('set_text without a selector writes into the focused field; without focus it is NOT_FOUND', async () => {
    h = await startHarness();
    await launch(h, 'com.acme.bank');
    const none = await h.act({ action: 'set_text', text: 'x' });
    expect(none.error?.code).toBe('NOT_FOUND');
    const email = { resource_id: 'com.acme.bank:id/email' };
    expect((await h.act({ action: 'control_action', request: { selector: email, action: 'focus' } })).status).toBe(
      'completed',
    );
    const r = await h.act({ action: 'set_text', text: 'ünï@例子.com' });
    expect(r.status).toBe('completed');
    expect(r.after?.text).toBe('ünï@例子.com');
    const read = await h.act({ action: 'read_control', selector: email });
    expect(read.control?.text).toBe('ünï@例子.com');
  });
});
