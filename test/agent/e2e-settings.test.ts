import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { SET_01 } from '../../regression-tasks/tasks/set-01.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

let model: ReferenceModel;
let runsDir: string;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-runs-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('agent loop end to end on the virtual phone', () => {
  it('turns Wi-Fi to the asked state through the bridge, with the reference model over HTTP', async () => {
    const memory = new PageMemory();
    for (const seed of [1, 2]) {
      const r = await runTask(SET_01, { seed, modelUrl: model.url, memory: new PageMemory(), runsDir });
      expect(r.check, JSON.stringify(r.run.stepLog, null, 1)).toEqual({ ok: true });
      expect(r.run.status).toBe('done');
      expect(r.run.llm.calls).toBeGreaterThanOrEqual(3);
    }
    // The run folder has a checkpoint and one JSON per step.
    const r = await runTask(SET_01, { seed: 3, modelUrl: model.url, memory, runsDir, screenshots: true });
    const files = await readdir(path.join(r.run.runDir, 'steps'));
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(r.run.steps);
    expect(files.some((f) => f.endsWith('.png'))).toBe(true);
    const cp = JSON.parse(await readFile(path.join(r.run.runDir, 'checkpoint.json'), 'utf8'));
    expect(cp).toMatchObject({ status: 'done', goal: r.goal });
    // A second run of the same task instance replays verified actions from page memory.
    const warm = await runTask(SET_01, { seed: 3, modelUrl: model.url, memory, runsDir });
    expect(warm.check.ok).toBe(true);
    expect(warm.run.cacheHits).toBeGreaterThan(0);
    expect(warm.run.llm.calls).toBeLessThan(r.run.llm.calls);
  });
});
