import { execSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TASKS } from '../regression-tasks/index.js';
import { loadTaskGraph } from '../regression-tasks/real-apps/graphs.js';
import { REAL_APP_TASKS } from '../regression-tasks/real-apps/index.js';
import { parseSuiteArgs, type SuiteArgs } from '../regression-tasks/suite-args.js';
import { runSuite, type SuiteReport } from '../regression-tasks/suite-runner.js';
import type { TaskDef } from '../regression-tasks/types.js';
import { explore } from '../src/agent/explore.js';
import { knowledgeOf } from '../src/agent/knowledge-of.js';
import { callbackConfirmation, composeAgent } from '../src/compose/agent.js';
import type { DeviceSpec } from '../src/compose/device.js';
import { VirtualClock } from '../src/core/clock.js';
import { Logger } from '../src/core/logger.js';
import { writeStoreEntry } from '../src/store/knowledge-store.js';
import { ReplayPhone } from '../src/testbed/replay/phone.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';

/**
 * `npm run bench:knowledge -- [suite model flags]` (issue 25, "knowledge helps"): Explore first walks
 * each app the tasks use — the real-app graphs on the replay phone, the virtual apps on a fresh
 * virtual phone — into a knowledge store, then the same tasks run in Pro twice through the suite,
 * with the store (`--knowledge DIR`) and without, side by side: success, steps, LLM calls, prompt
 * tokens (per task and per call: the per-call difference is what the knowledge lines cost), RRR.
 *
 * Two slices: the real-app tasks (`--world replay`) and held-back catalog phrasings — the catalog's
 * tasks on seed 2 (`--seed`): the reference catalog's example is seed 1's goal, so other seeds'
 * parameters give goals no example showed. Explore describes pages with the reference model
 * (`--explore-model same`: with the task model, e.g. a relay player). Any model runs the tasks
 * (`--model relay --base-url …`, as the suite); with the reference model it tests the harness, not a
 * score. Writes bench/results/knowledge.{json,md} (`--out` elsewhere).
 */

const REAL = ['AIR-02', 'AIR-03', 'JSH-01', 'JSH-02', 'CAA-01', 'CAA-03'];
const HELD_BACK = ['CLK-01', 'CAL-01', 'SET-01', 'CT-01', 'FILE-01', 'NOTE-01'];

interface Slice {
  name: string;
  world: 'replay' | 'sim';
  seed: number;
  tasks: string[];
  explored: { app: string; package: string; pages: number; described: number; actions: number }[];
  with: SuiteReport;
  without: SuiteReport;
}

const MINE = ['out', 'real-tasks', 'sim-tasks', 'seed', 'explore-actions', 'explore-model'];
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv.flatMap((a, i) => (MINE.some((m) => a === `--${m}`) ? [a, argv[i + 1] ?? ''] : [])),
  strict: true,
  options: Object.fromEntries(MINE.map((m) => [m, { type: 'string' as const }])),
});
/** Every other flag is the suite's (model, devices, vision…), passed on as given. */
const passOn = argv.filter((a, i) => !MINE.some((m) => a === `--${m}` || argv[i - 1] === `--${m}`));
const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
const list = (k: string, d: string[]) => str(k)?.split(',').filter(Boolean) ?? d;
const SEED = Number(str('seed') ?? 2);
const ACTIONS = Number(str('explore-actions') ?? 120);
const OUT = path.resolve(str('out') ?? path.join(import.meta.dirname, 'results'));
/** The explored stores and the suites' run folders (not results: they stay out of the repository). */
const WORK = path.resolve('runs', `bench-knowledge-${Date.now()}`);

function suiteArgs(world: 'replay' | 'sim', ids: string[], seed: number): SuiteArgs {
  const argv = [...passOn, '--world', world, '--tasks', ids.join(','), '--seeds', '1', '--first-seed', String(seed)];
  const parsed = parseSuiteArgs(argv, process.env, [...TASKS, ...REAL_APP_TASKS]);
  if (!parsed.ok) throw new Error(`bench:knowledge: ${parsed.message}`);
  return parsed.args;
}

/** The virtual apps a catalog task opens: its reference intents' `launch "App"`. */
function simApps(t: TaskDef): string[] {
  return t.intents.flatMap((i) => /^launch "([^"]+)"/.exec(i)?.[1] ?? []);
}

/** Who describes Explore's pages: the reference model (default, deterministic) or the tasks' own model. */
const DESCRIBER = str('explore-model') ?? 'reference';
if (DESCRIBER !== 'reference' && DESCRIBER !== 'same')
  throw new Error(`bench:knowledge: --explore-model ${DESCRIBER}: pass "same" (the tasks' model) or "reference"`);

async function exploreInto(store: string, device: DeviceSpec, clock: VirtualClock, app: string, args: SuiteArgs) {
  const same = DESCRIBER === 'same';
  const agent = await composeAgent({
    device,
    model: same && args.model.kind === 'llm' ? { config: args.model.config } : { model: 'reference' },
    confirm: callbackConfirmation('bench', () => 'denied'),
    clock,
    logger: new Logger('agent', { sink: () => {} }),
  });
  try {
    const r = await explore(agent.deps, { app, budget: { actions: ACTIONS } });
    if (r.map.pages.length) await writeStoreEntry(store, knowledgeOf(r.map));
    // The app asked for (a launch may show another app's pages: the map is filed under theirs).
    const row = {
      app,
      package: r.map.app.package,
      pages: r.map.pages.length,
      described: r.map.pages.filter((p) => p.description).length,
      actions: r.actions,
    };
    process.stderr.write(`explored ${row.app} (${row.package}): ${row.pages} pages, ${row.actions} actions\n`);
    return row;
  } finally {
    await agent.close();
  }
}

