import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { TASKS } from '../regression-tasks/index.js';
import { type RunRecord, scoreSuite } from '../regression-tasks/metrics.js';
import { runSuite, type SuiteReport } from '../regression-tasks/suite-runner.js';
import { type RunMode, TASK_MODES } from '../src/core/run-mode.js';

/**
 * `npm run bench:modes`: Flash and Pro side by side (issue 25) — the regression catalog on the
 * virtual phone with the reference model, 3 seeds, through the suite (the one path: the agent
 * `phone-agent run --mode` runs). Per mode: success, false done, LLM calls, prompt tokens and wall
 * time per task (p50/p95), hand-overs to Pro; per task, Flash's calls against Pro's. Writes
 * bench/results/modes.{json,md}. BENCH_SEEDS (default 3); BENCH_TASKS (ids) runs a subset and writes nothing.
 */

const SEEDS = Number(process.env.BENCH_SEEDS ?? 3);
const ONLY = process.env.BENCH_TASKS?.split(',').filter(Boolean);

interface ModeRow {
  mode: RunMode;
  runs: number;
  successRate: number;
  falseDoneRate: number;
  llmCallsPerTask: number;
  promptTokensPerTask: number;
  wallMsP50: number;
  wallMsP95: number;
  wallMsMean: number;
  /** CPU time of this process per run (agent, virtual phone and reference model all run here): not inflated by other work on the machine. */
  cpuMsPerTask: number;
  handovers: number;
  perTask: Record<string, { calls: number; success: number }>;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return 0;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
}

/** Hand-overs recorded in the runs' checkpoints. */
async function handovers(r: SuiteReport): Promise<number> {
  let n = 0;
  for (const row of r.perTask)
    for (const dir of row.runDirs) {
      const cp = JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8').catch(() => '{}'));
      if (cp.handover) n++;
    }
  return n;
}

interface Collected {
  records: RunRecord[];
  cpuMs: number;
  handovers: number;
  perTask: ModeRow['perTask'];
}

function summarize(mode: RunMode, c: Collected): ModeRow {
  const overall = scoreSuite(c.records).overall;
  const wall = c.records.map((x) => x.wallMs);
  return {
    mode,
    runs: overall.runs,
    successRate: overall.successRate,
    falseDoneRate: overall.falseDoneRate,
    llmCallsPerTask: overall.llmCallsPerTask,
    promptTokensPerTask: overall.promptTokensPerTask,
    wallMsP50: quantile(wall, 0.5),
    wallMsP95: quantile(wall, 0.95),
    wallMsMean: wall.reduce((a, b) => a + b, 0) / Math.max(1, wall.length),
    cpuMsPerTask: c.cpuMs / Math.max(1, c.records.length),
    handovers: c.handovers,
    perTask: c.perTask,
  };
}

/**
 * Task by task, Pro then Flash on the same seeds: a machine whose load drifts during the run
 * weighs on both modes alike (running one mode after the other gave the second one its drift).
 */
async function runModes(outDir: string): Promise<ModeRow[]> {
  const tasks = ONLY ? TASKS.filter((t) => ONLY.includes(t.id)) : TASKS;
  const modes: RunMode[] = ['pro', ...TASK_MODES.filter((m) => m !== 'pro')];
  const got = new Map<RunMode, Collected>(modes.map((m) => [m, { records: [], cpuMs: 0, handovers: 0, perTask: {} }]));
  for (const task of tasks)
    for (const mode of modes) {
      const c = got.get(mode) as Collected;
      const cpu0 = process.cpuUsage();
      const r = await runSuite({
        model: { kind: 'reference', noise: 0 },
        tasks: [task],
        catalogTasks: TASKS,
        seeds: SEEDS,
        outDir: path.join(outDir, mode, task.id),
        mode,
      });
      const cpu = process.cpuUsage(cpu0);
      c.cpuMs += (cpu.user + cpu.system) / 1000;
      c.records.push(...r.runs);
      c.handovers += await handovers(r);
      c.perTask[task.id] = {
        calls: r.runs.reduce((a, x) => a + x.llm.calls, 0) / Math.max(1, r.runs.length),
        success: r.overall.successRate,
      };
    }
  return modes.map((m) => summarize(m, got.get(m) as Collected));
}

