import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { judgeTask, type PreparedTask, prepareTask } from '../../regression-tasks/harness.js';
import { judgeRun } from '../../regression-tasks/metrics.js';
import { toRecord } from '../../regression-tasks/suite-runner.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import type { RunResult } from '../../src/agent/types.js';
import { openPool } from '../../src/compose/pool/pool.js';
import type { PoolDevice } from '../../src/compose/pool/pool-device.js';
import { RealClock } from '../../src/core/clock.js';
import { errorMessage } from '../../src/core/errors.js';
import { parseCallLog } from '../../src/mcp/call-log.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import { currentFile, openClient, overFile, renderTools, writeAtomic } from '../mcp-tasks-client.mjs';
import { type Finish, StdinLines, waitForFinish } from './finish.js';
import { figures, tokens } from './measure.js';
import { machine, type Report, type TaskRow, totals } from './report.js';
import { runScript } from './scripted.js';
import { type McpServerProcess, startMcpServer } from './server.js';

/**
 * One pass over the tasks: the pool's `sim-adb` phone (a fresh world per task, the suite's setup),
 * a fresh `phone-agent mcp --http` on it per task, the instruction printed, the client (external,
 * or the scripted one) driving until it says finished, then the task's checker and the suite's
 * invariants on the world, and the server's call log counted.
 */

export interface McpTasksOptions {
  tasks: readonly TaskDef[];
  seed: number;
  /** Task folders (call log, consent, finished.json, images) go under `<workDir>/<TASK>-s<seed>/`. */
  workDir: string;
  client: 'scripted' | 'external';
  label: string;
  /** Per task, how long the client may take. */
  taskTimeoutMs: number;
  say: (line: string) => void;
}

interface Ctx extends McpTasksOptions {
  device: PoolDevice;
  serial: string;
  adb: { host?: string; port?: number };
  token: string;
  stdin: StdinLines;
  /** The previous task's port: the client's URL stays the same from task to task where it can. */
  port: number;
}

const taskRun = (p: PreparedTask, taskDir: string, finish: Finish, calls: number, denials: number): RunResult => ({
  runId: path.basename(taskDir),
  runDir: taskDir,
  goal: p.goal,
  status: finish.status,
  mode: 'pro',
  ...(finish.answer !== undefined ? { answer: finish.answer } : {}),
  steps: calls,
  llm: emptyUsage(),
  cacheHits: 0,
  ruleActions: 0,
  denials,
  confirmations: 0,
  stepLog: [],
});

async function startServer(ctx: Ctx, taskDir: string): Promise<McpServerProcess> {
  const o = {
    serial: ctx.serial,
    adb: ctx.adb,
    token: ctx.token,
    callLog: path.join(taskDir, 'calls.jsonl'),
    runsDir: path.join(taskDir, 'runs'),
    lockDir: path.join(ctx.workDir, 'locks'),
  };
  if (ctx.port) {
    try {
      return await startMcpServer({ ...o, port: ctx.port });
    } catch {
      ctx.say(`  (port ${ctx.port} is taken now: a new one, see the URL below)`);
    }
  }
  return startMcpServer({ ...o, port: 0 });
}

/**
 * The task is open: printed for whoever watches, and `WORK/current.json` names it for the client's
 * `task` command (so a player needs one setting, PA_MCP_WORK, for the whole run).
 */
async function announce(ctx: Ctx, p: PreparedTask, n: number, taskDir: string, url: string): Promise<void> {
  const current = { n, of: ctx.tasks.length, instruction: p.goal, url, token: ctx.token, taskDir };
  await writeAtomic(currentFile(ctx.workDir), JSON.stringify(current));
  ctx.say(
    [
      '',
      `=== ${p.task.id} (${n}/${ctx.tasks.length}) · seed ${ctx.seed} · ${ctx.device.id} ${ctx.serial}`,
      `INSTRUCTION: ${p.goal}`,
      `  client: PA_MCP_WORK=${ctx.workDir} node bench/mcp-tasks-client.mjs task | list | call TOOL '{…}' | finish done ["answer"]`,
      `  (any other MCP client: export PA_MCP_URL=${url} PA_MCP_TOKEN=${ctx.token} PA_MCP_TASK_DIR=${taskDir}; or type "done [answer]" here to finish)`,
    ].join('\n'),
  );
}

