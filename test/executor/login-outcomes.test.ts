import { afterEach, describe, it } from 'vitest';
import { bridgeRig } from './helpers.js';
import { loginScenario } from './login-scenario.js';

/** Over the helper bridge; test/adb/login-outcomes-adb.test.ts runs the same over ADB and failover. */
let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('the Acme login over the bridge', () => {
  it('judges a password field filled/empty by its count, and a failed login as the same page', async () => {
    rig = await bridgeRig({ seed: 7 });
    await loginScenario(rig.device, rig.phone, rig.clock);
  });
});
