import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { modelSeed, runTask, type TaskRunResult } from '../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../regression-tasks/index.js';
import { mean, median, taskMacro } from '../regression-tasks/metrics.js';
import { PageMemory } from '../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { journalCost } from './journal-cost.js';

/**
 * `npm run bench:loop`: the whole loop (virtual phone → bridge → perception → planner → reference
 * model over HTTP → executor → validator) on every regression task, measuring
 * - success and false-done rates with the reference model at noise 0 / 0.1 / 0.2 / 0.3;
 * - LLM calls per task cold vs warm (second run with the page memory of the first);
 * - median prompt tokens per LLM call (o200k tokenizer, tool schema included);
 * - median agent overhead per step (real time minus model and device time).
 * Writes bench/results/loop.json and bench/results/loop.md.
 */

const SEEDS = Number(process.env.BENCH_SEEDS ?? 3);
const NOISE = [0, 0.1, 0.2, 0.3];

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

interface NoiseRow {
  noise: number;
  runs: number;
  successRate: number;
  falseDoneRate: number;
  meanSteps: number;
  llmCallsPerTask: number;
  reasksPerTask: number;
  noiseInjected: Record<string, number>;
  statuses: Record<string, number>;
  failures: { task: string; seed: number; status: string; reason?: string }[];
}

