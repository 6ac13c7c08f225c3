import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { runAgent } from '../../src/agent/loop.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { ActionableError } from '../../src/core/errors.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { startRig } from './support/agent-rig.js';

/**
 * The phone dies mid-run (its helper stops answering, no fallback): the run ends at once with an
 * actionable error naming the device, the checkpoint says `interrupted` with the reason, and a
 * resume once the phone is back finishes the task.
 */

let runsDir: string;
let model: ReferenceModel;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-dead-'));
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('a dead device', () => {
  it('stops the run with an actionable error and leaves a resumable folder', async () => {
    const rig = await startRig({ modelUrl: model.url });
    try {
      const first = await rig.agent({ confirm: () => 'approved' });
      let calls = 0;
      const deps = {
        ...first.deps,
        onEvent: (e: { kind: string; summary?: { step: number } }) => {
          if (e.kind === 'step' && e.summary?.step === 1) rig.phone.faults.helperDisconnected = true;
        },
      };
      const counted = {
        ...deps,
        planner: new Proxy(deps.planner, {
          get(t, k, r) {
            if (k === 'decide') calls++;
            return Reflect.get(t, k, r);
          },
        }),
      };
      const err = await runAgent(counted, { goal: 'Turn Wi-Fi off.', maxSteps: 12, runsDir, runId: 'dead' }).catch(
        (e: unknown) => e,
      );
      await first.close();
      expect(err).toBeInstanceOf(ActionableError);
      expect(String((err as Error).message)).toMatch(/bridge/);
      expect(String((err as Error).message)).toMatch(/resume/);
      // It did not go on deciding blind on a phone that does not answer.
      expect(calls).toBeLessThanOrEqual(2);
      const cp = JSON.parse(await readFile(path.join(runsDir, 'dead', 'checkpoint.json'), 'utf8'));
      expect(cp.status).toBe('interrupted');
      expect(cp.reason).toMatch(/bridge/);

      rig.phone.faults.helperDisconnected = false;
      const second = await rig.agent({ confirm: () => 'approved' });
      const resumed = await resumeAgent(second.deps, { runDir: path.join(runsDir, 'dead') });
      await second.close();
      expect(resumed.status).toBe('done');
      expect(rig.phone.world.settings.wifi).toBe(false);
    } finally {
      await rig.close();
    }
  });
});
