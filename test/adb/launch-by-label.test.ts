import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { matchLabel, parseComponents } from '../../src/device/adb/launcher.js';
import { appMatches } from '../../src/executor/app-match.js';
import { decision, makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/** launch_app by the name the launcher shows, over adb (adbkit → adb server → the virtual phone's adbd). */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('launch_app over adb', () => {
  it('resolves a label to its package through the launcher list and opens the app', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    const r = await ex.run(
      decision({ tool: 'launch_app', package: 'Settings' }, { kind: 'app_foreground', package: 'Settings' }),
      o,
    );
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(rig.phone.foreground().package).toBe('com.android.settings');
    await ex.run(decision({ tool: 'home' }), r.post ?? o);
  });

  it('a name no package word matches is found on the launcher (home, then the drawer) and tapped', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    // "Files" is com.android.documentsui: no word of it; its icon is on the launcher.
    const r = await ex.run(
      decision({ tool: 'launch_app', package: 'Files' }, { kind: 'app_foreground', package: 'Files' }),
      o,
    );
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(rig.phone.foreground().package).toBe('com.android.documentsui');
    await ex.run(decision({ tool: 'home' }), r.post ?? o);
  });

  it('a name nowhere on the launcher fails, says what it shows, and reports that the phone moved (home)', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    await rig.phone.launch('com.android.settings', '.Settings');
    await rig.clock.sleep(500);
    const o = await observe(ex);
    const r = await ex.run(decision({ tool: 'launch_app', package: 'Teleporter' }), o);
    expect(r.ok).toBe(false);
    // The home key and the drawer swipe were sent: delivered, partly done — never "nothing happened".
    expect(r.receipt.delivery).toBe('delivered');
    expect(r.receipt.status).toBe('partial');
    expect(r.receipt.error?.code).toBe('NOT_FOUND');
    expect(r.receipt.error?.message).toMatch(
      /no app named "Teleporter" on the home screen or in the app drawer \(it shows: .*Settings/,
    );
    expect(rig.phone.foreground().package).toBe('com.android.launcher3');
  });

  it('a package monkey cannot start is a failed receipt, never "delivered · completed"', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    const r = await ex.run(decision({ tool: 'launch_app', package: 'com.nope.app' }), o);
    expect(r.ok).toBe(false);
    expect(r.receipt.status).not.toBe('completed');
    expect(r.receipt.delivery).toBe('not_delivered');
    expect(r.receipt.error?.message).toMatch(/com\.nope\.app has no launcher activity \(monkey aborted\)/);
  });
});

describe('app_foreground by name', () => {
  const post = (pkg: string, title: string) =>
    ({
      app: { package: pkg, activity: '.Main', title },
      windows: [
        {
          id: 1,
          type: 'application',
          package: pkg,
          title,
          layer: 1,
          focused: true,
          touchable: true,
          bounds: { left: 0, top: 0, right: 1, bottom: 1 },
        },
      ],
    }) as unknown as Observation;
  it('accepts the package, a package prefix, the window title or the package words; not another app', () => {
    expect(appMatches('com.acme.bank', post('com.acme.bank', 'Acme'))).toBe(true);
    expect(appMatches('com.acme', post('com.acme.bank', 'Acme'))).toBe(true);
    expect(appMatches('Acme', post('com.acme.bank', 'Acme'))).toBe(true);
    expect(appMatches('Acme Bank', post('com.acme.bank', 'Sign in'))).toBe(true);
    expect(appMatches('Settings', post('com.android.settings', 'Network & internet'))).toBe(true);
    expect(appMatches('com.acm', post('com.acme.bank', 'Acme'))).toBe(false);
    expect(appMatches('Clock', post('com.android.settings', 'Settings'))).toBe(false);
    expect(appMatches('com.android.deskclock', post('com.android.settings', 'Settings'))).toBe(false);
  });
});

describe('label matching', () => {
  const components = parseComponents(
    [
      '4 activities found:',
      '  Activity #0:',
      '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
      '    com.android.settings/.Settings',
      '    com.android.deskclock/.DeskClock',
      '    com.acme.bank/.LoginActivity',
      '    com.google.android.apps.maps/com.google.android.maps.MapsActivity',
    ].join('\n'),
  );
  it('matches by the package and activity words', () => {
    expect(components).toHaveLength(4);
    const pkg = (l: string) => {
      const m = matchLabel(l, components);
      return m.ok ? m.component.package : m.message;
    };
    expect(pkg('Settings')).toBe('com.android.settings');
    expect(pkg('clock')).toBe('com.android.deskclock');
    expect(pkg('Acme')).toBe('com.acme.bank');
    expect(pkg('Acme Bank')).toBe('com.acme.bank');
    expect(pkg('Maps')).toBe('com.google.android.apps.maps');
    expect(pkg('设置')).toMatch(/no launcher app matches "设置"/);
  });
});
