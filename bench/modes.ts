import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { TASKS } from '../regression-tasks/index.js';
import { type RunRecord, scoreSuite } from '../regression-tasks/metrics.js';
import { runSuite, type SuiteReport } from '../regression-tasks/suite-runner.js';
import type { TaskDef } from '../regression-tasks/types.js';
import { type RunMode, TASK_MODES } from '../src/core/run-mode.js';
import { PageMemory } from '../src/planner/memory/page-memory.js';

/**
 * `npm run bench:modes`: Flash and Pro side by side (issue 25) — the regression catalog on the
 * virtual phone with the reference model, 3 seeds, through the suite (the one path: the agent
 * `phone-agent run --mode` runs). Per mode: success, false done, LLM calls, prompt tokens and wall
 * time per task (p50/p95), hand-overs to Pro; per task, Flash's calls against Pro's. Each mode runs
 * cold (a fresh page memory) and warm (the same task and seed again, with the page memory its cold
 * run left: Flash is for familiar tasks, issue 25's "page-memory replay first"). Writes
 * bench/results/modes.{json,md}. BENCH_SEEDS (default 3); BENCH_TASKS (ids) runs a subset and writes
 * nothing; `--model-latency-ms N` (or BENCH_MODEL_LATENCY_MS) makes the reference model sleep N ms
 * before every answer, a stand-in for a hosted model's think time, so wall time carries model time.
 */

const SEEDS = Number(process.env.BENCH_SEEDS ?? 3);
const ONLY = process.env.BENCH_TASKS?.split(',').filter(Boolean);
const latencyArg = process.argv.indexOf('--model-latency-ms');
const LATENCY_MS = Number((latencyArg >= 0 ? process.argv[latencyArg + 1] : process.env.BENCH_MODEL_LATENCY_MS) ?? 0);
if (!Number.isFinite(LATENCY_MS) || LATENCY_MS < 0)
  throw new Error(`--model-latency-ms takes a number of milliseconds ≥ 0, got ${process.argv[latencyArg + 1]}`);

type Memory = 'cold' | 'warm';