async function runOne(ctx: Ctx, task: TaskDef, n: number): Promise<TaskRow> {
  const taskDir = path.join(ctx.workDir, `${task.id}-s${ctx.seed}`);
  await rm(taskDir, { recursive: true, force: true });
  await mkdir(taskDir, { recursive: true });
  const clock = new RealClock();
  // The MCP server is another process in real time: the world runs on a real clock too.
  const prepared = await prepareTask(task, { seed: ctx.seed, device: ctx.device, clock });
  const server = await startServer(ctx, taskDir);
  ctx.port = server.port;
  const t0 = performance.now();
  let waited: Awaited<ReturnType<typeof waitForFinish>>;
  let scriptError: string | undefined;
  try {
    await announce(ctx, prepared, n, taskDir, server.url);
    const script =
      ctx.client === 'scripted'
        ? runScript(task.id, { url: server.url, token: ctx.token, taskDir, params: prepared.params }).catch(
            (e: unknown) => {
              scriptError = errorMessage(e);
            },
          )
        : undefined;
    waited = await waitForFinish({
      prepared,
      taskDir,
      clock,
      stdin: ctx.stdin,
      timeoutMs: ctx.taskTimeoutMs,
      say: ctx.say,
    });
    await script;
  } finally {
    // Between tasks no task is running: a client's `task` waits, its `call` is told so.
    await rm(currentFile(ctx.workDir), { force: true });
    await server.stop();
  }
  const wallMs = performance.now() - t0;
  const log = await readFile(path.join(taskDir, 'calls.jsonl'), 'utf8').catch(() => '');
  const f = figures(parseCallLog(log));
  const denials = waited.confirmations.filter((c) => c.verdict !== 'approved').length;
  const judged = await judgeTask(
    prepared,
    taskRun(prepared, taskDir, waited.finish, f.calls, denials),
    waited.confirmations,
  );
  const rec = toRecord(task, judged, wallMs);
  const v = judgeRun(rec);
  const failedInvariant = Object.values(v.invariants).find((i) => !i.ok)?.reason;
  const row: TaskRow = {
    task: task.id,
    seed: ctx.seed,
    goal: rec.goal ?? prepared.goal,
    ok: v.ok,
    status: rec.status,
    ...(rec.answer ? { answer: rec.answer } : {}),
    reason: rec.check.ok ? failedInvariant : rec.check.reason,
    finishedVia: waited.finish.via,
    wallMs: Math.round(wallMs),
    figures: f,
    confirmations: rec.confirmations.map((c) => ({ verdict: c.verdict, summary: c.summary })),
    ...(scriptError ? { error: `the scripted client failed: ${scriptError}` } : {}),
  };
  ctx.say(
    `--- ${task.id}: ${row.ok ? 'ok' : 'FAIL'} (${row.status}${row.reason ? `: ${row.reason}` : ''}) · ${f.calls} calls served · ${f.resultTokens} result tokens · ${(wallMs / 1000).toFixed(1)} s${row.error ? ` · ${row.error}` : ''}`,
  );
  return row;
}

/** The tool list a client is given (names, descriptions, schemas), counted once on the first task's server. */
async function toolList(url: string, token: string): Promise<Report['toolList']> {
  const s = await openClient({ url, token });
  try {
    const { tools } = await s.client.listTools();
    return { tools: tools.map((t) => t.name), tokens: tokens(renderTools(tools, s.client.getInstructions())) };
  } finally {
    await s.close();
  }
}

export async function runMcpTasks(opts: McpTasksOptions): Promise<Report> {
  const pool = await openPool([{ kind: 'sim-adb', count: 1 }]);
  const device = pool.devices[0] as PoolDevice;
  const spec = device.spec();
  if (spec.kind !== 'adb') throw new Error(`the pool's sim-adb device is not an adb serial (${spec.kind})`);
  const ctx: Ctx = {
    ...opts,
    device,
    serial: spec.serial,
    adb: { host: spec.host, port: spec.port },
    token: randomBytes(24).toString('hex'),
    stdin: new StdinLines(opts.client === 'external'),
    port: 0,
  };
  const rows: TaskRow[] = [];
  let list: Report['toolList'] = { tools: [], tokens: 0 };
  await mkdir(opts.workDir, { recursive: true });
  // A folder reused from an earlier run names none of its tasks.
  for (const f of [overFile(opts.workDir), currentFile(opts.workDir)]) await rm(f, { force: true });
  try {
    for (const [i, task] of opts.tasks.entries()) {
      try {
        rows.push(await runOne(ctx, task, i + 1));
      } catch (e) {
        ctx.say(`--- ${task.id}: error: ${errorMessage(e)}`);
        rows.push(errorRow(task, ctx.seed, errorMessage(e)));
      }
    }
    // After the tasks (never before: a client would see a call it did not make): an idle server's list.
    const taskDir = path.join(opts.workDir, 'tool-list');
    await mkdir(taskDir, { recursive: true });
    const server = await startServer(ctx, taskDir);
    try {
      list = await toolList(server.url, ctx.token);
    } finally {
      await server.stop();
    }
  } finally {
    await writeAtomic(overFile(opts.workDir), JSON.stringify({ tasks: rows.length }));
    ctx.stdin.close();
    await pool.close();
  }
  return {
    meta: {
      date: new Date().toISOString(),
      client: opts.client,
      label: opts.label,
      seed: opts.seed,
      device: 'sim-adb (plain adb serial, no helper)',
      machine: machine(),
    },
    toolList: list,
    tasks: rows,
    totals: totals(rows),
  };
}

function errorRow(task: TaskDef, seed: number, error: string): TaskRow {
  return {
    task: task.id,
    seed,
    goal: task.instruction,
    ok: false,
    status: 'error',
    error,
    finishedVia: 'error',
    wallMs: 0,
    figures: figures([]),
    confirmations: [],
  };
}
