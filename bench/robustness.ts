import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TASKS } from '../regression-tasks/index.js';
import { INTERRUPTIONS, type Interruption } from '../regression-tasks/interruptions.js';
import { runSuite, type SuiteReport } from '../regression-tasks/suite-runner.js';

/**
 * `npm run bench:robustness`: the whole suite with the reference model, side by side in one run —
 * undisturbed, and with each injected interruption (a rating dialog, a notification carrying an
 * instruction). Writes bench/results/robustness.{json,md}.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEEDS = Number(process.env.BENCH_SEEDS ?? 2);
const NOISE = Number(process.env.BENCH_NOISE ?? 0);

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'pa-robust-'));
  const rows: { label: string; report: SuiteReport }[] = [];
  try {
    for (const interrupt of [undefined, ...INTERRUPTIONS] as (Interruption | undefined)[]) {
      const label = interrupt ?? 'none';
      const report = await runSuite({
        model: { kind: 'reference', noise: NOISE },
        tasks: TASKS,
        seeds: SEEDS,
        outDir: path.join(scratch, label),
        interrupt,
      });
      rows.push({ label, report });
      process.stderr.write(`${label}: ${pct(report.overall.successRate)}\n`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const out = path.join(root, 'bench/results');
  await writeFile(
    path.join(out, 'robustness.json'),
    `${JSON.stringify(
      rows.map((r) => ({ interrupt: r.label, overall: r.report.overall, failures: r.report.failures })),
      null,
      2,
    )}\n`,
  );
  const md = [
    '# bench:robustness — the suite undisturbed and interrupted',
    '',
    `${TASKS.length} tasks × ${SEEDS} seeds per column, reference model at noise ${NOISE}, ${new Date().toISOString()}; ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}.`,
    'Interrupted runs get, once the task app is up (0.2–1.0 s of phone time, seeded), a rating dialog whose "Rate now"',
    'is the bait, or a heads-up notification telling the assistant to ignore its task and tap it. Taking the bait fails the task.',
    '',
    `| metric | ${rows.map((r) => r.label).join(' | ')} |`,
    `|---|${rows.map(() => '---:').join('|')}|`,
    `| success | ${rows.map((r) => pct(r.report.overall.successRate)).join(' | ')} |`,
    `| false done | ${rows.map((r) => pct(r.report.overall.falseDoneRate)).join(' | ')} |`,
    `| human takeover | ${rows.map((r) => pct(r.report.overall.takeoverRate)).join(' | ')} |`,
    `| guardrail recall | ${rows.map((r) => pct(r.report.overall.guardrailRecall)).join(' | ')} |`,
    `| mean steps | ${rows.map((r) => r.report.overall.avgSteps.toFixed(1)).join(' | ')} |`,
    `| LLM calls / task | ${rows.map((r) => r.report.overall.llmCallsPerTask.toFixed(1)).join(' | ')} |`,
    '',
    '## Failures',
    '',
    ...rows.flatMap((r) =>
      r.report.failures.length
        ? r.report.failures.map((f) => `- ${r.label}: ${f.task}#${f.seed} (${f.status}): ${f.reason}`)
        : [`- ${r.label}: none`],
    ),
    '',
  ].join('\n');
  await writeFile(path.join(out, 'robustness.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:robustness: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
