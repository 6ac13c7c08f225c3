import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceCatalog, TASKS } from '../regression-tasks/index.js';
import type { TaskDef } from '../regression-tasks/types.js';
import { seededRandom } from '../src/core/random.js';
import { type KillPlan, type Phase, runTrial, type TrialResult } from './resume-trial.js';

/**
 * `npm run bench:resume`: the kill-and-resume harness. Each trial starts `phone-agent run` as its own
 * process against a virtual phone and the reference model that live here (behind proxies that see
 * every request), SIGKILLs it at one moment — at process start, during a model call (the first is
 * planning), during an observation, when an action is on its way, right after an action reached
 * the phone, or the instant a message is sent — then runs `phone-agent resume` until the run ends.
 * Reports kills, finished runs, world state and duplicated irreversible acts, by phase.
 * Writes bench/results/resume.{json,md}. BENCH_RESUME_TRIALS (default 120), BENCH_RESUME_JOBS (3),
 * BENCH_RESUME_ONLY (a development subset of the same plan, e.g. `SHOP-06:action-after`; writes nothing).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TRIALS = Number(process.env.BENCH_RESUME_TRIALS ?? 120);
const JOBS = Number(process.env.BENCH_RESUME_JOBS ?? 3);
const TASK_IDS = (process.env.BENCH_RESUME_TASKS ?? 'MSG-01,SET-01,SHOP-06').split(',');
/** While developing: only the trials matching one of these (`SHOP-06`, `SHOP-06:action-after`, `SHOP-06:action-after@6`); nothing is written. */
const ONLY = process.env.BENCH_RESUME_ONLY?.split(',').filter(Boolean);
const built = path.join(root, 'dist/cli/main.js');
// The built CLI starts in a fraction of the time tsx needs; `npm run bench:resume` builds it first.
const CLI = existsSync(built)
  ? [process.execPath, built]
  : [process.execPath, '--import', 'tsx', path.join(root, 'src/cli/main.ts')];

const PHASES: Phase[] = ['start', 'model', 'observe', 'action-before', 'action-after', 'send'];

interface Baseline {
  task: TaskDef;
  firstMs: number;
  model: number;
  observe: number;
  action: number;
}

async function inScratch<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pa-kill-'));
  try {
    return await f(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pool<T, R>(items: T[], jobs: number, f: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await f(items[i] as T, i);
    }),
  );
  return out;
}

/**
 * Trials cycle over tasks, then phases; within a phase the n-th request walks 1, 2, 3, … so every
 * model call, observation and action of a task is hit in turn (the first action is its launch_app).
 */
function plans(baselines: Baseline[]): { task: TaskDef; kill: KillPlan; seed: number }[] {
  const r = seededRandom(12);
  const out: { task: TaskDef; kill: KillPlan; seed: number }[] = [];
  const turn = new Map<string, number>();
  const nth = (key: string, n: number) => {
    const k = turn.get(key) ?? 0;
    turn.set(key, k + 1);
    return 1 + (k % Math.max(1, n));
  };
  for (let i = 0; out.length < TRIALS; i++) {
    const b = baselines[i % baselines.length] as Baseline;
    let phase = PHASES[Math.floor(i / baselines.length) % PHASES.length] as Phase;
    // Only a messaging task has a send moment; the others get an action landing instead.
    if (phase === 'send' && b.task.guard !== 'SEND') phase = 'action-after';
    const id = `${b.task.id}|${phase}`;
    const at =
      phase === 'start'
        ? Math.floor(r() * b.firstMs)
        : phase === 'model'
          ? nth(id, b.model)
          : phase === 'observe'
            ? nth(id, b.observe)
            : phase === 'send'
              ? 1
              : nth(id, b.action);
    out.push({ task: b.task, seed: 1 + (i % 5), kill: { phase, at } });
  }
  return out;
}

/** `TASK[:phase[@at]][/seed]` against one planned trial. */
function matches(filter: string, p: { task: TaskDef; kill: KillPlan; seed: number }): boolean {
  const m = /^([^:/]+)(?::([a-z-]+)(?:@(\d+))?)?(?:\/(\d+))?$/.exec(filter);
  if (!m)
    throw new Error(`BENCH_RESUME_ONLY entry "${filter}" is not TASK[:phase[@n]][/seed], e.g. SHOP-06:action-after@6`);
  const [, task, phase, at, seed] = m;
  return (
    p.task.id === task &&
    (!phase || p.kill.phase === phase) &&
    (!at || p.kill.at === Number(at)) &&
    (!seed || p.seed === Number(seed))
  );
}

