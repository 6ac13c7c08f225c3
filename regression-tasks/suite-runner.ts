import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LlmConfig } from '../src/planner/llm/config.js';
import { PageMemory } from '../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { instantiate, modelSeed, runTask, type TaskRunResult } from './harness.js';
import { referenceCatalog } from './index.js';
import type { Interruption } from './interruptions.js';
import {
  type JudgedRun,
  judgeRun,
  type Prices,
  type RunRecord,
  type SuiteMetrics,
  scoreSuite,
  taskMacro,
} from './metrics.js';
import { renderSuiteMarkdown } from './suite-report.js';
import type { Params, TaskDef } from './types.js';

/**
 * Runs a set of regression tasks × seeds, each on a fresh seeded virtual phone, against the
 * reference model (one loopback server per run, seeded like bench:loop so any run replays with
 * run-one.ts) or a configured real model, scores them with metrics.ts and writes suite.json +
 * suite.md.
 */

export type SuiteModel = { kind: 'reference'; noise: number } | { kind: 'llm'; config: LlmConfig };

export interface SuiteOptions {
  model: SuiteModel;
  tasks: readonly TaskDef[];
  /** Seeds 1..seeds. */
  seeds: number;
  outDir: string;
  prices?: Prices;
  /** The reference model's whole catalog (default: the tasks run). */
  catalogTasks?: readonly TaskDef[];
  /** Robustness flag: every run gets this interruption mid-task. */
  interrupt?: Interruption;
  /** Progress, one line per run. */
  progress?: (line: string) => void;
}

export interface PerTaskRow {
  task: string;
  /** The instruction as the runs got it (the first seed's, credentials masked). */
  goal: string;
  /** Each run's folder, by seed. */
  runDirs: string[];
  category: string;
  runs: number;
  successRate: number;
  subgoalScore: number;
  avgSteps: number;
  optimalSteps: number;
  statuses: Record<string, number>;
}

export interface SuiteReport {
  date: string;
  model: { kind: 'reference'; noise: number } | { kind: 'llm'; model: string; baseURL: string };
  seeds: number;
  /** The robustness flag the suite ran with. */
  interrupt: Interruption | null;
  tasks: string[];
  prices: Prices | null;
  wallSeconds: number;
  overall: SuiteMetrics;
  byCategory: Record<string, SuiteMetrics>;
  perTask: PerTaskRow[];
  /** Confirmation requests on tasks without a confirmation guard: logged, not failed. */
  overAsking: { task: string; seed: number; requests: string[] }[];
  failures: { task: string; seed: number; status: string; reason: string }[];
  runs: JudgedRun[];
}

const SECRET_PARAM = /^(pw|pass|password|passcode|pin|secret|token|otp|key)$/i;

/** Credentials from secret parameters never reach the report (the goal text carries them). */
function redact(text: string | undefined, secrets: readonly string[]): string | undefined {
  if (text === undefined) return undefined;
  let out = text;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join('***');
  return out;
}

function secretsOf(params: Params): string[] {
  return Object.entries(params)
    .filter(([k]) => SECRET_PARAM.test(k))
    .map(([, v]) => v);
}

/** The secrets of one task instance; none when its parameters cannot even be drawn. */
function secretsFor(task: TaskDef, seed: number): string[] {
  try {
    return secretsOf(instantiate(task, seed).params);
  } catch {
    return [];
  }
}

function toRecord(task: TaskDef, r: TaskRunResult, wallMs: number): RunRecord {
  const secrets = secretsOf(r.params);
  return {
    task: task.id,
    category: task.category,
    seed: r.seed,
    guard: task.guard,
    deny: task.confirm === 'deny' || task.tags.includes('deny'),
    optimalSteps: task.optimalSteps,
    status: r.run.status,
    answer: redact(r.run.answer, secrets),
    reason: redact(r.run.reason, secrets),
    check: { ok: r.taskCheck.ok, score: r.taskCheck.score, reason: redact(r.taskCheck.reason, secrets) },
    steps: r.run.steps,
    wallMs,
    llm: {
      calls: r.run.llm.calls,
      promptTokens: r.run.llm.promptTokens,
      completionTokens: r.run.llm.completionTokens,
      promptTokensPerCall: r.run.llm.promptTokensPerCall ?? [],
    },
    confirmations: r.confirmations.map((c) => ({ ...c, summary: redact(c.summary, secrets) })),
    events: r.events,
    changed: r.changed,
    mayChange: task.mayChange,
    runDir: r.run.runDir,
    goal: redact(r.goal, secrets),
  };
}

