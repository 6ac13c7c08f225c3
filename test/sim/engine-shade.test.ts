import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/testbed/sim/app.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, tapNode, testApp } from './engine-helpers.js';

/** The quick-settings shade: pulled from the status bar, its tiles are Switches that change settings. */

describe('quick-settings shade', () => {
  it('opens with a swipe down from the status bar and toggles Wi-Fi, counting the toggle', async () => {
    const phone = new VirtualPhone();
    await phone.swipe(540, 20, 540, 1200, 300);
    const snap = await phone.readTree();
    const shade = snap.windows.find((w) => w.title === 'NotificationShade');
    expect(shade).toMatchObject({ package: 'com.android.systemui', type: 'system', focused: true });
    const wifi = snap.nodes.find((n) => n.className === 'android.widget.Switch' && n.text === 'Wi-Fi');
    expect(wifi?.flags.checked).toBe(true);
    if (wifi) await tapNode(phone, wifi);
    expect(phone.world.settings.wifi).toBe(false);
    expect(phone.world.toggles.wifi).toBe(1);
    const slider = byId(await phone.readTree(), 'slider');
    expect(slider.range).toEqual({ min: 0, max: 255, current: 128 });
    // A tap below the panel closes the shade and reaches nothing else.
    await phone.tap(540, 2000, 50);
    const closed = await phone.readTree();
    expect(closed.windows.some((w) => w.title === 'NotificationShade')).toBe(false);
    expect(closed.foreground.package).toBe('com.android.launcher3');
  });

  it('back closes the shade before anything else; swiping it up closes it too', async () => {
    const phone = new VirtualPhone({ locale: 'zh' });
    await phone.launch('com.android.settings');
    await phone.swipe(540, 20, 540, 1200, 300);
    let snap = await phone.readTree();
    expect(snap.nodes.some((n) => n.text === 'WLAN' && n.package === 'com.android.systemui')).toBe(true);
    await phone.key('back');
    snap = await phone.readTree();
    expect(snap.windows.some((w) => w.title === 'NotificationShade')).toBe(false);
    expect(snap.foreground.package).toBe('com.android.settings');
    await phone.swipe(540, 20, 540, 1200, 300);
    const panel = (await phone.readTree()).windows.find((w) => w.title === 'NotificationShade');
    await phone.swipe(540, (panel?.bounds.bottom ?? 400) - 40, 540, 100, 300);
    expect((await phone.readTree()).windows.some((w) => w.title === 'NotificationShade')).toBe(false);
  });

  it('keeps notifications in the shade after their banner is gone; tapping one opens its app', async () => {
    let ctx: AppContext | undefined;
    const app = testApp('com.test.notify', (_r, c) => {
      ctx = c;
      return { activity: '.Main', title: 'N', root: { kind: 'column', children: [{ kind: 'text', text: 'Inbox' }] } };
    });
    const phone = new VirtualPhone({ apps: [app] });
    await phone.launch('com.test.notify');
    await phone.readTree();
    await phone.key('home');
    ctx?.notify({ title: 'Bank', text: 'Your code is 482913', package: 'com.test.notify' });
    await phone.clock.sleep(4000);
    expect((await phone.readTree()).windows.some((w) => w.type === 'notification')).toBe(false);
    await phone.swipe(540, 20, 540, 1200, 300);
    const snap = await phone.readTree();
    const row = snap.nodes.find((n) => n.text === 'Your code is 482913');
    expect(row?.package).toBe('com.android.systemui');
    if (row) await tapNode(phone, row);
    expect(phone.foreground().package).toBe('com.test.notify');
    await phone.swipe(540, 20, 540, 1200, 300);
    expect((await phone.readTree()).nodes.some((n) => n.text === 'Your code is 482913')).toBe(false);
  });
});
