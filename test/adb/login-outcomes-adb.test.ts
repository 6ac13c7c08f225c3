import { afterEach, describe, it } from 'vitest';
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
    await loginScenario(rig.failover(), rig.phone, rig.clock);
  });
});
