import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger } from '../../src/core/logger.js';
import type { Device } from '../../src/device/device.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { el, makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/**
 * The pre-injection re-check on both transports of one phone: over the helper bridge it travels
 * with the touch (guarded_touch) and the phone refuses a replaced target; over plain ADB, which
 * touches blindly, the executor still reads the screen first and refuses it itself.
 */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig();
});
afterAll(async () => {
  await rig?.close();
});

function countReads(device: Device): { n: number } {
  const c = { n: 0 };
  const orig = device.snapshot.bind(device);
  device.snapshot = (...a) => {
    c.n++;
    return orig(...a);
  };
  return c;
}

describe('a target replaced after the client looked', () => {
  for (const backend of ['helper', 'adb'] as const)
    it(`${backend}: refused as STALE, nothing tapped (${backend === 'helper' ? 'checked on the phone, no read' : 're-checked by one read'})`, async () => {
      const device = rig[backend];
      const ex = makeExecutor(device, rig.clock);
      await rig.phone.launch('com.android.settings', '.BluetoothSettings');
      const seen = await observe(ex);
      const bt = el(seen, 'Use Bluetooth');
      // Meanwhile the phone shows Internet: the Wi-Fi switch stands where Bluetooth's was.
      await rig.phone.launch('com.android.settings', '.InternetSettings');
      const wifi = rig.phone.world.settings.wifi;
      const reads = countReads(device);
      expect(device.capabilities().ops.has('guarded_touch')).toBe(backend === 'helper');
      const r = await ex.run(
        { thought: 't', action: { tool: 'tap', target_id: bt.id }, expect: { kind: 'screen_changes' } },
        seen,
        { verification: 'none' },
      );
      expect(r.receipt.error?.code).toBe('STALE');
      expect(r.receipt.delivery).toBe('not_delivered');
      expect(reads.n).toBe(backend === 'helper' ? 0 : 1);
      expect(rig.phone.world.settings.wifi).toBe(wifi);
    });
});

describe('failover', () => {
  it('when the helper goes away mid-touch, the next touch on adb is re-checked by a read', async () => {
    const device = new FailoverDevice({
      primary: rig.helper,
      fallback: rig.adb,
      clock: rig.clock,
      logger: Logger.silent(),
    });
    const ex = makeExecutor(device, rig.clock);
    await rig.phone.launch('com.android.settings', '.InternetSettings');
    const seen = await observe(ex);
    const wifi = rig.phone.world.settings.wifi;
    rig.phone.faults.helperDisconnected = true;
    try {
      const r = await ex.run(
        { thought: 't', action: { tool: 'tap', target_id: el(seen, 'Wi-Fi').id }, expect: { kind: 'screen_changes' } },
        seen,
        { verification: 'none' },
      );
      // The helper reset the connection (it may have read the request): unknown, never replayed on adb.
      expect(r.receipt.delivery).not.toBe('delivered');
      expect(r.receipt.backend).toBe('bridge');
      expect(rig.phone.world.settings.wifi).toBe(wifi);
      // Now on adb: the next touch is re-checked by a read and goes through.
      expect(device.usingFallback).toBe(true);
      const again = await observe(ex);
      const ok = await ex.run(
        { thought: 't', action: { tool: 'tap', target_id: el(again, 'Wi-Fi').id }, expect: { kind: 'screen_changes' } },
        again,
        { verification: 'none' },
      );
      expect(ok.receipt).toMatchObject({ backend: 'adb', delivery: 'delivered' });
      expect(ok.reads).toBe(1);
      expect(rig.phone.world.settings.wifi).toBe(!wifi);
    } finally {
      rig.phone.faults.helperDisconnected = false;
    }
  });
});
