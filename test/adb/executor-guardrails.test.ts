import { describe, it } from 'vitest';
import { GUARD_SCENARIOS } from '../executor/guard-scenarios.js';
import { dualRig } from './executor-rig.js';

/** The guarded categories (and their deny paths) through the ADB backend and a real adb server. */
describe('guardrails on the virtual phone (adb)', () => {
  for (const [name, run] of GUARD_SCENARIOS)
    it(name, async () => {
      const rig = await dualRig({ agentIme: true });
      try {
        await run({ device: rig.adb, clock: rig.clock, phone: rig.phone });
      } finally {
        await rig.close();
      }
    });
});
