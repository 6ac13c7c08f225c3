import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId } from './engine-helpers.js';

/** Rotating at run time swaps the screen, lays every window out again, and the picture lags. */

describe('rotation', () => {
  it('turns a portrait phone to landscape and back', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings', '.InternetSettings');
    await phone.clock.sleep(400);
    const before = byId(await phone.readTree(), 'wifi_switch');
    phone.rotate(1);
    expect(phone.screen()).toEqual({ width: 2400, height: 1080, density: 420, rotation: 1 });
    const snap = await phone.readTree();
    expect(snap.screen.rotation).toBe(1);
    expect(snap.windows.find((w) => w.type === 'navigation_bar')?.bounds.bottom).toBe(1080);
    expect(byId(snap, 'wifi_switch').bounds.right).toBeGreaterThan(before.bounds.right);
    // The picture still shows the portrait frame for a moment.
    const during = await sharp((await phone.screenshot()).png).metadata();
    expect([during.width, during.height]).toEqual([1080, 2400]);
    // uiautomator dump waits for the UI to go idle (the turn to end), as on Android.
    const t0 = phone.clock.now();
    expect(await phone.dumpXml()).toContain('<hierarchy rotation="1">');
    expect(phone.clock.now() - t0).toBeGreaterThan(0);
    const after = await phone.screenshot();
    expect([after.width, after.height]).toEqual([2400, 1080]);
    const meta = await sharp(after.png).metadata();
    expect([meta.width, meta.height]).toEqual([2400, 1080]);
    phone.rotate(0);
    expect(phone.screen()).toEqual({ width: 1080, height: 2400, density: 420, rotation: 0 });
    expect(byId(await phone.readTree(), 'wifi_switch').bounds).toEqual(before.bounds);
  });
});
