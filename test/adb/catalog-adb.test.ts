import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelSeed, runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import type { PoolDevice } from '../../src/compose/pool/pool-device.js';
import { simAdbDevice } from '../../src/compose/pool/sim-devices.js';
import { type PrivateAdbServer, startPrivateAdbServer } from '../../src/device/adb/server.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../../src/testbed/reference-model/server.js';

/**
 * The whole catalog over a plain adb serial (issue 21: ≥ 95%): each task's virtual phone is
 * exposed over its ADB transport only — no helper — and the agent is composed for `--device
 * SERIAL` exactly as `phone-agent run` does, with the reference model. What plain adb cannot do at
 * all is listed with its reason; any other failure fails this test.
 */

/** Tasks plain adb cannot do, and why (a new entry needs a reason a real phone shares). */
const ADB_CANNOT: Record<string, string> = {
  // `input` injects one pointer: no pinch, no multi-finger gesture (the map has no zoom buttons).
  'MAP-01': 'pinch needs two fingers',
};

let server: PrivateAdbServer;
let phone: PoolDevice;
let runsDir: string;
beforeAll(async () => {
  server = await startPrivateAdbServer();
  // The suite's own plain serial (`--devices sim-adb:1`): each task gets a fresh world on it.
  phone = await simAdbDevice(1, server);
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-catalog-adb-'));
});
afterAll(async () => {
  await phone?.close();
  await server?.kill();
  await rm(runsDir, { recursive: true, force: true });
});

describe('the catalog over a plain adb serial', () => {
  it('succeeds on ≥ 95% of the tasks, and fails only where adb itself cannot', async () => {
    const failed: { id: string; why: string }[] = [];
    for (const task of TASKS) {
      const model = await startReferenceModel({
        catalog: referenceCatalog(),
        noise: 0,
        seed: modelSeed(task.id, 1, 0),
        tokenizer: 'estimate',
      });
      try {
        const r = await runTask(task, {
          seed: 1,
          modelUrl: model.url,
          memory: new PageMemory(),
          runsDir,
          device: phone,
        });
        if (!r.check.ok) failed.push({ id: task.id, why: `${r.run.status} — ${r.check.reason ?? ''}` });
      } finally {
        await model.close();
      }
    }
    const rate = (TASKS.length - failed.length) / TASKS.length;
    const report = failed.map((f) => `${f.id}: ${f.why}`).join('\n');
    expect(
      failed.filter((f) => !(f.id in ADB_CANNOT)).map((f) => f.id),
      report,
    ).toEqual([]);
    expect(rate, report).toBeGreaterThanOrEqual(0.95);
  }, 900_000);
});
