import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

let model: ReferenceModel;
let runsDir: string;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-tasks-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('every regression task passes its world-state check with the noiseless reference model', () => {
  it.each(TASKS.map((t) => [t.id, t] as const))('%s', async (_id, task) => {
    const r = await runTask(task, { seed: 2, modelUrl: model.url, memory: new PageMemory(), runsDir });
    const trace = r.run.stepLog.map((s) => `${s.step} ${s.action} ${s.ok ? 'ok' : 'FAIL'} ${s.note ?? ''}`).join('\n');
    expect(r.check, `${r.goal}\n${trace}`).toEqual({ ok: true });
    expect(r.run.steps).toBeLessThanOrEqual(2 * task.optimalSteps + 5);
  });
});
