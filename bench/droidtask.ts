import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ProgressLog } from '../regression-tasks/progress-log.js';
import { ActionableError } from '../src/core/errors.js';
import { LlmEndpointError } from '../src/planner/llm/client.js';
import { type LlmConfig, resolveLlmConfig } from '../src/planner/llm/config.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { type DroidtaskApp, listApps, loadApp } from './droidtask/fixture.js';
import { scriptedAnswer } from './droidtask/oracle.js';
import { figures, renderMarkdown } from './droidtask/report.js';
import { runApp, type StepProbe, type StepRecord } from './droidtask/run.js';

/**
 * `npm run bench:droidtask -- --model NAME --base-url URL [--vision --image-format png]` (any
 * configured model, like the suite; the relay in ../shared/tools is how a capable model gets in the
 * loop), or `--model scripted` (the harness check CI runs: gold answers, not a score). Slices:
 * `--apps a,b`, `--tasks app/taskN,…`; `--out DIR` writes there; `--merge a.json,b.json` combines
 * slices into one report. Writes bench/results/droidtask.{json,md} (scripted: droidtask-scripted.*).
 * Exit 0 written, 2 usage, 3 the model stopped answering (the scored steps are kept: `--resume`).
 */

const USAGE = `usage: npm run bench:droidtask -- --model scripted|NAME [--base-url URL] [--preset NAME]
       [--vision|--no-vision] [--image-format png|jpeg] [--apps a,b] [--tasks app/taskN,…] [--out DIR] [--resume]
       npm run bench:droidtask -- --merge a.json,b.json [--out DIR]
  Each scored step is appended to <out>/droidtask.progress.jsonl at once; a run that stopped (the model
  stopped answering: exit 3; Ctrl-C) goes on from there with the same command and --resume.
  One model request at a time; slices (--apps, each with its own --out) can run side by side, then --merge.`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = path.resolve(root, '../shared/fixtures/droidtask');

interface Written {
  meta: { model: string; scripted: boolean; date: string; apps: string[]; vision: boolean };
  summary: ReturnType<typeof figures>;
  records: StepRecord[];
}

function write(outDir: string, base: string, data: Omit<Written, 'summary'>): void {
  mkdirSync(outDir, { recursive: true });
  const out: Written = { ...data, summary: figures(data.records) };
  writeFileSync(path.join(outDir, `${base}.json`), `${JSON.stringify(out, null, 1)}\n`);
  writeFileSync(path.join(outDir, `${base}.md`), renderMarkdown(data.meta, data.records));
  const f = out.summary;
  process.stdout.write(
    `${data.meta.model}: action accuracy ${(f.actionAccuracy * 100).toFixed(1)}% (${f.correct}/${f.steps}), completion ${(f.completionRate * 100).toFixed(1)}% (${f.complete}/${f.tasks}); wrote ${path.join(outDir, base)}.{json,md}\n`,
  );
}

/** Said before a long run: a model slower than the deadline is asked again, and a relay's player sees it twice. */
function timeoutNote(c: LlmConfig): string {
  return `${c.model} at ${c.baseURL}: one request at a time; each may take ${Math.round(c.timeoutMs / 1000)} s (PHONE_AGENT_LLM_TIMEOUT_MS) before it is asked again, ${c.maxRetries} times`;
}

const stepKey = (task: string, step: number) => `${task}#${step}`;

type Values = ReturnType<typeof parseCli>['values'];

function parseCli(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      model: { type: 'string' },
      'base-url': { type: 'string' },
      preset: { type: 'string' },
      vision: { type: 'boolean' },
      'no-vision': { type: 'boolean' },
      'image-format': { type: 'string' },
      apps: { type: 'string' },
      tasks: { type: 'string' },
      out: { type: 'string' },
      merge: { type: 'string' },
      resume: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Slices run side by side, as one report: one model's, each step once (a later file's wins). */
function merge(files: string, outDir: string): number {
  const parts = files.split(',').map((f) => JSON.parse(readFileSync(f.trim(), 'utf8')) as Written);
  const first = parts[0];
  if (!first) throw new ActionableError('USAGE', '--merge needs at least one file', 'pass --merge a.json,b.json');
  const models = [...new Set(parts.map((p) => p.meta.model))];
  if (models.length > 1)
    throw new ActionableError('USAGE', `--merge got runs of ${models.join(', ')}`, 'merge the slices of one model');
  const byStep = new Map(parts.flatMap((p) => p.records.map((r) => [stepKey(r.task, r.step), r] as const)));
  const apps = [...new Set(parts.flatMap((p) => p.meta.apps))].sort();
  write(outDir, first.meta.scripted ? 'droidtask-scripted' : 'droidtask', {
    meta: { ...first.meta, apps },
    records: [...byStep.values()],
  });
  return 0;
}

