import { readFile } from 'node:fs/promises';
import { ActionableError } from '../src/core/errors.js';
import { DEFAULT_RUN_MODE } from '../src/core/run-mode.js';
import type { JudgedRun, RunRecord } from './metrics.js';
import { runKey } from './suite-progress.js';
import { type ReportHead, type SuiteReport, scoredReport } from './suite-runner.js';

/**
 * Slices of one suite run side by side (one relayed model each: a relay serves one request at a
 * time) as one report: their runs scored together, each task × seed once (a later slice's wins),
 * as if one suite had run them. `npm run suite -- --merge a/suite.json,b/suite.json --out DIR`.
 */

function modelName(r: SuiteReport): string {
  return r.model.kind === 'reference' ? `reference (noise ${r.model.noise})` : r.model.model;
}

export function mergeSuites(parts: readonly SuiteReport[]): SuiteReport {
  const [first] = parts;
  if (!first) throw new ActionableError('USAGE', '--merge needs at least one suite.json', 'pass --merge a,b');
  const models = [...new Set(parts.map(modelName))];
  const interrupts = [...new Set(parts.map((p) => p.interrupt ?? 'none'))];
  const modes = [...new Set(parts.map((p) => p.mode ?? DEFAULT_RUN_MODE))];
  if (models.length > 1 || interrupts.length > 1 || modes.length > 1)
    throw new ActionableError(
      'USAGE',
      `--merge got suites of ${models.join(', ')} (interrupts: ${interrupts.join(', ')}; modes: ${modes.join(', ')})`,
      'merge the slices of one model, one --interrupt and one --mode',
    );
  const runs = new Map<string, RunRecord>();
  for (const p of parts)
    for (const { verdict: _v, ...rec } of p.runs as JudgedRun[]) runs.set(runKey(rec.task, rec.seed), rec);
  const tasks = [...new Set(parts.flatMap((p) => p.tasks))];
  const records = [...runs.values()].sort((a, b) => tasks.indexOf(a.task) - tasks.indexOf(b.task) || a.seed - b.seed);
  const firstSeed = Math.min(...parts.map((p) => p.firstSeed ?? 1));
  const lastSeed = Math.max(...parts.map((p) => (p.firstSeed ?? 1) + p.seeds - 1));
  const urls = [...new Set(parts.flatMap((p) => (p.model.kind === 'llm' ? [p.model.baseURL] : [])))];
  const head: ReportHead = {
    date: new Date().toISOString(),
    model: first.model.kind === 'llm' ? { ...first.model, baseURL: urls.join(', ') } : first.model,
    seeds: lastSeed - firstSeed + 1,
    firstSeed,
    interrupt: first.interrupt,
    mode: modes[0],
    tasks,
    prices: first.prices,
    // Side by side: the merged suite took as long as its longest slice.
    wallSeconds: Math.max(...parts.map((p) => p.wallSeconds)),
    devices: parts.flatMap((p) => p.devices),
    retries: parts.flatMap((p) => p.retries),
    needsReset: [...new Map(parts.flatMap((p) => p.needsReset).map((n) => [n.task, n])).values()],
    resumedRuns: parts.reduce((a, p) => a + (p.resumedRuns ?? 0), 0),
    stopped: parts.find((p) => p.stopped)?.stopped ?? null,
  };
  return scoredReport(records, head);
}

export async function readSuites(files: readonly string[]): Promise<SuiteReport[]> {
  return Promise.all(
    files.map(async (f) => {
      try {
        return JSON.parse(await readFile(f, 'utf8')) as SuiteReport;
      } catch (e) {
        throw new ActionableError(
          'USAGE',
          `cannot read suite report ${f}: ${(e as Error).message}`,
          'pass the suite.json of each slice',
        );
      }
    }),
  );
}
