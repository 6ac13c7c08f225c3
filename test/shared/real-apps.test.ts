import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTaskGraph, stateNamed } from '../../regression-tasks/real-apps/graphs.js';
import { REAL_APP_TASKS } from '../../regression-tasks/real-apps/index.js';
import { runSuite } from '../../regression-tasks/suite-runner.js';
import { shortestPath } from '../../src/testbed/replay/graph.js';

/**
 * The real-app tasks on the recorded graphs in ../shared (read from there, never copied): each
 * names states that exist, its optimal step count is the shortest recorded path plus the final done,
 * and the suite (`--world replay`) runs them all with the reference model: every one succeeds, no
 * false done, off-graph actions at most 5 % of the inputs.
 */

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('real-app tasks', () => {
  it('3 to 6 tasks per graph, over all eight graphs', () => {
    const perGraph = new Map<string, number>();
    for (const t of REAL_APP_TASKS) {
      const g = t.replay?.graph ?? '';
      perGraph.set(g, (perGraph.get(g) ?? 0) + 1);
    }
    expect(perGraph.size).toBe(8);
    for (const [g, n] of perGraph) expect(n, g).toBeGreaterThanOrEqual(3);
    for (const [g, n] of perGraph) expect(n, g).toBeLessThanOrEqual(6);
  });

  it.each(REAL_APP_TASKS.map((t) => [t.id, t] as const))(
    '%s: start and end are recorded states; optimal steps = shortest recorded path + done',
    async (_id, task) => {
      const spec = task.replay;
      if (!spec) throw new Error('not a real-app task');
      const graph = await loadTaskGraph(spec.graph);
      const start = spec.start ? stateNamed(graph, spec.start) : graph.first;
      const ends = new Set(spec.end.map((e) => stateNamed(graph, e)));
      const path = shortestPath(graph, start, (s) => ends.has(s));
      expect(path, 'no recorded path to the end').toBeDefined();
      expect(task.optimalSteps).toBe((path?.length ?? 0) + 1);
    },
  );

  it('the suite runs them on the replay phone: all succeed with the reference model, off-graph ≤ 5 %', async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'real-apps-suite-'));
    dirs.push(outDir);
    const report = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks: REAL_APP_TASKS,
      catalogTasks: REAL_APP_TASKS,
      seeds: 1,
      outDir,
    });
    const failed = report.failures.map((f) => `${f.task}: ${f.reason}`);
    expect(failed).toEqual([]);
    expect(report.overall.successRate).toBe(1);
    expect(report.overall.falseDoneRate).toBe(0);
    const off = report.overall.offGraph;
    expect(off).not.toBeNull();
    expect(off?.actions).toBeGreaterThan(REAL_APP_TASKS.length);
    expect(off?.rate).toBeLessThanOrEqual(0.05);
    // The delete on A2DP Volume was held for a confirmation before it went out.
    const del = report.runs.find((r) => r.task === 'A2DP-02');
    expect(del?.confirmations.map((c) => c.summary)).toEqual([expect.stringMatching(/DELETE/)]);
  }, 600_000);
});