async function main(): Promise<void> {
  const runsDir = await mkdtemp(path.join(tmpdir(), 'bench-loop-'));
  const catalog = referenceCatalog();
  const rows: NoiseRow[] = [];
  const tokensPerCall: number[] = [];
  const overheadPerStep: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const warmOk: boolean[] = [];
  const t0 = performance.now();

  for (const noise of NOISE) {
    const results: TaskRunResult[] = [];
    const injected: Record<string, number> = {};
    for (const task of TASKS) {
      const perTask: TaskRunResult[] = [];
      for (let seed = 1; seed <= SEEDS; seed++) {
        // One model per run, seeded by (task, seed, noise): `tsx regression-tasks/run-one.ts ID SEED NOISE` replays it.
        const model = await startReferenceModel({
          catalog,
          noise,
          seed: modelSeed(task.id, seed, noise),
          tokenizer: noise === 0 ? 'o200k' : 'estimate',
        });
        const memory = new PageMemory();
        const r = await runTask(task, { seed, modelUrl: model.url, memory, runsDir });
        perTask.push(r);
        if (noise === 0) {
          cold.push(r.run.llm.calls);
          for (const s of r.run.stepLog) {
            overheadPerStep.push(s.timings.overheadMs);
            if (s.llm.calls > 0) tokensPerCall.push(s.llm.promptTokens / s.llm.calls);
          }
          const w = await runTask(task, { seed, modelUrl: model.url, memory, runsDir });
          warm.push(w.run.llm.calls);
          warmOk.push(w.check.ok);
        }
        for (const [k, v] of Object.entries(model.stats().noise)) injected[k] = (injected[k] ?? 0) + (v ?? 0);
        await model.close();
      }
      results.push(...perTask);
    }
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.run.status] = (statuses[r.run.status] ?? 0) + 1;
    rows.push({
      noise,
      runs: results.length,
      // Mean over seeds per task, then over tasks (the suite's rule).
      successRate:
        taskMacro(
          results,
          (r) => r.task,
          (r) => (r.check.ok ? 1 : 0),
        ) ?? 0,
      falseDoneRate: mean(results.map((r) => (r.falseDone ? 1 : 0))),
      meanSteps: mean(results.map((r) => r.run.steps)),
      llmCallsPerTask: mean(results.map((r) => r.run.llm.calls)),
      reasksPerTask: mean(results.map((r) => r.run.llm.reasks)),
      noiseInjected: injected,
      statuses,
      failures: results
        .filter((r) => !r.check.ok)
        .map((r) => ({ task: r.task, seed: r.seed, status: r.run.status, reason: r.check.reason ?? r.run.reason })),
    });
    process.stdout.write(`noise ${noise}: success ${pct(rows[rows.length - 1]?.successRate ?? 0)}\n`);
  }
  const journal = await journalCost(runsDir);
  await rm(runsDir, { recursive: true, force: true });

  const result = {
    date: new Date().toISOString(),
    tasks: TASKS.map((t) => t.id),
    seeds: SEEDS,
    noise: rows,
    memory: {
      coldCallsPerTask: mean(cold),
      warmCallsPerTask: mean(warm),
      warmOverCold: mean(warm) / Math.max(1e-9, mean(cold)),
      warmSuccessRate: mean(warmOk.map((x) => (x ? 1 : 0))),
    },
    medianPromptTokensPerCall: median(tokensPerCall),
    medianOverheadMsPerStep: median(overheadPerStep),
    journal,
    wallSeconds: (performance.now() - t0) / 1000,
    targets: { successAt02: 0.95, warmOverCold: 0.6, promptTokens: 1000 },
  };
  const at02 = rows.find((r) => r.noise === 0.2);
  const md = [
    '# bench:loop — the agent loop on the regression tasks with the reference model',
    '',
    `${TASKS.length} tasks × ${SEEDS} seeds per noise level (${result.date}). Full loop: virtual phone → bridge HTTP → perception → planner → reference model over HTTP → executor → validator; success = the task's world-state check.`,
    '',
    '| noise | runs | success | false done | mean steps | LLM calls / task | re-asks / task | statuses | noise injected |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.noise} | ${r.runs} | ${pct(r.successRate)} | ${pct(r.falseDoneRate)} | ${r.meanSteps.toFixed(1)} | ${r.llmCallsPerTask.toFixed(1)} | ${r.reasksPerTask.toFixed(1)} | ${Object.entries(
          r.statuses,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} | ${Object.entries(r.noiseInjected)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
    ),
    '',
    `- Success at noise 0.2: **${pct(at02?.successRate ?? 0)}** (target ≥ 95%).`,
    `- LLM calls per task, cold ${result.memory.coldCallsPerTask.toFixed(2)} → warm ${result.memory.warmCallsPerTask.toFixed(2)} with page memory: **${pct(result.memory.warmOverCold)}** of cold (target ≤ 60%); warm runs still pass their checks: ${pct(result.memory.warmSuccessRate)}.`,
    `- Median prompt tokens per LLM call (o200k, incl. the tool schema): **${result.medianPromptTokensPerCall.toFixed(0)}** (target ≤ 1000).`,
    `- Median agent overhead per step, excluding model and device time: **${result.medianOverheadMsPerStep.toFixed(1)} ms** (device time here = bridge snapshot + perception + dispatch; the step's archive write is not counted).`,
    journal
      ? `- The action journal (one entry per dispatched action, appended and fdatasync'd before dispatch; counted in device time above): ${journal.entries} entries, median **${(journal.medianBytes / 1024).toFixed(1)} KB**; one append alone, ${os.tmpdir()}: median **${journal.medianMs.toFixed(2)} ms**, p95 ${journal.p95Ms.toFixed(2)} ms.`
      : '- The action journal: no run wrote one.',
    `- Wall time of the benchmark: ${result.wallSeconds.toFixed(0)} s.`,
    '',
    '## Failures under noise',
    '',
    'Replay one: `npx tsx regression-tasks/run-one.ts TASK SEED NOISE` (same model seed as here).',
    '',
    ...rows.flatMap((r) =>
      r.failures.length
        ? [
            `- noise ${r.noise}: ${r.failures.map((f) => `${f.task}#${f.seed} (${f.status}: ${f.reason ?? '?'})`).join('; ')}`,
          ]
        : [],
    ),
    '',
  ].join('\n');
  const dir = path.resolve('bench/results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'loop.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(dir, 'loop.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
