import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger } from '../../src/core/logger.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { decision, drive, el, makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/** The helper dies mid-task: the executor continues on ADB (loudly), finishes, and returns to the helper. */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('failover helper → adb', () => {
  it('completes the task on adb when the helper disconnects, and goes back when it returns', async () => {
    const lines: string[] = [];
    const logger = new Logger('device', { sink: (l) => lines.push(l) });
    const device = new FailoverDevice({
      primary: rig.helper,
      fallback: rig.adb,
      clock: rig.clock,
      logger,
      probeEveryMs: 1_000,
    });
    const ex = makeExecutor(device, rig.clock);
    await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.settings' }]);
    // Quick settings pulled down over Settings: the Wi-Fi and Bluetooth tiles side by side.
    await rig.phone.swipe(540, 20, 540, 1400, 400);
    await rig.clock.sleep(500);
    let o = await observe(ex);
    const wifi = el(o, 'Wi-Fi');
    const first = await ex.run(
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
      o,
    );
    expect(first.ok).toBe(true);
    expect(first.receipt).toMatchObject({ backend: 'bridge', failover: false });
    o = first.post ?? o;

    rig.phone.faults.helperDisconnected = true;
    const bt = el(o, 'Bluetooth');
    const second = await ex.run(
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: bt.id, state: 'on' }),
      o,
    );
    expect(second.ok).toBe(true);
    expect(second.receipt).toMatchObject({ backend: 'adb', failover: true, delivery: 'delivered' });
    expect(rig.phone.world.settings.bluetooth).toBe(true);
    expect(rig.phone.world.settings.wifi).toBe(false);
    expect(device.usingFallback).toBe(true);
    expect(lines.some((l) => /FAILOVER: the helper stopped answering/.test(l))).toBe(true);
    // Tools follow the active backend: no native tools while on adb.
    expect(device.capabilities().ops.has('control_action')).toBe(false);

    rig.phone.faults.helperDisconnected = false;
    await rig.clock.sleep(1_500);
    o = second.post ?? (await observe(ex));
    const back = await ex.run(
      decision(
        { tool: 'tap', target_id: el(o, 'Bluetooth').id },
        { kind: 'element_state', target_id: el(o, 'Bluetooth').id, state: 'off' },
      ),
      o,
    );
    expect(back.ok).toBe(true);
    expect(back.receipt).toMatchObject({ backend: 'bridge', failover: false });
    expect(device.switches.map((s) => s.to)).toEqual(['adb', 'bridge']);
    expect(lines.some((l) => /back from adb to the helper/.test(l))).toBe(true);
  });
});
