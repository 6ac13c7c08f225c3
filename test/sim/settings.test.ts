import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, byText, centre, tapNode } from './engine-helpers.js';

/** Settings mutates the world; `settings get|put` and the UI show the same state. */

describe('settings', () => {
  it('finds Wi-Fi under Network & internet → Internet and Bluetooth under Connected devices → Connection preferences, as on Android 14', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings');
    let snap = await phone.readTree();
    expect(snap.nodes.some((n) => n.resourceId.endsWith(':id/wifi_switch'))).toBe(false);
    await tapNode(phone, byText(snap, 'Network & internet'));
    await tapNode(phone, byText(await phone.readTree(), 'Internet'));
    snap = await phone.readTree();
    expect(snap.foreground.activity).toBe('.InternetSettings');
    const wifi = byId(snap, 'wifi_switch');
    expect(wifi).toMatchObject({ className: 'android.widget.Switch', text: 'Wi-Fi' });
    expect(wifi.flags.checked).toBe(true);
    await tapNode(phone, wifi);
    expect(phone.world.settings.wifi).toBe(false);
    expect(phone.world.toggles.wifi).toBe(1);
    snap = await phone.readTree();
    expect(byId(snap, 'wifi_switch').flags.checked).toBe(false);
    expect(phone.getSetting('global', 'wifi_on')).toBe('0');
    // The status bar's Wi-Fi icon follows the setting.
    expect(snap.nodes.some((n) => n.resourceId === 'com.android.systemui:id/wifi_signal')).toBe(false);
    await phone.key('back');
    await phone.key('back');
    await tapNode(phone, byText(await phone.readTree(), 'Connected devices'));
    await tapNode(phone, byText(await phone.readTree(), 'Connection preferences'));
    await tapNode(phone, byText(await phone.readTree(), 'Bluetooth'));
    snap = await phone.readTree();
    const bt = byId(snap, 'bluetooth_switch');
    expect(bt.text).toBe('Use Bluetooth');
    expect((await phone.nodeAction(snap.seq, bt.id, { action: 'click' })).ok).toBe(true);
    expect(phone.world.settings.bluetooth).toBe(true);
    expect(phone.world.toggles.bluetooth).toBe(1);
    expect(phone.world.toggles.wifi).toBe(1);
  });

  it('sets brightness with the seek bar (native and by dragging) and dark mode', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings');
    await tapNode(phone, byText(await phone.readTree(), 'Display'));
    let snap = await phone.readTree();
    expect(snap.foreground.activity).toBe('.DisplaySettings');
    const bar = byId(snap, 'brightness');
    expect(bar.range).toEqual({ min: 0, max: 255, current: 128 });
    expect(await phone.nodeAction(snap.seq, bar.id, { action: 'set_progress', value: 256 })).toMatchObject({
      ok: false,
      code: 'OUT_OF_RANGE',
    });
    expect((await phone.nodeAction(snap.seq, bar.id, { action: 'set_progress', value: 200 })).ok).toBe(true);
    expect(phone.world.settings.brightness).toBe(200);
    expect(phone.getSetting('system', 'screen_brightness')).toBe('200');
    // Drag the thumb to the far left.
    const c = centre(bar);
    await phone.swipe(c.x, c.y, bar.bounds.left + 1, c.y, 400);
    expect(phone.world.settings.brightness).toBe(0);
    snap = await phone.readTree();
    const before = await phone.screenshot();
    await tapNode(phone, byId(snap, 'dark_mode'));
    expect(phone.world.settings.darkMode).toBe(true);
    expect(phone.getSetting('secure', 'ui_night_mode')).toBe('2');
    expect((await phone.screenshot()).png.equals(before.png)).toBe(false);
    await phone.key('back');
    expect(phone.foreground().activity).toBe('.Settings');
  });

  it('shows the model and Android version in About phone, in Chinese too', async () => {
    const phone = new VirtualPhone({ locale: 'zh' });
    await phone.launch('com.android.settings');
    let snap = await phone.readTree();
    expect(byText(snap, '网络和互联网')).toBeDefined();
    expect(byText(snap, '已连接的设备')).toBeDefined();
    expect(byText(snap, '显示')).toBeDefined();
    const list = byId(snap, 'recycler_view');
    // About phone is at the end of the list: scroll until it shows.
    for (let i = 0; i < 5 && !snap.nodes.some((n) => n.text === '关于手机'); i++) {
      await phone.swipe(540, 2000, 540, 900, 400);
      snap = await phone.readTree();
    }
    expect(list.className).toBe('androidx.recyclerview.widget.RecyclerView');
    await tapNode(phone, byText(snap, '关于手机'));
    snap = await phone.readTree();
    expect(byText(snap, '型号')).toBeDefined();
    expect(byText(snap, 'Pixel 7')).toBeDefined();
    expect(byText(snap, 'Android 版本')).toBeDefined();
    expect(byText(snap, '14')).toBeDefined();
  });

  it('settings put changes what the UI shows', async () => {
    const phone = new VirtualPhone();
    phone.putSetting('global', 'bluetooth_on', '1');
    phone.putSetting('system', 'screen_brightness', '300');
    expect(phone.world.settings.bluetooth).toBe(true);
    expect(phone.world.settings.brightness).toBe(255);
    await phone.launch('com.android.settings', '.BluetoothSettings');
    expect(byId(await phone.readTree(), 'bluetooth_switch').flags.checked).toBe(true);
    expect(phone.getSetting('global', 'no_such_key')).toBeUndefined();
    phone.putSetting('global', 'no_such_key', 'x');
    expect(phone.getSetting('global', 'no_such_key')).toBe('x');
  });

  it('searches settings from the search bar and opens a result', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings');
    await tapNode(phone, byId(await phone.readTree(), 'search_action_bar'));
    let snap = await phone.readTree();
    expect(snap.foreground.activity).toBe('.SearchSettings');
    const field = byId(snap, 'search_src_text');
    expect(field.actions).toEqual(
      expect.arrayContaining(['set_text', 'set_selection', 'replace_selection', 'ime_enter']),
    );
    await phone.nodeAction(snap.seq, field.id, { action: 'set_text', text: 'bright' });
    snap = await phone.readTree();
    await tapNode(phone, byText(snap, 'Brightness level'));
    expect(phone.foreground().activity).toBe('.DisplaySettings');
    // A switch deep in the hierarchy is found by search too: Bluetooth opens its own page.
    await phone.key('back');
    snap = await phone.readTree();
    await phone.nodeAction(snap.seq, byId(snap, 'search_src_text').id, { action: 'set_text', text: 'bluetooth' });
    await tapNode(phone, byText(await phone.readTree(), 'Bluetooth'));
    expect(phone.foreground().activity).toBe('.BluetoothSettings');
  });

  it('has a main list longer than one screen', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings');
    const first = byId(await phone.readTree(), 'search_action_bar');
    await phone.swipe(540, 2000, 540, 600, 400);
    const snap = await phone.readTree();
    expect(snap.nodes.some((n) => n.resourceId === first.resourceId && n.flags.visible)).toBe(false);
    expect(byText(snap, 'About phone')).toBeDefined();
  });
});
