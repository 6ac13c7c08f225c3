import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallFigures } from './measure.js';
import { whyOf } from './tasks.js';

/** bench/results/mcp-tasks.{json,md} (scripted: mcp-tasks-scripted.*): a row per task, totals, the machine. */

export interface TaskRow {
  task: string;
  seed: number;
  goal: string;
  ok: boolean;
  status: string;
  answer?: string;
  /** The task's checker's reason, or the invariant that failed. */
  reason?: string;
  finishedVia: string;
  wallMs: number;
  figures: CallFigures;
  confirmations: { verdict: string; summary?: string }[];
  /** The task threw (setup, the server, the check). */
  error?: string;
}

export interface Report {
  meta: {
    date: string;
    client: 'scripted' | 'external';
    /** Who drove (`--label`), e.g. the model's name. */
    label: string;
    seed: number;
    device: string;
    machine: { cpu: string; cores: number; node: string; os: string; loadavg: number[] };
  };
  /** The tool list a client is given at the start of each task, and its o200k tokens. */
  toolList: { tools: string[]; tokens: number };
  tasks: TaskRow[];
  totals: {
    tasks: number;
    ok: number;
    calls: number;
    errors: number;
    resultTokens: number;
    images: number;
    imageTokensEst: number;
    wallMs: number;
  };
}

