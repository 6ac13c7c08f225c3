import { afterEach, describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import type { Device } from '../../src/device/device.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { dualRig } from './executor-rig.js';

/**
 * listApps over adb (adbkit → a real adb server → the virtual phone's adbd answering
 * `cmd package query-activities`) and through failover; every name shown launches its app.
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

async function launchesEach(dev: Device, r: Awaited<ReturnType<typeof dualRig>>) {
  const list = await dev.listApps(Deadline.after(r.clock, 10_000));
  if (!list.ok) throw new Error(list.message);
  for (const app of list.apps) {
    await dev.key('home', Deadline.after(r.clock, 10_000));
    const l = await dev.launchApp({ label: app.label }, Deadline.after(r.clock, 10_000));
    expect(l.ok, `${app.label}: ${l.ok ? '' : l.message}`).toBe(true);
    expect(r.phone.foreground().package, app.label).toBe(app.package);
  }
  return list;
}

describe('listApps over adb', () => {
  it("names the same apps as the bridge, by words adb's label matching accepts, and each name launches its app", async () => {
    const r = await rig();
    const adb = await launchesEach(r.adb, r);
    expect(adb.labels).toBe('package');
    const bridge = await r.helper.listApps(Deadline.after(r.clock, 5_000));
    if (!bridge.ok) throw new Error(bridge.message);
    expect(adb.apps.map((a) => a.package).sort()).toEqual(bridge.apps.map((a) => a.package).sort());
    const names = new Map(adb.apps.map((a) => [a.package, a.label]));
    expect(names.get('com.foodshop')).toBe('Foodshop');
    expect(names.get('com.android.settings')).toBe('Settings');
    expect(names.get('com.android.stock.phone')).toBe('Phone');
    expect(names.get('com.example.recordings')).toBe('Recordings');
  });

  it('in the zh locale too: adb reads no labels, so its names stay the package words', async () => {
    const r = await rig({ locale: 'zh' });
    const list = await launchesEach(r.adb, r);
    expect(list.apps.find((a) => a.package === 'com.android.notes')?.label).toBe('Notes');
  });
});

describe('listApps through failover', () => {
  const failover = (r: Awaited<ReturnType<typeof dualRig>>) =>
    new FailoverDevice({ primary: r.helper, fallback: r.adb, clock: r.clock, logger: Logger.silent() });

  it("the helper's labels first; every label launches over the helper", async () => {
    const r = await rig();
    const list = await launchesEach(failover(r), r);
    expect(list).toMatchObject({ labels: 'launcher', backend: 'bridge', failover: false });
    expect(list.apps.map((a) => a.label)).toContain('FoodShop');
  });

  it("a helper without list_apps (older) → adb's list, and its names launch", async () => {
    const r = await rig({ omitCapabilities: ['list_apps'] });
    const dev = failover(r);
    const list = await launchesEach(dev, r);
    expect(list).toMatchObject({ labels: 'package', backend: 'adb', failover: true });
    expect(dev.usingFallback).toBe(false);
  });

  it("the helper's localized label still launches once the run is on adb (by the listed package)", async () => {
    const r = await rig({ locale: 'zh' });
    const dev = failover(r);
    const list = await dev.listApps(Deadline.after(r.clock, 5_000));
    expect(list.ok && list.apps.map((a) => a.label)).toContain('美食店');
    r.phone.faults.helperDisconnected = true;
    // A read notices the helper is gone and moves the run to adb (an action that may have been sent is never replayed).
    expect((await dev.snapshot({}, Deadline.after(r.clock, 10_000))).backend).toBe('adb');
    const l = await dev.launchApp({ label: '美食店' }, Deadline.after(r.clock, 10_000));
    expect(l.ok, l.ok ? '' : l.message).toBe(true);
    expect(l.receipt).toMatchObject({ backend: 'adb', failover: true });
    expect(r.phone.foreground().package).toBe('com.foodshop');
  });
});
