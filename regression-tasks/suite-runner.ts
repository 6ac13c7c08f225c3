import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PoolEntry } from '../src/compose/pool/devices-arg.js';
import { type DevicePool, openPool, type PoolOptions } from '../src/compose/pool/pool.js';
import type { PoolDevice } from '../src/compose/pool/pool-device.js';
import { DEFAULT_RUN_MODE, type RunMode } from '../src/core/run-mode.js';
import type { LlmConfig } from '../src/planner/llm/config.js';
import { PageMemory } from '../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { instantiate, modelSeed, runTask, type TaskRunResult } from './harness.js';
import { referenceCatalog } from './index.js';
import type { Interruption } from './interruptions.js';
import {
  AMBIENT_KEYS,
  type JudgedRun,
  judgeRun,
  type Prices,
  type RunRecord,
  type SuiteMetrics,
  scoreSuite,
  taskMacro,
} from './metrics.js';
import { type DeviceUsage, type Heartbeat, type Job, PoolScheduler, type Retry } from './suite-pool.js';
import { Halt, keptRun, openRunLog, runKey } from './suite-progress.js';
import { renderSuiteMarkdown } from './suite-report.js';
import type { Params, TaskDef } from './types.js';

/**
 * Runs a set of regression tasks × seeds on a device pool (default one virtual phone; each run on a
 * fresh seeded world), against the reference model (one loopback server per run, seeded like
 * bench:loop so any run replays with run-one.ts) or a configured real model, scores them with
 * metrics.ts and writes one suite.json + suite.md, naming the device of every run.
 */

/** The reference model's `latencyMs` stands in for a hosted model's think time (server.ts). */
export type SuiteModel = { kind: 'reference'; noise: number; latencyMs?: number } | { kind: 'llm'; config: LlmConfig };

export interface SuiteOptions {
  model: SuiteModel;
  tasks: readonly TaskDef[];
  /** Seeds firstSeed..firstSeed+seeds-1. */
  seeds: number;
  /** The first seed run (default 1). */
  firstSeed?: number;
  outDir: string;
  prices?: Prices;
  /** The reference model's whole catalog (default: the tasks run). */
  catalogTasks?: readonly TaskDef[];
  /** Robustness flag: every run gets this interruption mid-task. */
  interrupt?: Interruption;
  /** Progress, one line per run start and end, each prefixed by its device. */
  progress?: (line: string) => void;
  /** The devices to run on (`--devices`; default `sim:1`), opened and closed by the suite… */
  devices?: readonly PoolEntry[];
  poolOptions?: PoolOptions;
  /** …or a pool the caller opened and closes. */
  pool?: DevicePool;
  /** How busy devices are probed (suite-pool.ts DEFAULT_HEARTBEAT). */
  heartbeat?: Heartbeat;
  /** Go on with the unfinished suite in outDir (suite-progress.ts). */
  resume?: boolean;
  /** How every run is driven (default pro). */
  mode?: RunMode;
  /**
   * The page memory a run starts with (default a fresh one: cold). bench:modes' warm column passes
   * the memory an earlier run of the same task and seed left, so replay is measured as it is used.
   */
  memoryFor?: (task: TaskDef, seed: number) => PageMemory;
  /** A knowledge store every run reads (`--knowledge`): the front app's lines each step. */
  knowledge?: string;
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
  firstSeed: number;
  /** The robustness flag the suite ran with. */
  interrupt: Interruption | null;
  /** How the runs were driven; a report from before modes ran Pro. */
  mode?: RunMode;
  tasks: string[];
  prices: Prices | null;
  wallSeconds: number;
  overall: SuiteMetrics;
  byCategory: Record<string, SuiteMetrics>;
  perTask: PerTaskRow[];
  /** Confirmation requests on tasks without a confirmation guard: logged, not failed. */
  overAsking: { task: string; seed: number; requests: string[] }[];
  failures: { task: string; seed: number; status: string; reason: string; device?: string }[];
  /** Every device of the pool: runs, busy time and share of the wall time, quarantine. */
  devices: DeviceUsage[];
  /** Runs whose device died under them, retried once on another. */
  retries: Retry[];
  /** On phones the suite cannot reset (no world of its own): the tasks whose result depends on that. */
  needsReset: { task: string; why: string }[];
  /** Runs kept from the unfinished suite this one resumed (`--resume`). */
  resumedRuns: number;
  /** Why the suite stopped before its last runs (the model stopped answering): resume it. */
  stopped: string | null;
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

/** A task run as the suite records it (credentials masked), for `judgeRun`. */
export function toRecord(task: TaskDef, r: TaskRunResult, wallMs: number): RunRecord {
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
    phoneMs: r.phoneMs,
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
    ...(r.verified ? {} : { verified: false }),
    ...(r.replay ? { replay: r.replay } : {}),
  };
}

