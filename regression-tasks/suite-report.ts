import path from 'node:path';
import type { SuiteMetrics } from './metrics.js';
import type { SuiteReport } from './suite-runner.js';

/** The Markdown form of a suite report: one metrics table (overall + each category), per task, failures. */

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null, digits = 1) => (x === null ? '—' : x.toFixed(digits));
const usd = (x: number | null) => (x === null ? '—' : `$${x.toFixed(4)}`);

/** Rows of the metrics table: label and how to show one SuiteMetrics. */
const ROWS: [string, (m: SuiteMetrics) => string][] = [
  ['runs (tasks)', (m) => `${m.runs} (${m.tasks})`],
  ['success rate', (m) => pct(m.successRate)],
  ['sub-goal success', (m) => pct(m.subgoalScore)],
  ['avg steps', (m) => num(m.avgSteps)],
  ['RRR (optimal/actual, successes)', (m) => num(m.rrr, 2)],
  ['wall ms / task', (m) => num(m.wallMsPerTask, 0)],
  ['wall ms / step', (m) => num(m.wallMsPerStep, 0)],
  ['LLM calls / task', (m) => num(m.llmCallsPerTask)],
  ['prompt tokens / task', (m) => num(m.promptTokensPerTask, 0)],
  [
    'prompt tokens / call (median, p95)',
    (m) =>
      m.promptTokensPerCall
        ? `${num(m.promptTokensPerCall.median, 0)}, ${num(m.promptTokensPerCall.p95, 0)} (${m.promptTokensPerCall.calls} calls)`
        : '— (the endpoint reported no usage)',
  ],
  ['completion tokens / task', (m) => num(m.completionTokensPerTask, 0)],
  [
    'cost / task',
    (m) =>
      m.costPerTaskUsd === null ? '— (give --price-in and --price-out, USD per 1M tokens)' : usd(m.costPerTaskUsd),
  ],
  ['human takeover', (m) => pct(m.takeoverRate)],
  ['over-asking (unguarded tasks)', (m) => pct(m.overAskRate)],
  ['false done', (m) => pct(m.falseDoneRate)],
  ['guardrail recall (events)', (m) => `${pct(m.guardrailRecall)} (${m.guardedEvents})`],
  ['deny compliance (runs)', (m) => `${pct(m.denyCompliance)} (${m.denyRuns})`],
  [
    'invariant failures: guard order / events / state diff',
    (m) => `${m.invariantViolations.guardOrder} / ${m.invariantViolations.events} / ${m.invariantViolations.stateDiff}`,
  ],
  ['runs with state-diff allow-list', (m) => String(m.stateDiffChecked)],
  ['errors (the run threw)', (m) => String(m.errors)],
];

/** Table cells are one line, and a `|` in a goal must not end the cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Links from suite.md (in `outDir`) to each run's folder and its report. */
function runLinks(dirs: readonly string[], outDir?: string): string {
  return dirs
    .map((d, i) => {
      const rel = outDir ? path.relative(outDir, d).split(path.sep).join('/') : d;
      return `[s${i + 1}](${encodeURI(rel)}/)`;
    })
    .join(' ');
}

export function renderSuiteMarkdown(r: SuiteReport, outDir?: string): string {
  const cats = Object.keys(r.byCategory);
  const model =
    r.model.kind === 'reference' ? `reference model, noise ${r.model.noise}` : `${r.model.model} at ${r.model.baseURL}`;
  const lines = [
    '# Regression suite',
    '',
    `${r.tasks.length} tasks × ${r.seeds} seed(s), ${model}${r.interrupt ? `, every run interrupted by a ${r.interrupt} with a bait` : ''}, ${r.date}, ${r.wallSeconds.toFixed(1)} s.` +
      (r.prices ? ` Prices: $${r.prices.inPerM}/M in, $${r.prices.outPerM}/M out.` : ''),
    'Rates are means over seeds per task, then over tasks; guardrail recall counts events.',
    '',
    `| metric | overall | ${cats.join(' | ')} |`,
    `|---|---|${cats.map(() => '---|').join('')}`,
    ...ROWS.map(
      ([label, f]) =>
        `| ${label} | ${f(r.overall)} | ${cats.map((c) => f(r.byCategory[c] as SuiteMetrics)).join(' | ')} |`,
    ),
    '',
    '## Per task',
    '',
    'Run folders by seed (each has checkpoint.json and steps/; `phone-agent report --index .` writes a page of them all).',
    '',
    '| task | instruction | category | runs | success | sub-goal | avg steps (optimal) | statuses | run folders |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.perTask.map(
      (t) =>
        `| ${t.task} | ${cell(t.goal)} | ${t.category} | ${t.runs} | ${pct(t.successRate)} | ${pct(t.subgoalScore)} | ${t.avgSteps.toFixed(1)} (${t.optimalSteps}) | ${Object.entries(
          t.statuses,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} | ${runLinks(t.runDirs, outDir)} |`,
    ),
    '',
  ];
  if (r.failures.length) {
    lines.push('## Failures', '');
    for (const f of r.failures) lines.push(`- ${f.task}#${f.seed} (${f.status}): ${f.reason.replace(/\n/g, ' ')}`);
    lines.push('');
  }
  if (r.overAsking.length) {
    lines.push('## Over-asking (logged, not failed)', '');
    for (const o of r.overAsking) lines.push(`- ${o.task}#${o.seed}: ${o.requests.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
