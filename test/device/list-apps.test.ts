import { afterEach, describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/clock.js';
import { launcherApps, matchLabel, parseComponents } from '../../src/device/adb/launcher.js';
import { launchName } from '../../src/device/app-label.js';
import { bridgeRig } from '../executor/helpers.js';

/** listApps over the helper bridge (the virtual phone's real server), and adb's names for the same apps. */

const rigs: Awaited<ReturnType<typeof bridgeRig>>[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});
async function rig(opts: Parameters<typeof bridgeRig>[0] = {}) {
  const r = await bridgeRig(opts);
  rigs.push(r);
  return r;
}

describe('listApps over the bridge', () => {
  it("lists the drawer's apps with the launcher's labels, not the home screen; each label launches its app", async () => {
    const { device, clock, phone } = await rig();
    const r = await device.listApps(Deadline.after(clock, 5_000));
    if (!r.ok) throw new Error(r.message);
    expect(r.labels).toBe('launcher');
    const labels = r.apps.map((a) => a.label);
    expect(labels).toEqual(expect.arrayContaining(['Settings', 'FoodShop', 'Phone', 'Notes', 'Recordings']));
    expect(r.apps.some((a) => a.package === 'com.android.launcher3')).toBe(false);
    expect(r.apps.find((a) => a.label === 'FoodShop')).toMatchObject({ package: 'com.foodshop' });
    for (const app of r.apps) {
      await device.key('home', Deadline.after(clock, 5_000));
      const l = await device.launchApp({ label: app.label }, Deadline.after(clock, 5_000));
      expect(l.ok, `${app.label}: ${l.ok ? '' : l.message}`).toBe(true);
      expect(phone.foreground().package, app.label).toBe(app.package);
    }
  });

  it('in the zh locale the labels are the Chinese ones the launcher shows', async () => {
    const { device, clock, phone } = await rig({ locale: 'zh' });
    const r = await device.listApps(Deadline.after(clock, 5_000));
    if (!r.ok) throw new Error(r.message);
    expect(r.apps.map((a) => a.label)).toEqual(
      expect.arrayContaining(['设置', '美食店', '电话', '备忘录', '录像回放']),
    );
    expect(r.apps.map((a) => a.label)).not.toContain('FoodShop');
    await device.launchApp({ label: '美食店' }, Deadline.after(clock, 5_000));
    expect(phone.foreground().package).toBe('com.foodshop');
  });

  it('a helper without list_apps is not asked: UNSUPPORTED, nothing sent', async () => {
    const { device, clock } = await rig({ omitCapabilities: ['list_apps'] });
    expect(device.capabilities().ops.has('list_apps')).toBe(false);
    const r = await device.listApps(Deadline.after(clock, 5_000));
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
    // And its /v3/apps is gone, as on an older helper.
    const res = await fetch(`${rigs[0]?.server.url}/v3/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rigs[0]?.server.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });
});

describe("adb's names (launchName)", () => {
  const out = [
    '6 activities found:',
    '    com.android.settings/.Settings',
    '    com.android.deskclock/.DeskClock',
    '    com.foodshop/.MenuActivity',
    '    com.example.maps/.MapActivity',
    '    com.android.stock.maps/.MainActivity',
    '    com.android.stock.camera/.MainActivity',
  ].join('\n');
  it('names each app by a word of its own that label matching resolves to it alone, else by its package', () => {
    const apps = launcherApps(out);
    expect(apps.map((a) => a.label)).toEqual([
      'Settings',
      'Deskclock',
      'Foodshop',
      'Map',
      'com.android.stock.maps',
      'Camera',
    ]);
    const all = parseComponents(out);
    for (const a of apps.filter((x) => !x.label.includes('.'))) {
      const m = matchLabel(a.label, all);
      expect(m.ok && m.component.package, a.label).toBe(a.package);
    }
  });

  it('skips generic words (android, main, activity) and words another app shares', () => {
    const all = parseComponents(
      '    com.android.stock.phone/.MainActivity\n    com.android.stock.music/.MainActivity\n',
    );
    expect(all.map((c) => launchName(c, all))).toEqual(['Phone', 'Music']);
  });
});