async function slice(name: string, world: 'replay' | 'sim', ids: string[], seed: number): Promise<Slice> {
  const args = suiteArgs(world, ids, seed);
  const store = path.join(WORK, world, 'store');
  const explored: Slice['explored'] = [];
  if (world === 'replay')
    for (const g of new Set(args.tasks.map((t) => t.replay?.graph ?? ''))) {
      const graph = await loadTaskGraph(g);
      const clock = new VirtualClock();
      const phone = await ReplayPhone.open({ graph, clock });
      explored.push(await exploreInto(store, { kind: 'replay', phone }, clock, graph.appPackage, args));
    }
  else
    for (const app of new Set(args.tasks.flatMap(simApps))) {
      const clock = new VirtualClock();
      const phone = new VirtualPhone({ seed: 1, clock });
      explored.push(await exploreInto(store, { kind: 'sim', phone }, clock, app, args));
    }
  const catalogTasks = world === 'replay' ? REAL_APP_TASKS : TASKS;
  const run = (knowledge: string | undefined, label: string) =>
    runSuite({
      ...args,
      outDir: path.join(WORK, world, label),
      catalogTasks,
      ...(knowledge ? { knowledge } : {}),
      progress: (line) => process.stderr.write(`${name} ${label}: ${line}\n`),
    });
  return {
    name,
    world,
    seed,
    tasks: ids,
    explored,
    with: await run(store, 'with'),
    without: await run(undefined, 'without'),
  };
}

const f1 = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toFixed(2));
const pct = (n: number) => `${(100 * n).toFixed(1)}%`;

function markdown(slices: Slice[], commit: string, model: string): string {
  const out = [
    '# bench:knowledge — Pro with the app knowledge Explore wrote vs without (issue 25)',
    '',
    `Main at ${commit}; tasks model ${model}; Explore ${ACTIONS} actions per app, described by ${DESCRIBER === 'same' ? 'the task model' : 'the reference model'} (\`--explore-model same\`: the tasks' model). With the reference model this run tests the harness, not a score.`,
    '',
    `\`npm run bench:knowledge -- ${argv.join(' ')}\``,
    '',
    '| slice | knowledge | runs | success | avg steps | RRR | LLM calls/task | prompt tokens/task | prompt tokens/call (median) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of slices)
    for (const [label, r] of [
      ['with', s.with],
      ['without', s.without],
    ] as const) {
      const o = r.overall;
      out.push(
        `| ${s.name} | ${label} | ${o.runs} | ${pct(o.successRate)} | ${f1(o.avgSteps)} | ${f1(o.rrr)} | ${f1(o.llmCallsPerTask)} | ${Math.round(o.promptTokensPerTask)} | ${o.promptTokensPerCall?.median ?? '—'} |`,
      );
    }
  out.push('', 'Knowledge line cost: prompt tokens per call (median), with − without:', '');
  for (const s of slices) {
    const a = s.with.overall.promptTokensPerCall?.median;
    const b = s.without.overall.promptTokensPerCall?.median;
    out.push(`- ${s.name}: ${a !== undefined && b !== undefined ? `${a - b} tokens` : '—'}`);
  }
  out.push(
    '',
    '## Per task (with / without)',
    '',
    '| slice | task | success | steps | optimal |',
    '|---|---|---|---|---|',
  );
  for (const s of slices)
    for (const t of s.with.perTask) {
      const w = s.without.perTask.find((x) => x.task === t.task);
      out.push(
        `| ${s.name} | ${t.task} | ${pct(t.successRate)} / ${w ? pct(w.successRate) : '—'} | ${f1(t.avgSteps)} / ${f1(w?.avgSteps)} | ${t.optimalSteps} |`,
      );
    }
  out.push(
    '',
    '## What Explore found',
    '',
    '| slice | app | package | pages | described | actions |',
    '|---|---|---|---|---|---|',
  );
  for (const s of slices)
    for (const e of s.explored)
      out.push(`| ${s.name} | ${e.app} | ${e.package} | ${e.pages} | ${e.described} | ${e.actions} |`);
  return `${out.join('\n')}\n`;
}

async function main(): Promise<void> {
  const slices = [
    await slice('real apps (replay)', 'replay', list('real-tasks', REAL), 1),
    await slice(`held-back phrasings (seed ${SEED})`, 'sim', list('sim-tasks', HELD_BACK), SEED),
  ];
  const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  const m = slices[0]?.with.model;
  const model = !m ? '?' : m.kind === 'reference' ? `reference (noise ${m.noise})` : `${m.model} at ${m.baseURL}`;
  await mkdir(OUT, { recursive: true });
  const strip = (r: SuiteReport) => ({ overall: r.overall, perTask: r.perTask, failures: r.failures });
  const json = slices.map((s) => ({ ...s, with: strip(s.with), without: strip(s.without) }));
  await writeFile(
    path.join(OUT, 'knowledge.json'),
    `${JSON.stringify({ commit, model, actions: ACTIONS, slices: json }, null, 2)}\n`,
  );
  const md = markdown(slices, commit, model);
  await writeFile(path.join(OUT, 'knowledge.md'), md);
  process.stdout.write(md);
}

await main();
