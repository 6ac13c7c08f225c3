import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { RUNS_LOG } from '../../regression-tasks/suite-progress.js';
import { runSuite, type SuiteOptions } from '../../regression-tasks/suite-runner.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { type ModelGateway, startModelGateway } from '../testbed/model-gateway.js';

/**
 * A suite on a model that stops answering (a relayed player gone, a provider down): the run it
 * failed is an error, the runs after it are not started, suite.json says the suite is unfinished,
 * and every finished run is in runs.jsonl; `resume` then runs only what is missing and scores all of
 * it as one suite. The model is the reference model over real HTTP, behind a loopback gateway that
 * can be switched to answer 503 (the provider outside the project).
 */

const IDS = ['SET-01', 'MSG-01', 'SET-02'];
const dirs: string[] = [];
let model: ReferenceModel;
let gateway: ModelGateway;

beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(TASKS), noise: 0, seed: 1 });
  gateway = await startModelGateway(model.url);
});
afterAll(async () => {
  await gateway?.close();
  await model?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('a suite whose model stops answering', () => {
  it('stops, keeps what finished, and goes on with resume', { timeout: 180_000 }, async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'suite-resume-'));
    dirs.push(outDir);
    const tasks = IDS.map((id) => TASKS.find((t) => t.id === id)).filter((t) => t !== undefined);
    const opts: SuiteOptions = {
      model: { kind: 'llm', config: resolveLlmConfig({ baseUrl: gateway.url, model: 'reference' }, {}) },
      tasks,
      catalogTasks: TASKS,
      seeds: 1,
      outDir,
      // The model goes away as soon as the first run has ended.
      progress: (line) => {
        if (line.includes('SET-01#1:')) gateway.down = true;
      },
    };
    const first = await runSuite(opts);
    expect(first.stopped).toMatch(/HTTP 503/);
    expect(first.runs.map((r) => [r.task, r.status])).toEqual([
      ['SET-01', 'done'],
      ['MSG-01', 'error'],
      ['SET-02', 'error'],
    ]);
    expect(first.runs[2]?.error).toMatch(/^not run: the model stopped answering/);
    const md = await readFile(path.join(outDir, 'suite.md'), 'utf8');
    expect(md).toMatch(/Unfinished: the model stopped answering/);
    const logged = (await readFile(path.join(outDir, RUNS_LOG), 'utf8')).trim().split('\n');
    expect(logged).toHaveLength(1 + 3);

    // The same command again, without --resume, refuses to overwrite the unfinished suite.
    await expect(runSuite(opts)).rejects.toThrow(/unfinished run.*--resume/s);

    gateway.down = false;
    const before = gateway.calls;
    const second = await runSuite({ ...opts, progress: undefined, resume: true });
    expect(second.stopped).toBeNull();
    expect(second.resumedRuns).toBe(1);
    expect(second.runs.map((r) => [r.task, r.status])).toEqual([
      ['SET-01', 'done'],
      ['MSG-01', 'done'],
      ['SET-02', 'done'],
    ]);
    expect(second.overall.runs).toBe(3);
    // SET-01 was not asked again: only the two missing runs called the model.
    const asked = second.runs.slice(1).reduce((a, r) => a + r.llm.calls, 0);
    expect(gateway.calls - before).toBe(asked);
    // Finished: nothing left to resume.
    await expect(stat(path.join(outDir, RUNS_LOG))).rejects.toThrow(/ENOENT/);
  });
});
