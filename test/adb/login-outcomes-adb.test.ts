import { afterEach, describe, it } from 'vitest';
import { Logger } from '../../src/core/logger.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { loginScenario } from '../executor/login-scenario.js';
import { dualRig } from './executor-rig.js';

/** The Acme login of test/executor/login-outcomes.test.ts over ADB alone, and over failover. */
let rig: Awaited<ReturnType<typeof dualRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('the Acme login over ADB and failover', () => {
  it('over ADB (uiautomator reads): filled by count, a failed login is the same page', async () => {
    rig = await dualRig({ seed: 7 });
    await loginScenario(rig.adb, rig.phone, rig.clock);
  });

  it('over failover with the helper gone: the same judgements on the fallback', async () => {
    rig = await dualRig({ seed: 7 });
    rig.phone.faults.helperDisconnected = true;
    const device = new FailoverDevice({
      primary: rig.helper,
      fallback: rig.adb,
      clock: rig.clock,
      logger: Logger.silent(),
      probeEveryMs: 1_000,
    });
    await loginScenario(device, rig.phone, rig.clock);
  });
});