async function runOne(job: Job, opts: SuiteOptions, runsDir: string, device: PoolDevice): Promise<RunRecord> {
  const { task, seed } = job;
  const t0 = performance.now();
  const common = {
    seed,
    memory: opts.memoryFor?.(task, seed) ?? new PageMemory(),
    runsDir,
    interrupt: opts.interrupt,
    device,
    mode: opts.mode,
    knowledgeStore: opts.knowledge,
  };
  if (opts.model.kind === 'llm') {
    const r = await runTask(task, { ...common, llmConfig: opts.model.config });
    return toRecord(task, r, performance.now() - t0);
  }
  const noise = opts.model.noise;
  const model = await startReferenceModel({
    catalog: referenceCatalog(opts.catalogTasks ?? opts.tasks),
    noise,
    seed: modelSeed(task.id, seed, noise),
    tokenizer: 'estimate',
    latencyMs: opts.model.latencyMs,
  });
  try {
    const r = await runTask(task, { ...common, modelUrl: model.url });
    return toRecord(task, r, performance.now() - t0);
  } finally {
    await model.close();
  }
}

/** A run that did not finish (it threw, or its device died): status `error`, counted as a failure. */
function errorRecord(task: TaskDef, seed: number, raw: string, wallMs: number): RunRecord {
  // The message may quote the goal, which carries the task's credentials.
  const message = redact(raw, secretsFor(task, seed)) ?? '';
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
    wallMs,
    llm: { calls: 0, promptTokens: 0, completionTokens: 0 },
    confirmations: [],
    events: [],
    changed: [],
    mayChange: task.mayChange,
    error: message,
  };
}

/**
 * A task that throws (its setup, the agent, its check) is one run with status `error` and its
 * message, counted as a failure: it never ends the suite before suite.json is written.
 */
async function runGuarded(
  job: Job,
  opts: SuiteOptions,
  at: { runsDir: string; device: PoolDevice; halt: Halt },
): Promise<RunRecord> {
  const t0 = performance.now();
  if (at.halt.reason)
    return errorRecord(job.task, job.seed, `not run: the model stopped answering (${at.halt.reason})`, 0);
  try {
    return await runOne(job, opts, at.runsDir, at.device);
  } catch (e) {
    at.halt.trip(e);
    return errorRecord(job.task, job.seed, e instanceof Error ? e.message : String(e), performance.now() - t0);
  }
}

/**
 * What a run's result depends on that only a reset could give back, on phones whose world the suite
 * does not own: the state a task's setup prepares, or the state it changes for the next run.
 */
function resetNeed(task: TaskDef): string | undefined {
  if (task.setup) return 'its setup prepares the phone first (the suite can do that only on its own virtual phones)';
  if (task.guard && task.guard !== 'SECRET') return 'it makes an irreversible change (a send, a payment, a deletion)';
  const changes = task.mayChange?.filter((k) => !AMBIENT_KEYS.has(k));
  if (changes?.length) return `it changes ${changes.join(', ')}, which the next run then starts from`;
  return undefined;
}