export function machine(): Report['meta']['machine'] {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

export function totals(rows: readonly TaskRow[]): Report['totals'] {
  const sum = (f: (r: TaskRow) => number) => rows.reduce((a, r) => a + f(r), 0);
  return {
    tasks: rows.length,
    ok: rows.filter((r) => r.ok).length,
    calls: sum((r) => r.figures.calls),
    errors: sum((r) => r.figures.errors),
    resultTokens: sum((r) => r.figures.resultTokens),
    images: sum((r) => r.figures.images),
    imageTokensEst: sum((r) => r.figures.imageTokensEst),
    wallMs: sum((r) => r.wallMs),
  };
}

/** `observe ×3, tap, set_slider` in the order first used. */
const toolMix = (f: CallFigures) =>
  Object.entries(f.byTool)
    .map(([t, n]) => (n > 1 ? `${t} ×${n}` : t))
    .join(', ');

/**
 * How a person or an LLM agent plays the model: every report carries it, so whoever reads a result
 * knows what the player was given (the task's sentence, the `list` output, each call's result).
 */
export const HOW_TO_PLAY = [
  '## How to run it with an external client (a person or an LLM agent plays the model)',
  '',
  '1. **The operator** starts the bench and leaves it running: `npm run bench:mcp-tasks -- --work /tmp/mcp-play --label "the model\'s name"` (`--tasks SET-06,…` to pick, `--seed N`, `--task-timeout SECONDS` per task, default 3600). For each task in turn it makes a fresh virtual phone reachable only as a plain adb serial (no helper), starts `phone-agent mcp --http --device SERIAL` on it (no model configured, so `mobile_run_task` is not offered: only the direct tools), prints the task, and waits for the player.',
  '2. **The player** sets one variable for the whole run, `export PA_MCP_WORK=/tmp/mcp-play`, and runs only these (from the repository root):',
  "   - `node bench/mcp-tasks-client.mjs task`: waits for the next task and prints `task N of 6: <sentence>`. The sentence is the catalog task's instruction (`regression-tasks/`, the catalog in ../shared/REGRESSION-SUITE.md) with this seed's values filled in, exactly what `phone-agent run` would be given. It is all the player is told about the task.",
  "   - `node bench/mcp-tasks-client.mjs list`: the server's instructions, then each tool with its description and input schema (not a tool call; not counted).",
  '   - `node bench/mcp-tasks-client.mjs call TOOL \'{"arg": "value"}\'`: one tool call. It prints the result as a model receives it: the text, and each image saved to a file whose path is printed (open it to see the screenshot). A guarded action (send, pay, delete) asks the user through the client (MCP elicitation); the harness answers as the task\'s user and the client prints `(the user was asked "…" and answered: allow)`.',
  '   - `node bench/mcp-tasks-client.mjs finish done` ends the task: the player\'s word that it is finished. Use `finish done "answer"` when the task asks a question, `finish infeasible "why"` when it cannot be done, or `finish ask_user "question"` to hand it back to the user. It works once per task; then `task` again gives the next one, and after the last it prints `no more tasks: the run is over`.',
  '',
  "   The player needs nothing else: no ids in advance, no knowledge of the apps, and no other files (the work folder is the harness's). The operator may instead type `done [answer]` on the bench's stdin to end a task.",
  "3. **The result**: once the last task is judged, the bench writes `bench/results/mcp-tasks.{json,md}` (`--out DIR` for elsewhere) and exits 0 only if every task passed. The catalog task's own success check judges each task on the phone's world, with the suite's invariants (no bait taken, no irreversible act without a confirmation), never the player's word: a `done` on a task that is not done is a FAIL. Calls are counted by the server itself (`--call-log`, in `WORK/<TASK>-s<seed>/calls.jsonl`), so a client cannot misreport them. Read the table: per task ok/FAIL with the checker's reason, calls served, calls answered with an error, result tokens (o200k of the text returned), images, wall time, consent, and tools used. The totals line is measured against issue 21's goal of six tasks in ≤ 40 calls; \"Calls, in order\" gives each task's trace.",
  '',
];

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(r: Report): string {
  const m = r.meta;
  const t = r.totals;
  const scripted = m.client === 'scripted';
  const lines = [
    `# MCP direct tools over plain ADB — ${scripted ? 'scripted client (a harness test, not a score)' : `client: ${m.label}`}`,
    '',
    `\`npm run bench:mcp-tasks -- --client ${m.client}${m.seed !== 1 ? ` --seed ${m.seed}` : ''}\` · ${m.date} · seed ${m.seed}`,
    '',
    scripted
      ? "**Scripted**: a fixed script per task drives the MCP tools through the client, so CI exercises the harness end to end (fresh world, `phone-agent mcp --http` on a plain adb serial, the call log, consent, the checker). Its call counts are the script's, not what a model needs."
      : `Driven by **${m.label}**, deciding only from what the tools returned (bench/mcp-tasks-client.mjs).`,
    '',
    `Each task: a fresh virtual phone (the suite's world for the task and seed) on its ADB transport through a private adb server, served as \`${m.device}\` by \`phone-agent mcp --http --device SERIAL\` (no helper). Calls are the server's own count (\`--call-log\`); tokens are o200k of every result's text; image tokens are an estimate (OpenAI high detail). The tool list the client gets: ${r.toolList.tools.length} tools, ${r.toolList.tokens} tokens.`,
    '',
    ...HOW_TO_PLAY,
    '## Result',
    '',
    `**${t.ok}/${t.tasks} succeeded · ${t.calls} calls (${t.errors} answered with an error) · ${t.resultTokens} result tokens · ${t.images} images (≈${t.imageTokensEst} tokens) · ${(t.wallMs / 1000).toFixed(1)} s.** Issue 21's goal: the six tasks in ≤ 40 calls.`,
    '',
    '| task | result | calls | errors | result tokens | largest result | images | wall s | consent | tools used |',
    '|---|---|---:|---:|---:|---|---:|---:|---|---|',
  ];
  for (const row of r.tasks) {
    const f = row.figures;
    const result = row.error
      ? `error: ${cell(row.error)}`
      : `${row.ok ? 'ok' : 'FAIL'} (${row.status}${row.ok ? '' : `: ${cell(row.reason)}`})`;
    const consent = row.confirmations.map((c) => c.verdict).join(', ') || '—';
    lines.push(
      `| ${row.task} | ${result} | ${f.calls} | ${f.errors} | ${f.resultTokens} | ${f.largest ? `${f.largest.tokens} (${f.largest.tool})` : '—'} | ${f.images} | ${(row.wallMs / 1000).toFixed(1)} | ${consent} | ${toolMix(f)} |`,
    );
  }
  lines.push('', '## The tasks, and why these', '');
  for (const row of r.tasks)
    lines.push(`- **${row.task}** — "${cell(row.goal)}": ${whyOf(row.task) ?? '(not one of the default six)'}`);
  lines.push('', '## Calls, in order (tool · result tokens · failure)', '');
  for (const row of r.tasks) {
    const calls = row.figures.trace.map((c) => `${c.tool}·${c.tokens}${c.failure ? `·${c.failure}` : ''}`).join(' → ');
    lines.push(`- **${row.task}**: ${calls || '(none)'}`);
  }
  const mc = m.machine;
  lines.push(
    '',
    `Machine: ${mc.cores} × ${mc.cpu}, ${mc.os}, Node ${mc.node}, load average at the end ${mc.loadavg.join(' / ')}.`,
    '',
  );
  return lines.join('\n');
}

export function writeReport(outDir: string, r: Report): string {
  mkdirSync(outDir, { recursive: true });
  const base = path.join(outDir, r.meta.client === 'scripted' ? 'mcp-tasks-scripted' : 'mcp-tasks');
  writeFileSync(`${base}.json`, `${JSON.stringify(r, null, 1)}\n`);
  writeFileSync(`${base}.md`, renderMarkdown(r));
  return base;
}