/** Seconds one call of a capable hosted model takes, for the projection in the report (not measured here). */
const MODEL_S = 5;
const projected = (r: ModeRow) => (r.wallMsMean + r.llmCallsPerTask * MODEL_S * 1000) / 1000;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function markdown(rows: ModeRow[], machine: Record<string, string | number>, at: string): string {
  const pro = rows.find((r) => r.mode === 'pro') as ModeRow;
  const flash = rows.find((r) => r.mode === 'flash') as ModeRow;
  const ratio = (a: number, b: number) => (b ? pct(a / b) : 'n/a');
  const lines = [
    '# bench:modes — Flash vs Pro on the regression catalog (reference model)',
    '',
    `${Object.keys(pro.perTask).length} tasks × ${SEEDS} seeds per mode, noise 0, a fresh page memory per run (cold: no replay), ${at}.`,
    `Machine: ${machine.cpu} (${machine.cores} cores), load average ${machine.loadStart} at the start and ${machine.loadEnd} at the end (the machine is shared: wall times carry that), Node ${machine.node}. Wall time is real time per run (the virtual phone's own delays run on its virtual clock), model on loopback; CPU time is this process's (agent, virtual phone, reference model) per run, which other work on the machine does not inflate. The modes run task by task, Pro then Flash, so load drift weighs on both.`,
    '',
    '| mode | runs | success | false done | LLM calls / task | prompt tokens / task | wall ms / task p50 | p95 | CPU ms / task | hand-overs to Pro |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.runs} | ${pct(r.successRate)} | ${pct(r.falseDoneRate)} | ${r.llmCallsPerTask.toFixed(2)} | ${Math.round(r.promptTokensPerTask)} | ${Math.round(r.wallMsP50)} | ${Math.round(r.wallMsP95)} | ${Math.round(r.cpuMsPerTask)} | ${r.handovers} |`,
    ),
    '',
    `- Flash/Pro: LLM calls **${ratio(flash.llmCallsPerTask, pro.llmCallsPerTask)}** (target ≤ 50%), wall time p50 **${ratio(flash.wallMsP50, pro.wallMsP50)}**, mean ${ratio(flash.wallMsMean, pro.wallMsMean)} (target ≤ 60%), CPU time ${ratio(flash.cpuMsPerTask, pro.cpuMsPerTask)}, prompt tokens ${ratio(flash.promptTokensPerTask, pro.promptTokensPerTask)}; success ${pct(flash.successRate)} vs ${pct(pro.successRate)} (target within 2 points), false done ${pct(flash.falseDoneRate)} (target 0).`,
    `- The reference model answers on loopback at once, so wall time here is the agent's and the virtual phone's own work (and the machine's load), not the model's. With a model that takes ${MODEL_S} s a call (issue 25: a capable model, ≈ 6 calls, 30 s), a run would take about wall + calls × ${MODEL_S} s: Pro ${projected(pro).toFixed(1)} s, Flash ${projected(flash).toFixed(1)} s per task, **${ratio(projected(flash), projected(pro))}** — a projection from the counts above, not a measurement.`,
    '- Where Flash saves calls: no plan call (its first decision carries the plan), no closing `done` call when its plan is complete and the last action verified (the done gate judges the screen instead), and bursts (`action_sequence` of the next certain steps on one screen: fields, switches, then one tap). A page-changing tap ends a burst: what the next screen holds is not certain, so a task that walks through pages still pays one call per page.',
    '',
    '## Per task: LLM calls per run (mean over seeds)',
    '',
    '| task | Pro | Flash | Flash/Pro | Flash success |',
    '|---|---|---|---|---|',
    ...Object.entries(pro.perTask).map(([id, p]) => {
      const f = flash.perTask[id];
      return `| ${id} | ${p.calls.toFixed(1)} | ${f ? f.calls.toFixed(1) : '-'} | ${f ? ratio(f.calls, p.calls) : '-'} | ${f ? pct(f.success) : '-'} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-modes-'));
  const loadStart = os.loadavg()[0]?.toFixed(1) ?? '?';
  try {
    const rows = await runModes(dir);
    const machine = {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      node: process.version,
      loadStart,
      loadEnd: os.loadavg()[0]?.toFixed(1) ?? '?',
    };
    const at = new Date().toISOString();
    const md = markdown(rows, machine, at);
    process.stdout.write(md);
    // A subset (BENCH_TASKS) is for development: the committed results are of the whole catalog.
    if (ONLY) return;
    await writeFile('bench/results/modes.json', `${JSON.stringify({ at, seeds: SEEDS, machine, rows }, null, 2)}\n`);
    await writeFile('bench/results/modes.md', md);
    process.stdout.write('\nwrote bench/results/modes.json and modes.md\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
