import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ModelSpec } from '../src/compose/model.js';
import { ActionableError } from '../src/core/errors.js';
import { resolveLlmConfig } from '../src/planner/llm/config.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { listApps, loadApp } from './droidtask/fixture.js';
import { scriptedAnswer } from './droidtask/oracle.js';
import { figures, renderMarkdown } from './droidtask/report.js';
import { runApp, type StepProbe, type StepRecord } from './droidtask/run.js';

/**
 * `npm run bench:droidtask -- --model NAME --base-url URL [--vision --image-format png]` (any
 * configured model, like the suite; the relay in ../shared/tools is how a capable model gets in the
 * loop), or `--model scripted` (the harness check CI runs: gold answers, not a score). Slices:
 * `--apps a,b`, `--tasks app/taskN,…`; `--out DIR` writes there; `--merge a.json,b.json` combines
 * slices into one report. Writes bench/results/droidtask.{json,md} (scripted: droidtask-scripted.*).
 */

const USAGE = `usage: npm run bench:droidtask -- --model scripted|NAME [--base-url URL] [--preset NAME]
       [--vision|--no-vision] [--image-format png|jpeg] [--apps a,b] [--tasks app/taskN,…] [--out DIR]
       npm run bench:droidtask -- --merge a.json,b.json [--out DIR]`;

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

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const outDir = path.resolve(values.out ?? path.join(root, 'bench/results'));
  if (values.merge) {
    const parts = values.merge.split(',').map((f) => JSON.parse(readFileSync(f.trim(), 'utf8')) as Written);
    const first = parts[0];
    if (!first) throw new ActionableError('USAGE', '--merge needs at least one file', 'pass --merge a.json,b.json');
    const records = parts.flatMap((p) => p.records);
    const apps = [...new Set(parts.flatMap((p) => p.meta.apps))].sort();
    write(outDir, first.meta.scripted ? 'droidtask-scripted' : 'droidtask', { meta: { ...first.meta, apps }, records });
    return 0;
  }
  const scripted = values.model === 'scripted';
  const vision = values.vision === true ? true : values['no-vision'] === true ? false : undefined;
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

  let probe: StepProbe | undefined;
  let model: ModelSpec;
  let close = async () => {};
  let label: string;
  if (scripted) {
    const ref = await startReferenceModel({ catalog: [], tokenizer: 'o200k', answer: (p) => scriptedAnswer(p, probe) });
    close = () => ref.close();
    model = { config: resolveLlmConfig({ baseUrl: ref.url, model: 'scripted' }, {}) };
    label = 'scripted (gold answers: a harness check)';
  } else {
    // Like the suite: flags, then OPENAI_BASE_URL / PHONE_AGENT_MODEL; nothing unconfigured is called.
    const config = resolveLlmConfig(
      {
        model: values.model,
        baseUrl: values['base-url'],
        preset: values.preset,
        vision,
        imageFormat: values['image-format'],
      },
      process.env,
    );
    model = { config };
    label = config.model;
  }
  const records: StepRecord[] = [];
  try {
    for (const app of apps) {
      const loaded = await loadApp(FIXTURES, app);
      const recs = await runApp(loaded, {
        model,
        probe: (p) => {
          probe = p;
        },
        tasks: taskIds ? (t) => taskIds.includes(t.id) : undefined,
        onStep: (r) =>
          process.stderr.write(
            `${r.task} step ${r.step}: ${r.score.correct ? 'ok  ' : 'MISS'} ${r.action}${r.score.correct ? '' : ` (${r.score.why})`}\n`,
          ),
      });
      records.push(...recs);
    }
  } finally {
    await close();
  }
  const meta = { model: label, scripted, date: new Date().toISOString().slice(0, 10), apps, vision: vision === true };
  write(outDir, scripted ? 'droidtask-scripted' : 'droidtask', { meta, records });
  return 0;
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
