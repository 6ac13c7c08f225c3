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
  ["unverified (phones the suite cannot read: the agent's claim)", (m) => String(m.unverified)],
  [
    'off-graph actions (real apps: no recorded outcome)',
    (m) => (m.offGraph ? `${pct(m.offGraph.rate)} (${m.offGraph.offGraph} of ${m.offGraph.actions})` : '—'),
  ],
  [
    "inferred moves (real apps: a BACK the recording lacks, served as Android's back stack)",
    (m) => (m.offGraph ? String(m.offGraph.inferred) : '—'),
  ],
];

/** Table cells are one line, and a `|` in a goal must not end the cell. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Links from suite.md (in `outDir`) to each run's folder, with the device it ran on. */
function runLinks(runs: readonly SuiteReport['runs'][number][], outDir?: string): string {
  return runs
    .map((r) => {
      const on = `${r.device ? ` ${r.device}` : ''}${r.retriedFrom ? ` (retried: ${r.retriedFrom.device} died)` : ''}`;
      if (!r.runDir) return `s${r.seed}${on}`;
      const rel = outDir ? path.relative(outDir, r.runDir).split(path.sep).join('/') : r.runDir;
      return `[s${r.seed}](${encodeURI(rel)}/)${on}`;
    })
    .join(' · ');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The pool: each device's runs and busy share, quarantines, retries, and what no reset could give back. */
function poolSection(r: SuiteReport): string[] {
  const lines = [
    '## Devices',
    '',
    '| device | kind | world | runs | busy | busy share | quarantined |',
    '|---|---|---|---|---|---|---|',
    ...r.devices.map(
      (d) =>
        `| ${d.id} | ${d.kind} | ${d.ownsWorld ? 'fresh per run' : 'as found'} | ${d.runs} | ${seconds(d.busyMs)} | ${pct(d.busyShare)} | ${d.quarantined ? cell(d.quarantined) : '—'} |`,
    ),
    '',
  ];
  if (r.retries.length) {
    lines.push('## Retried (the device died under the run)', '');
    for (const x of r.retries)
      lines.push(
        `- ${x.task}#${x.seed}: ${x.from} died (${x.reason.replace(/\n/g, ' ')}) → ${x.to ?? 'no device left'}`,
      );
    lines.push('');
  }
  if (r.needsReset.length) {
    lines.push(
      '## Needs a reset the suite cannot do',
      '',
      'On phones the suite does not serve itself it can neither prepare a task nor read the result: those runs are the',
      "agent's claim (`unverified`), and every task assumes the virtual phone's apps and data. These depend on a reset:",
      '',
    );
    for (const x of r.needsReset) lines.push(`- ${x.task}: ${x.why}`);
    lines.push('');
  }
  return lines;
}

export function renderSuiteMarkdown(r: SuiteReport, outDir?: string): string {
  const cats = Object.keys(r.byCategory);
  const model =
    r.model.kind === 'reference' ? `reference model, noise ${r.model.noise}` : `${r.model.model} at ${r.model.baseURL}`;
  const lines = [
    '# Regression suite',
    '',
    `${r.tasks.length} tasks × ${r.seeds} seed(s)${(r.firstSeed ?? 1) > 1 ? ` from seed ${r.firstSeed}` : ''} on ${r.devices.length} device(s), ${model}, ${r.mode ?? 'pro'} mode${r.interrupt ? `, every run interrupted by a ${r.interrupt} with a bait` : ''}, ${r.date}, ${r.wallSeconds.toFixed(1)} s.` +
      (r.prices ? ` Prices: $${r.prices.inPerM}/M in, $${r.prices.outPerM}/M out.` : ''),
    'Rates are means over seeds per task, then over tasks; guardrail recall counts events.',
    ...(r.resumedRuns ? [`${r.resumedRuns} run(s) were kept from the unfinished suite this one resumed.`] : []),
    ...(r.stopped
      ? [
          '',
          `> **Unfinished: the model stopped answering** (${cell(r.stopped)}); the runs after it were not run. Run the same command with \`--resume\` to go on.`,
        ]
      : []),
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
    'Run folders by seed and the device each ran on (each has checkpoint.json and steps/; `phone-agent report --index .` writes a page of them all).',
    '',
    '| task | instruction | category | runs | success | sub-goal | avg steps (optimal) | statuses | run folders · device |',
    '|---|---|---|---|---|---|---|---|---|',
    ...r.perTask.map(
      (t) =>
        `| ${t.task} | ${cell(t.goal)} | ${t.category} | ${t.runs} | ${pct(t.successRate)} | ${pct(t.subgoalScore)} | ${t.avgSteps.toFixed(1)} (${t.optimalSteps}) | ${Object.entries(
          t.statuses,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} | ${runLinks(
          r.runs.filter((x) => x.task === t.task),
          outDir,
        )} |`,
    ),
    '',
    ...poolSection(r),
  ];
  if (r.failures.length) {
    lines.push('## Failures', '');
    for (const f of r.failures)
      lines.push(
        `- ${f.task}#${f.seed} (${f.status}${f.device ? `, on ${f.device}` : ''}): ${f.reason.replace(/\n/g, ' ')}`,
      );
    lines.push('');
  }
  const offGraph = r.runs.filter((x) => x.replay?.offGraphInputs.length);
  if (offGraph.length) {
    lines.push('## Off-graph inputs (real apps: the recording has no outcome for them; nothing changed)', '');
    for (const x of offGraph)
      lines.push(`- ${x.task}#${x.seed} (${x.replay?.graph}): ${x.replay?.offGraphInputs.map(cell).join('; ')}`);
    lines.push('');
  }
  if (r.overAsking.length) {
    lines.push('## Over-asking (logged, not failed)', '');
    for (const o of r.overAsking) lines.push(`- ${o.task}#${o.seed}: ${o.requests.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n');
}