interface BenchModel {
  spec: { config: LlmConfig };
  label: string;
  scripted: boolean;
  close(): Promise<void>;
}

/** The configured model (like the suite: flags, then OPENAI_BASE_URL / PHONE_AGENT_MODEL), or the scripted one. */
async function openBenchModel(values: Values, probe: () => StepProbe | undefined): Promise<BenchModel> {
  if (values.model === 'scripted') {
    const ref = await startReferenceModel({
      catalog: [],
      tokenizer: 'o200k',
      answer: (p) => scriptedAnswer(p, probe()),
    });
    return {
      spec: { config: resolveLlmConfig({ baseUrl: ref.url, model: 'scripted' }, {}) },
      label: 'scripted (gold answers: a harness check)',
      scripted: true,
      close: () => ref.close(),
    };
  }
  const config = resolveLlmConfig(
    {
      model: values.model,
      baseUrl: values['base-url'],
      preset: values.preset,
      vision: visionFlag(values),
      imageFormat: values['image-format'],
    },
    process.env,
  );
  return { spec: { config }, label: config.model, scripted: false, close: async () => {} };
}

function visionFlag(values: Values): boolean | undefined {
  return values.vision === true ? true : values['no-vision'] === true ? false : undefined;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseCli(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const outDir = path.resolve(values.out ?? path.join(root, 'bench/results'));
  if (values.merge) return merge(values.merge, outDir);
  const all = await listApps(FIXTURES).catch((e: unknown) => {
    throw new ActionableError(
      'NOT_FOUND',
      `no DroidTask fixtures at ${FIXTURES} (${(e as Error).message})`,
      'run from a worktree beside ../shared',
    );
  });
  const apps = values.apps ? values.apps.split(',').map((s) => s.trim()) : all;
  const unknown = apps.filter((a) => !all.includes(a));
  if (unknown.length)
    throw new ActionableError('USAGE', `unknown app(s) ${unknown.join(', ')}`, `known: ${all.join(', ')}`);
  const taskIds = values.tasks?.split(',').map((s) => s.trim());
  const wanted = (t: { id: string }) => !taskIds || taskIds.includes(t.id);

  let probe: StepProbe | undefined;
  const model = await openBenchModel(values, () => probe);
  const { scripted } = model;
  const date = new Date().toISOString().slice(0, 10);
  const meta = { model: model.label, scripted, date, apps, vision: visionFlag(values) === true };
  const base = scripted ? 'droidtask-scripted' : 'droidtask';
  const loaded: DroidtaskApp[] = [];
  try {
    mkdirSync(outDir, { recursive: true });
    const log = await ProgressLog.open<StepRecord>(
      path.join(outDir, `${base}.progress.jsonl`),
      { format: 'droidtask-progress/1', model: meta.model, vision: meta.vision },
      { resume: values.resume === true, key: (r) => stepKey(r.task, r.step), noun: 'scored step' },
    );
    if (log.resumed) process.stderr.write(`resuming: ${log.resumed} step(s) already scored in ${log.file}\n`);
    if (!scripted) process.stderr.write(`${timeoutNote(model.spec.config)}\n`);
    try {
      for (const app of apps) {
        const one = await loadApp(FIXTURES, app);
        loaded.push(one);
        await runApp(one, {
          model: model.spec,
          probe: (p) => {
            probe = p;
          },
          tasks: wanted,
          scored: (task, step) => log.get(stepKey(task, step)) !== undefined,
          onStep: async (r) => {
            await log.append(r);
            process.stderr.write(
              `${r.task} step ${r.step}: ${r.score.correct ? 'ok  ' : 'MISS'} ${r.action}${r.score.correct ? '' : ` (${r.score.why})`}\n`,
            );
          },
        });
      }
    } catch (e) {
      if (!(e instanceof LlmEndpointError)) throw e;
      // The model stopped answering: what was scored is kept, and the run goes on when it answers again.
      process.stderr.write(
        `bench:droidtask: stopped — ${e.message}\nThe steps scored so far are kept in ${log.file}: when the model answers again, run the same command with --resume.\n`,
      );
      return 3;
    }
    // In the fixture's order, whichever run scored each step.
    const records = loaded.flatMap((a) =>
      a.tasks.filter(wanted).flatMap((t) => t.steps.flatMap((_, k) => log.get(stepKey(t.id, k + 1)) ?? [])),
    );
    write(outDir, base, { meta, records });
    await log.remove();
    return 0;
  } finally {
    await model.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`bench:droidtask: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    process.exitCode = e instanceof ActionableError ? 2 : 1;
  },
);