async function runOne(task: TaskDef, seed: number, opts: SuiteOptions, runsDir: string): Promise<RunRecord> {
  const t0 = performance.now();
  if (opts.model.kind === 'llm') {
    const r = await runTask(task, {
      seed,
      llmConfig: opts.model.config,
      memory: new PageMemory(),
      runsDir,
      interrupt: opts.interrupt,
    });
    return toRecord(task, r, performance.now() - t0);
  }
  const noise = opts.model.noise;
  const model = await startReferenceModel({
    catalog: referenceCatalog(opts.catalogTasks ?? opts.tasks),
    noise,
    seed: modelSeed(task.id, seed, noise),
    tokenizer: 'estimate',
  });
  try {
    const r = await runTask(task, {
      seed,
      modelUrl: model.url,
      memory: new PageMemory(),
      runsDir,
      interrupt: opts.interrupt,
    });
    return toRecord(task, r, performance.now() - t0);
  } finally {
    await model.close();
  }
}

/**
 * A task that throws (its setup, the agent, its check) is one run with status `error` and its
 * message, counted as a failure: it never ends the suite before suite.json is written.
 */
async function runGuarded(task: TaskDef, seed: number, opts: SuiteOptions, runsDir: string): Promise<RunRecord> {
  const t0 = performance.now();
  try {
    return await runOne(task, seed, opts, runsDir);
  } catch (e) {
    // The message may quote the goal, which carries the task's credentials.
    const message = redact(e instanceof Error ? e.message : String(e), secretsFor(task, seed)) ?? '';
    return {
      task: task.id,
      category: task.category,
      seed,
      guard: task.guard,
      deny: task.confirm === 'deny' || task.tags.includes('deny'),
      optimalSteps: task.optimalSteps,
      status: 'error',
      reason: message,
      check: { ok: false, reason: `the run threw: ${message}` },
      steps: 0,
      wallMs: performance.now() - t0,
      llm: { calls: 0, promptTokens: 0, completionTokens: 0 },
      confirmations: [],
      events: [],
      changed: [],
      mayChange: task.mayChange,
      error: message,
    };
  }
}

function perTaskRows(runs: readonly JudgedRun[]): PerTaskRow[] {
  const ids = [...new Set(runs.map((r) => r.task))];
  return ids.map((id) => {
    const rs = runs.filter((r) => r.task === id);
    const statuses: Record<string, number> = {};
    for (const r of rs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const m = (f: (r: JudgedRun) => number) => taskMacro(rs, (r) => r.task, f) ?? 0;
    return {
      task: id,
      goal: rs[0]?.goal ?? '',
      runDirs: rs.flatMap((r) => (r.runDir ? [r.runDir] : [])),
      category: rs[0]?.category ?? '',
      runs: rs.length,
      successRate: m((r) => (r.verdict.ok ? 1 : 0)),
      subgoalScore: m((r) => r.verdict.score),
      avgSteps: m((r) => r.steps),
      optimalSteps: rs[0]?.optimalSteps ?? 0,
      statuses,
    };
  });
}

function failureReason(r: JudgedRun): string {
  const inv = r.verdict.invariants;
  return (
    [inv.guardOrder, inv.events, inv.stateDiff].find((i) => !i.ok)?.reason ??
    r.check.reason ??
    r.reason ??
    `status ${r.status}`
  );
}

export async function runSuite(opts: SuiteOptions): Promise<SuiteReport> {
  const t0 = performance.now();
  const runsDir = path.join(opts.outDir, 'runs');
  await mkdir(runsDir, { recursive: true });
  const records: RunRecord[] = [];
  for (const task of opts.tasks)
    for (let seed = 1; seed <= opts.seeds; seed++) {
      const rec = await runGuarded(task, seed, opts, runsDir);
      records.push(rec);
      const v = judgeRun(rec);
      opts.progress?.(
        `${task.id}#${seed}: ${rec.status} ${v.ok ? 'ok' : 'FAIL'} (${rec.error ? `threw: ${rec.error}` : `${rec.steps} steps`})${v.overAsk ? ` over-asking: ${rec.confirmations.map((c) => c.summary).join('; ')}` : ''}`,
      );
    }
  const scores = scoreSuite(records, opts.prices);
  const report: SuiteReport = {
    date: new Date().toISOString(),
    model:
      opts.model.kind === 'reference'
        ? { kind: 'reference', noise: opts.model.noise }
        : { kind: 'llm', model: opts.model.config.model, baseURL: opts.model.config.baseURL },
    seeds: opts.seeds,
    interrupt: opts.interrupt ?? null,
    tasks: opts.tasks.map((t) => t.id),
    prices: opts.prices ?? null,
    wallSeconds: (performance.now() - t0) / 1000,
    overall: scores.overall,
    byCategory: scores.byCategory,
    perTask: perTaskRows(scores.runs),
    overAsking: scores.runs
      .filter((r) => r.verdict.overAsk)
      .map((r) => ({ task: r.task, seed: r.seed, requests: r.confirmations.map((c) => c.summary ?? '?') })),
    failures: scores.runs
      .filter((r) => !r.verdict.ok)
      .map((r) => ({ task: r.task, seed: r.seed, status: r.status, reason: failureReason(r) })),
    runs: scores.runs,
  };
  await mkdir(opts.outDir, { recursive: true });
  await writeFile(path.join(opts.outDir, 'suite.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(opts.outDir, 'suite.md'), renderSuiteMarkdown(report, opts.outDir));
  return report;
}