interface ModeRow {
  mode: RunMode;
  memory: Memory;
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

function summarize(mode: RunMode, memory: Memory, c: Collected): ModeRow {
  const overall = scoreSuite(c.records).overall;
  const wall = c.records.map((x) => x.wallMs);
  return {
    mode,
    memory,
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
 * Task by task, Pro then Flash on the same seeds, each cold then warm: a machine whose load drifts
 * during the run weighs on both modes alike (running one mode after the other gave the second one
 * its drift). The warm run of a task and seed starts with the page memory its cold run left.
 */
async function runModes(outDir: string): Promise<ModeRow[]> {
  const tasks = ONLY ? TASKS.filter((t) => ONLY.includes(t.id)) : TASKS;
  const modes: RunMode[] = ['pro', ...TASK_MODES.filter((m) => m !== 'pro')];
  const columns = modes.flatMap((mode) => (['cold', 'warm'] as const).map((memory) => ({ mode, memory })));
  const keyOf = (c: { mode: RunMode; memory: Memory }) => `${c.mode} ${c.memory}`;
  const got = new Map<string, Collected>(
    columns.map((c) => [keyOf(c), { records: [], cpuMs: 0, handovers: 0, perTask: {} }]),
  );
  for (const task of tasks)
    for (const mode of modes) {
      // What each cold run (task, seed) learned, for its warm run.
      const memories = new Map<number, PageMemory>();
      const remembered = (_t: TaskDef, seed: number) => {
        const m = memories.get(seed) ?? new PageMemory();
        memories.set(seed, m);
        return m;
      };
      for (const memory of ['cold', 'warm'] as const) {
        const c = got.get(keyOf({ mode, memory })) as Collected;
        const cpu0 = process.cpuUsage();
        const r = await runSuite({
          model: { kind: 'reference', noise: 0, latencyMs: LATENCY_MS },
          tasks: [task],
          catalogTasks: TASKS,
          seeds: SEEDS,
          outDir: path.join(outDir, mode, memory, task.id),
          mode,
          memoryFor: remembered,
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
    }
  return columns.map((c) => summarize(c.mode, c.memory, got.get(keyOf(c)) as Collected));
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function markdown(rows: ModeRow[], machine: Record<string, string | number>, at: string): string {
  const row = (mode: RunMode, memory: Memory) => rows.find((r) => r.mode === mode && r.memory === memory) as ModeRow;
  const [pro, proWarm, flash, flashWarm] = [
    row('pro', 'cold'),
    row('pro', 'warm'),
    row('flash', 'cold'),
    row('flash', 'warm'),
  ];
  const ratio = (a: number, b: number) => (b ? pct(a / b) : 'n/a');
  const versus = (f: ModeRow, p: ModeRow, what: string) =>
    `- ${what}: LLM calls **${ratio(f.llmCallsPerTask, p.llmCallsPerTask)}** (target ≤ 50%), wall time p50 **${ratio(f.wallMsP50, p.wallMsP50)}**, p95 ${ratio(f.wallMsP95, p.wallMsP95)}, mean ${ratio(f.wallMsMean, p.wallMsMean)} (target ≤ 60%), CPU time ${ratio(f.cpuMsPerTask, p.cpuMsPerTask)}, prompt tokens ${ratio(f.promptTokensPerTask, p.promptTokensPerTask)}; success ${pct(f.successRate)} vs ${pct(p.successRate)} (target within 2 points), false done ${pct(f.falseDoneRate)} (target 0).`;
  const latency = LATENCY_MS
    ? `The reference model sleeps **${LATENCY_MS} ms** before every answer (\`--model-latency-ms ${LATENCY_MS}\`, real sleeping on loopback HTTP): a stand-in for a hosted model's think time, so wall time carries model time as a capable model's would (a real one takes seconds a call; a smaller stand-in weighs the agent's own work more, not less).`
    : "The reference model answers on loopback at once (no `--model-latency-ms`), so wall time here is the agent's and the virtual phone's own work and the machine's load, not a model's.";
  const lines = [
    '# bench:modes — Flash vs Pro on the regression catalog (reference model)',
    '',
    `${Object.keys(pro.perTask).length} tasks × ${SEEDS} seeds per mode, noise 0, ${at}. **cold**: a fresh page memory per run; **warm**: the same task and seed run again with the page memory its cold run left (Flash is for familiar tasks: issue 25's "page-memory replay first").`,
    `Machine: ${machine.cpu} (${machine.cores} cores), load average ${machine.loadStart} at the start and ${machine.loadEnd} at the end (the machine is shared: wall times carry that), Node ${machine.node}. ${latency} Wall time is real time per run (the virtual phone's own delays run on its virtual clock); CPU time is this process's (agent, virtual phone, reference model) per run — sleeping costs none, so it is the zero-latency figure — which other work on the machine does not inflate. The modes run task by task, Pro then Flash, each cold then warm, so load drift weighs on all alike.`,
    '',
    '| mode | memory | runs | success | false done | LLM calls / task | prompt tokens / task | wall ms / task p50 | p95 | CPU ms / task | hand-overs to Pro |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.memory} | ${r.runs} | ${pct(r.successRate)} | ${pct(r.falseDoneRate)} | ${r.llmCallsPerTask.toFixed(2)} | ${Math.round(r.promptTokensPerTask)} | ${Math.round(r.wallMsP50)} | ${Math.round(r.wallMsP95)} | ${Math.round(r.cpuMsPerTask)} | ${r.handovers} |`,
    ),
    '',
    versus(flash, pro, 'Flash/Pro, both cold'),
    versus(flashWarm, proWarm, 'Flash/Pro, both warm'),
    versus(flashWarm, pro, 'Flash warm / Pro cold (a familiar task in Flash against the same task new to Pro)'),
    "- Where Flash saves calls: no plan call (its first decision carries the plan), no closing `done` call when its plan is complete and the last action verified (the done gate judges the screen instead), page-memory replay (warm: a remembered page's action is replayed without a call), and bursts (`action_sequence` of the next certain steps: fields, switches, then a tap — and on past a tap that opens another screen, its members given by label and grounded on the screen their turn comes on, with no call between; a warm run replays a burst's first part with the rest it went on with). What still costs a call: what the model must see first — a search's results, a target to scroll for, a secret (typed alone), a value to read.",
    '',
    '## Per task: LLM calls per run (mean over seeds)',
    '',
    '| task | Pro cold | Pro warm | Flash cold | Flash warm | Flash warm / Pro cold | Flash success cold / warm |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(pro.perTask).map(([id, p]) => {
      const [pw, f, fw] = [proWarm.perTask[id], flash.perTask[id], flashWarm.perTask[id]];
      const n = (x?: { calls: number }) => (x ? x.calls.toFixed(1) : '-');
      return `| ${id} | ${p.calls.toFixed(1)} | ${n(pw)} | ${n(f)} | ${n(fw)} | ${fw ? ratio(fw.calls, p.calls) : '-'} | ${f ? pct(f.success) : '-'} / ${fw ? pct(fw.success) : '-'} |`;
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
    await writeFile(
      'bench/results/modes.json',
      `${JSON.stringify({ at, seeds: SEEDS, modelLatencyMs: LATENCY_MS, machine, rows }, null, 2)}\n`,
    );
    await writeFile('bench/results/modes.md', md);
    process.stdout.write('\nwrote bench/results/modes.json and modes.md\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
