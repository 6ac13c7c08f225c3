import { describe, it } from 'vitest';
import { GUARD_SCENARIOS } from './guard-scenarios.js';
import { bridgeRig } from './helpers.js';

/** The guarded categories (and their deny paths) through the helper bridge. */
describe('guardrails on the virtual phone (bridge)', () => {
  for (const [name, run] of GUARD_SCENARIOS)
    it(name, async () => {
      const rig = await bridgeRig();
      try {
        await run(rig);
      } finally {
        await rig.close();
      }
    });
});
