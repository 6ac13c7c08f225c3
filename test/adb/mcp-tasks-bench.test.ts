import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../bench/mcp-tasks/report.js';
import { DEFAULT_TASKS } from '../../bench/mcp-tasks/tasks.js';
import { parseCallLog } from '../../src/mcp/call-log.js';

/**
 * `npm run bench:mcp-tasks` end to end, as a person starts it: the bench CLI in its own process,
 * each task on a fresh virtual phone over a plain adb serial, `phone-agent mcp --http` per task, the
 * task's own checker. The scripted client does the six (a harness test, not a score); then an
 * external client — this test, through bench/mcp-tasks-client.mjs as a player runs it — does one
 * task and says done, and says done on another without doing it: the checker, not the client, judges.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLIENT = path.join(ROOT, 'bench/mcp-tasks-client.mjs');
const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-mcp-tasks-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The bench as a child process; `onLine` sees each line it prints (and may write to its stdin). */
function bench(args: string[], onLine: (line: string, child: ChildProcess) => void = () => {}) {
  const child = spawn(TSX, ['bench/mcp-tasks.ts', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let pending = '';
  child.stdout?.on('data', (b: Buffer) => {
    out += b.toString();
    pending += b.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      onLine(pending.slice(0, nl), child);
      pending = pending.slice(nl + 1);
    }
  });
  child.stderr?.on('data', (b: Buffer) => {
    err += b.toString();
  });
  return new Promise<{ code: number | null; out: string; err: string }>((ok) =>
    child.once('exit', (code) => ok({ code, out, err })),
  );
}

const readReport = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Report;

describe('bench:mcp-tasks over a plain adb serial', () => {
  it('the scripted client does the six tasks through the client, each judged by its own check', async () => {
    const out = path.join(dir, 'scripted');
    const r = await bench(['--client', 'scripted', '--out', out, '--work', path.join(dir, 'work-scripted')]);
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const report = await readReport(path.join(out, 'mcp-tasks-scripted.json'));
    expect(report.tasks.map((t) => t.task)).toEqual(DEFAULT_TASKS.map((t) => t.id));
    expect(report.tasks.filter((t) => !t.ok).map((t) => `${t.task}: ${t.reason ?? t.error}`)).toEqual([]);
    // The server's own count: what its call log holds, call for call.
    for (const t of report.tasks) {
      const log = parseCallLog(await readFile(path.join(dir, 'work-scripted', `${t.task}-s1`, 'calls.jsonl'), 'utf8'));
      expect(t.figures.calls, t.task).toBe(log.length);
      expect(t.figures.calls, t.task).toBeGreaterThan(0);
      expect(t.figures.resultTokens, t.task).toBeGreaterThan(0);
    }
    // MSG-01's Send asked the user through the client's consent, and the harness (the user) approved.
    expect(report.tasks.find((t) => t.task === 'MSG-01')?.confirmations).toEqual([
      expect.objectContaining({ verdict: 'approved', summary: expect.stringContaining('Send') }),
    ]);
    expect(report.toolList.tools).toContain('observe');
    expect(report.toolList.tools).not.toContain('mobile_run_task');
    expect(await readFile(path.join(out, 'mcp-tasks-scripted.md'), 'utf8')).toMatch(/6\/6 succeeded/);
  }, 600_000);

  it('an external client: a task done through the client CLI is ok, a "done" that did nothing fails', async () => {
    const out = path.join(dir, 'external');
    const work = path.join(dir, 'work-external');
    // The player's one setting for the whole run; each command finds the running task through it.
    const env = { ...process.env, PA_MCP_WORK: work };
    const cli = (...args: string[]) =>
      run('node', [CLIENT, ...args], { env }).then(
        (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
      );
    let stdin: ChildProcess['stdin'] | undefined;
    const finished = bench(
      ['--client', 'external', '--tasks', 'LAU-01,SET-03', '--out', out, '--work', work],
      (_line, child) => {
        stdin = child.stdin;
      },
    );
    const first = await cli('task');
    const list = await cli('list');
    const launch = await cli('call', 'launch_app', '{"label":"Podcasts","verificationMode":"light"}');
    const done = await cli('finish', 'done');
    const again = await cli('finish', 'done');
    const second = await cli('task');
    // SET-03: the player says done on the harness's stdin without having done anything.
    stdin?.write('done\n');
    const over = await cli('task');
    const r = await finished;
    expect(r.code, `${r.out}\n${r.err}`).toBe(1);
    expect(first.out).toBe('task 1 of 2: Open the Podcasts app.\n');
    expect(list.out).toMatch(/^server instructions: phone-agent drives one Android phone/);
    expect(list.out).toMatch(/^## launch_app/m);
    expect(list.out).toMatch(/^input schema: \{/m);
    expect(launch.out).toContain('"success":true');
    expect(done).toMatchObject({ code: 0, out: 'finished: done\n' });
    // A second finish never lands on the next task.
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already finished|no task is running/);
    expect(second.out).toMatch(/^task 2 of 2: Set screen brightness to about \d+%\.$/m);
    expect(over.out).toBe('no more tasks: the run is over\n');
    const report = await readReport(path.join(out, 'mcp-tasks.json'));
    const [lau, set] = report.tasks;
    expect(lau).toMatchObject({ task: 'LAU-01', ok: true, status: 'done', finishedVia: 'file' });
    // `list` and `task` are not tool calls: the server counted the one call the player made.
    expect(lau?.figures.calls).toBe(1);
    expect(set).toMatchObject({ task: 'SET-03', ok: false, status: 'done', finishedVia: 'stdin' });
    expect(set?.figures.calls).toBe(0);
    expect(set?.reason).toBeTruthy();
  }, 300_000);
});
