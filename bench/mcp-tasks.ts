import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeReport } from './mcp-tasks/report.js';
import { runMcpTasks } from './mcp-tasks/run.js';
import { pickTasks } from './mcp-tasks/tasks.js';

/**
 * `npm run bench:mcp-tasks -- [--tasks SET-06,…] [--seed N] [--out DIR] [--work DIR]
 * [--client scripted|external] [--label NAME] [--task-timeout S]`: catalog tasks through
 * `phone-agent mcp`'s direct tools over plain ADB (issue 21: the six in ≤ 40 calls). Per task a fresh
 * virtual phone on its ADB transport, the real `phone-agent mcp --http --device SERIAL`, the
 * instruction printed; an external client (a model through bench/mcp-tasks-client.mjs) drives until
 * it says finished, then the task's checker judges the world. `--client scripted` is the harness
 * test CI runs (fixed scripts, not a score). Writes DIR/mcp-tasks.{json,md} (scripted:
 * mcp-tasks-scripted.*), DIR default bench/results. What a player runs: HOW_TO_PLAY in report.ts.
 */

const USAGE = `usage: npm run bench:mcp-tasks -- [--tasks SET-06,SET-03,…] [--seed N] [--out DIR] [--work DIR]
       [--client scripted|external] [--label "who drove"] [--task-timeout SECONDS]`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: {
        tasks: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        work: { type: 'string' },
        client: { type: 'string' },
        label: { type: 'string' },
        'task-timeout': { type: 'string' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
  const client = values.client ?? 'external';
  if (client !== 'scripted' && client !== 'external') {
    process.stderr.write(`--client is scripted or external, not "${client}"\n${USAGE}\n`);
    return 2;
  }
  const seed = Number(values.seed ?? 1);
  if (!Number.isInteger(seed) || seed < 1) {
    process.stderr.write(`--seed needs a whole number ≥ 1, not "${values.seed}"\n`);
    return 2;
  }
  const timeoutS = Number(values['task-timeout'] ?? (client === 'scripted' ? 300 : 3600));
  if (!(timeoutS > 0)) {
    process.stderr.write(`--task-timeout needs seconds > 0, not "${values['task-timeout']}"\n`);
    return 2;
  }
  const picked = pickTasks(
    values.tasks
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  if ('error' in picked) {
    process.stderr.write(`${picked.error}\n`);
    return 2;
  }
  const outDir = path.resolve(values.out ?? path.join(root, 'bench/results'));
  const workDir = path.resolve(values.work ?? mkdtempSync(path.join(tmpdir(), 'pa-mcp-tasks-')));
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`task folders (call logs, consent, finished.json, images): ${workDir}`);
  if (client === 'external')
    say(
      `player: export PA_MCP_WORK=${workDir}, then node bench/mcp-tasks-client.mjs task | list | call TOOL '{…}' | finish done ["answer"] (see bench/results/mcp-tasks.md, "How to run it")`,
    );
  const report = await runMcpTasks({
    tasks: picked.tasks,
    seed,
    workDir,
    client,
    label: values.label ?? (client === 'scripted' ? 'scripted' : 'an external client'),
    taskTimeoutMs: timeoutS * 1000,
    say,
  });
  const base = writeReport(outDir, report);
  const t = report.totals;
  say(
    `\n${t.ok}/${t.tasks} ok · ${t.calls} calls served · ${t.resultTokens} result tokens · ${(t.wallMs / 1000).toFixed(1)} s; wrote ${base}.{json,md}`,
  );
  return t.ok === t.tasks ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
