import { afterEach, describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/clock.js';
import { dualRig } from './executor-rig.js';

/**
 * The Apps line over adb names apps as the launcher does once a launcher screen was read (adb reads
 * no labels from the package manager), and launch_app takes the name shown: a label the launcher
 * showed resolves to its app, by its words or by the app its icon's tap brought to the front.
 */

const rigs: Awaited<ReturnType<typeof dualRig>>[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});
async function rig(opts: Parameters<typeof dualRig>[0] = {}) {
  const r = await dualRig(opts);
  rigs.push(r);
  return r;
}
const soon = (r: Awaited<ReturnType<typeof dualRig>>) => Deadline.after(r.clock, 10_000);

describe('launcher names over adb', () => {
  it('after a read of the home screen, its icons name their apps in listApps, and each such name launches its app', async () => {
    const r = await rig();
    const before = await r.adb.listApps(soon(r));
    if (!before.ok) throw new Error(before.message);
    expect(before.apps.find((a) => a.package === 'com.acme.bank')?.label).toBe('Bank');
    const home = await r.adb.snapshot({}, soon(r));
    if (!home.ok) throw new Error(home.message);
    const shown = new Set(home.snapshot.nodes.map((n) => n.desc || n.text).filter(Boolean));
    const list = await r.adb.listApps(soon(r));
    if (!list.ok) throw new Error(list.message);
    const names = new Map(list.apps.map((a) => [a.package, a.label]));
    // The launcher's labels, not the package words ("Bank", "Deskclock", "Messaging").
    expect(shown.has('Acme')).toBe(true);
    expect(names.get('com.acme.bank')).toBe('Acme');
    const labelled = list.apps.filter((a) => shown.has(a.label));
    expect(labelled.length).toBeGreaterThan(3);
    // Apps on the drawer's other pages keep their package words, and the result says so.
    expect(list.labels).toBe(labelled.length === list.apps.length ? 'launcher' : 'package');
    for (const app of labelled) {
      await r.adb.key('home', soon(r));
      const l = await r.adb.launchApp({ label: app.label }, soon(r));
      expect(l.ok, `${app.label}: ${l.ok ? '' : l.message}`).toBe(true);
      expect(r.phone.foreground().package, app.label).toBe(app.package);
    }
  });

  it("a label no package word says (zh): learned from the app its icon's tap opened, then listed and launched by it", async () => {
    const r = await rig({ locale: 'zh' });
    const home = await r.adb.snapshot({}, soon(r));
    if (!home.ok) throw new Error(home.message);
    const icon = home.snapshot.nodes.find((n) => n.desc === '设置');
    expect(icon).toBeDefined();
    const b = icon?.bounds ?? { left: 0, top: 0, right: 0, bottom: 0 };
    const p = { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 };
    expect((await r.adb.tap(p, { durationMs: 50 }, soon(r))).ok).toBe(true);
    await r.clock.sleep(500);
    const opened = await r.adb.snapshot({}, soon(r));
    expect(opened.ok && opened.snapshot.foreground.package).toBe('com.android.settings');
    const list = await r.adb.listApps(soon(r));
    if (!list.ok) throw new Error(list.message);
    expect(list.apps.find((a) => a.package === 'com.android.settings')?.label).toBe('设置');
    await r.adb.key('home', soon(r));
    expect((await r.adb.launchApp({ label: '设置' }, soon(r))).ok).toBe(true);
    expect(r.phone.foreground().package).toBe('com.android.settings');
  });
});
