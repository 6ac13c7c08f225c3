import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { mergeSuites, readSuites } from '../../regression-tasks/suite-merge.js';
import { runSuite, type SuiteReport } from '../../regression-tasks/suite-runner.js';

/**
 * Slices of a suite run side by side (each on its own relayed model) merge into the report one
 * suite over all their tasks gives: the same runs, the same scores; slices of another model do not.
 */

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function suite(ids: string[], noise = 0): Promise<{ report: SuiteReport; file: string }> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'suite-merge-'));
  dirs.push(outDir);
  const report = await runSuite({
    model: { kind: 'reference', noise },
    tasks: TASKS.filter((t) => ids.includes(t.id)),
    catalogTasks: TASKS,
    seeds: 1,
    outDir,
  });
  return { report, file: path.join(outDir, 'suite.json') };
}

/** What a report scores, without the times that differ from run to run (in task order). */
function scores(r: SuiteReport) {
  return {
    tasks: [...r.tasks].sort(),
    runs: r.runs.map((x) => [x.task, x.seed, x.status, x.steps, x.verdict.ok]).sort(),
    success: r.overall.successRate,
    steps: r.overall.avgSteps,
    falseDone: r.overall.falseDoneRate,
    calls: r.overall.llmCallsPerTask,
    perTask: r.perTask.map((t) => [t.task, t.successRate, t.avgSteps]).sort(),
  };
}

describe('suite --merge', () => {
  it('two slices merge into what one suite over their tasks reports', { timeout: 180_000 }, async () => {
    const whole = await suite(['SET-01', 'MSG-01', 'SET-02']);
    const a = await suite(['SET-01', 'MSG-01']);
    const b = await suite(['SET-02']);
    const merged = mergeSuites(await readSuites([a.file, b.file]));
    expect(scores(merged)).toEqual(scores(whole.report));
    expect(merged.devices).toHaveLength(2);
    // A slice of another model is not part of this suite.
    const other = await suite(['SET-02'], 0.2);
    expect(() => mergeSuites([a.report, other.report])).toThrow(/one model/);
  });
});