function judgedLine(rec: RunRecord): string {
  const v = judgeRun(rec);
  return `${rec.status} ${v.ok ? 'ok' : 'FAIL'}${rec.verified === false ? ' (unverified)' : ''} (${rec.error ? `threw: ${rec.error}` : `${rec.steps} steps`})${v.overAsk ? ` over-asking: ${rec.confirmations.map((c) => c.summary).join('; ')}` : ''}`;
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

/** What a report says besides its scores: how, where and when the suite ran. */
export type ReportHead = Omit<SuiteReport, 'overall' | 'byCategory' | 'perTask' | 'overAsking' | 'failures' | 'runs'>;

/** The report of these runs: scored (metrics.ts), per task, what over-asked and what failed. */
export function scoredReport(records: readonly RunRecord[], head: ReportHead): SuiteReport {
  const scores = scoreSuite(records, head.prices ?? undefined);
  return {
    ...head,
    overall: scores.overall,
    byCategory: scores.byCategory,
    perTask: perTaskRows(scores.runs),
    overAsking: scores.runs
      .filter((r) => r.verdict.overAsk)
      .map((r) => ({ task: r.task, seed: r.seed, requests: r.confirmations.map((c) => c.summary ?? '?') })),
    failures: scores.runs
      .filter((r) => !r.verdict.ok)
      .map((r) => ({ task: r.task, seed: r.seed, status: r.status, reason: failureReason(r), device: r.device })),
    runs: scores.runs,
  };
}

export async function writeSuiteReport(report: SuiteReport, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'suite.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(outDir, 'suite.md'), renderSuiteMarkdown(report, outDir));
}

export async function runSuite(opts: SuiteOptions): Promise<SuiteReport> {
  const t0 = performance.now();
  const runsDir = path.join(opts.outDir, 'runs');
  await mkdir(runsDir, { recursive: true });
  const log = await openRunLog(opts.outDir, {
    model: opts.model,
    interrupt: opts.interrupt,
    mode: opts.mode,
    resume: opts.resume === true,
  });
  const all = opts.tasks.flatMap((task) =>
    Array.from({ length: opts.seeds }, (_, s) => ({ task, seed: s + (opts.firstSeed ?? 1) })),
  );
  const kept = (j: { task: TaskDef; seed: number }) => keptRun(log.get(runKey(j.task.id, j.seed)));
  if (log.resumed) opts.progress?.(`resuming: ${all.filter(kept).length} run(s) already finished in ${log.file}`);
  const halt = new Halt();
  const pool = opts.pool ?? (await openPool(opts.devices ?? [{ kind: 'sim', count: 1 }], opts.poolOptions));
  let outcome: Awaited<ReturnType<PoolScheduler['run']>>;
  try {
    const jobs: Job[] = all.filter((j) => !kept(j)).map((j, index) => ({ index, ...j }));
    if (pool.devices.length > 1)
      opts.progress?.(`pool: ${pool.devices.map((d) => d.id).join(', ')} — ${jobs.length} runs handed out in order`);
    outcome = await new PoolScheduler(pool, jobs, {
      run: async (job, device) => {
        const rec = await runGuarded(job, opts, { runsDir, device, halt });
        await log.append(rec);
        return rec;
      },
      lost: (job, reason, wallMs) => errorRecord(job.task, job.seed, reason, wallMs),
      describe: judgedLine,
      progress: opts.progress,
      heartbeat: opts.heartbeat,
      command: `phone-agent suite ${path.basename(opts.outDir)}`,
    }).run();
  } finally {
    if (!opts.pool) await pool.close();
  }
  const fresh = new Map(outcome.records.map((r) => [runKey(r.task, r.seed), r]));
  // In the suite's order, from this session or the one it resumed.
  const records = all.flatMap((j) => fresh.get(runKey(j.task.id, j.seed)) ?? kept(j) ?? []);
  const report = scoredReport(records, {
    date: new Date().toISOString(),
    model:
      opts.model.kind === 'reference'
        ? { kind: 'reference', noise: opts.model.noise }
        : { kind: 'llm', model: opts.model.config.model, baseURL: opts.model.config.baseURL },
    seeds: opts.seeds,
    firstSeed: opts.firstSeed ?? 1,
    interrupt: opts.interrupt ?? null,
    mode: opts.mode ?? DEFAULT_RUN_MODE,
    tasks: opts.tasks.map((t) => t.id),
    prices: opts.prices ?? null,
    wallSeconds: (performance.now() - t0) / 1000,
    devices: outcome.devices,
    retries: outcome.retries,
    needsReset: outcome.devices.some((d) => !d.ownsWorld)
      ? opts.tasks.flatMap((t) => {
          const why = resetNeed(t);
          return why ? [{ task: t.id, why }] : [];
        })
      : [],
    resumedRuns: records.length - fresh.size,
    stopped: halt.reason ?? null,
  });
  await writeSuiteReport(report, opts.outDir);
  // Kept while the suite is unfinished: `--resume` goes on from it.
  if (!halt.reason) await log.remove();
  return report;
}