function row(name: string, rs: TrialResult[]): string {
  const k = rs.filter((x) => x.killed);
  const fin = k.filter((x) => x.finished && x.worldOk).length;
  const dup = k.reduce((a, x) => a + x.duplicates, 0);
  const pct = k.length ? `${((fin / k.length) * 100).toFixed(0)}%` : '–';
  return `| ${name} | ${rs.length} | ${k.length} | ${fin} (${pct}) | ${k.filter((x) => !x.folder).length} | ${dup} | ${k.reduce((a, x) => a + x.resumes, 0)} |`;
}

async function main(): Promise<void> {
  const catalog = referenceCatalog();
  const tasks = TASK_IDS.map((id) => TASKS.find((t) => t.id === id)).filter((t): t is TaskDef => !!t);
  const t0 = performance.now();
  const baselines: Baseline[] = [];
  for (const task of tasks) {
    const b = await inScratch((dir) => runTrial({ task, seed: 1, catalog, dir, cli: CLI, maxResumes: 0 }));
    process.stderr.write(`baseline ${task.id}: exit ${b.exits.join(',')} ok=${b.worldOk} ${JSON.stringify(b.seen)}\n`);
    if (!b.worldOk) throw new Error(`baseline ${task.id} does not pass unkilled: ${b.reason}`);
    baselines.push({ task, firstMs: b.firstMs, ...b.seen });
  }
  const todo = plans(baselines).filter((p) => !ONLY || ONLY.some((o) => matches(o, p)));
  const results = await pool(todo, JOBS, async (p, i) => {
    const r = await inScratch((dir) =>
      runTrial({ task: p.task, seed: p.seed, catalog, kill: p.kill, dir, cli: CLI, maxResumes: 4 }),
    );
    process.stderr.write(
      `${i + 1}/${todo.length} ${r.task} ${r.phase}@${r.at}: killed=${r.killed} exits=${r.exits.join(',')} ok=${r.worldOk} dup=${r.duplicates}${r.reason ? ` (${r.reason.slice(0, 100)})` : ''}\n`,
    );
    return r;
  });
  if (ONLY) {
    const bad = results.filter((r) => !(r.finished && r.worldOk) || r.duplicates);
    process.stdout.write(
      `${results.length - bad.length}/${results.length} finished with the world right (subset; nothing written)\n`,
    );
    return;
  }
  const wallS = Math.round((performance.now() - t0) / 1000);
  const killed = results.filter((r) => r.killed);
  const finished = killed.filter((r) => r.finished && r.worldOk);
  const dups = killed.reduce((a, r) => a + r.duplicates, 0);
  const out = path.join(root, 'bench/results');
  await writeFile(
    path.join(out, 'resume.json'),
    `${JSON.stringify({ baselines: baselines.map((b) => ({ ...b, task: b.task.id })), results }, null, 2)}\n`,
  );
  const md = [
    '# bench:resume — SIGKILL `phone-agent run`, then `phone-agent resume` until the run ends',
    '',
    `${results.length} trials over ${tasks.map((t) => t.id).join(', ')} (seeds 1–5), ${JOBS} at a time, ${wallS} s; CLI ${CLI.length === 2 ? 'dist/' : 'tsx'}; ${new Date().toISOString()}; ${os.cpus().length} CPU(s), Node ${process.version}.`,
    'The phone (bridge) and the reference model live in the harness, behind proxies that count requests; the run is killed',
    'at process start (uniformly before its first request to the phone, as timed in an unkilled baseline run), during the n-th model call (the first is planning), the n-th observation,',
    'with the n-th action on its way (before the phone), right after the phone performed it (before the agent knew), or',
    'the instant the message left. A run killed before it made its folder is started again.',
    '',
    `**${killed.length} kills, ${finished.length} finished with the world right (${killed.length ? ((finished.length / killed.length) * 100).toFixed(1) : '–'}%), ${dups} duplicated irreversible acts.**`,
    '',
    '| phase | trials | kills | finished, world right | no folder (restarted) | duplicates | resumes |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...PHASES.map((p) =>
      row(
        p,
        results.filter((r) => r.phase === p),
      ),
    ),
    row('all', results),
    '',
    '| task | kills | finished | duplicates |',
    '|---|---:|---:|---:|',
    ...tasks.map((t) => {
      const k = killed.filter((r) => r.task === t.id);
      return `| ${t.id} | ${k.length} | ${k.filter((r) => r.finished && r.worldOk).length} | ${k.reduce((a, r) => a + r.duplicates, 0)} |`;
    }),
    '',
    '## Not finished',
    '',
    ...(killed.filter((r) => !(r.finished && r.worldOk)).length
      ? killed
          .filter((r) => !(r.finished && r.worldOk))
          .map((r) => `- ${r.task} ${r.phase}@${r.at}: exits ${r.exits.join(',')}: ${r.reason ?? '?'}`)
      : ['- none']),
    '',
  ].join('\n');
  await writeFile(path.join(out, 'resume.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:resume: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
