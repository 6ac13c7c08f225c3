import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { PreparedTask } from '../../regression-tasks/harness.js';
import type { ConfirmationRecord } from '../../regression-tasks/metrics.js';
import { taskVerdict } from '../../regression-tasks/task-policy.js';
import type { RunStatus } from '../../src/agent/types.js';
import type { Clock } from '../../src/core/clock.js';
import { consentDir } from '../mcp-tasks-client.mjs';

/**
 * While a client drives the task, the harness is its user and its referee: it answers the consent
 * questions the client's host puts to the user (`TASK_DIR/consent/*.question.json`, written by
 * bench/mcp-tasks-client.mjs when the server elicits) by the task's own policy — as the suite's
 * harness answers the agent's — and waits for the client's word that the task is finished:
 * `TASK_DIR/finished.json` (the client's `finish` command) or a line on stdin
 * (`done [answer]`, `infeasible [reason]`, `ask_user [question]`).
 */

export interface Finish {
  status: RunStatus;
  answer?: string;
  via: 'file' | 'stdin' | 'timeout';
}

const STATUSES = new Set<RunStatus>(['done', 'infeasible', 'ask_user']);
const POLL_MS = 150;

/** Lines typed on the harness's stdin, for whichever task is waiting (one reader for the whole run). */
export class StdinLines {
  private readonly lines: string[] = [];
  private readonly rl?: ReturnType<typeof createInterface>;

  constructor(enabled: boolean) {
    if (!enabled) return;
    this.rl = createInterface({ input: process.stdin });
    this.rl.on('line', (l) => {
      if (l.trim()) this.lines.push(l.trim());
    });
  }

  take(): string | undefined {
    return this.lines.shift();
  }

  close(): void {
    this.rl?.close();
  }
}

/** `done 42` → { status: done, answer: 42 }; anything else is not a finish. */
export function parseFinishLine(line: string): Omit<Finish, 'via'> | undefined {
  const m = /^(\S+)\s*(.*)$/.exec(line.trim());
  const status = m?.[1] as RunStatus | undefined;
  if (!status || !STATUSES.has(status)) return undefined;
  return { status, ...(m?.[2] ? { answer: m[2] } : {}) };
}

async function readFinished(taskDir: string): Promise<Omit<Finish, 'via'> | undefined> {
  const text = await readFile(path.join(taskDir, 'finished.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const j = JSON.parse(text) as { status?: string; answer?: unknown };
  const status = STATUSES.has(j.status as RunStatus) ? (j.status as RunStatus) : 'done';
  return { status, ...(typeof j.answer === 'string' && j.answer ? { answer: j.answer } : {}) };
}

export interface WaitOptions {
  prepared: PreparedTask;
  taskDir: string;
  clock: Clock;
  stdin: StdinLines;
  timeoutMs: number;
  /** Where the harness says what happened (consent asked and answered). */
  say: (line: string) => void;
}

/** Answer every pending consent question by the task's policy; records each as the suite does. */
async function answerConsents(o: WaitOptions, confirmations: ConfirmationRecord[]): Promise<void> {
  const dir = consentDir(o.taskDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.question.json')).sort()) {
    const answer = path.join(dir, name.replace(/\.question\.json$/, '.answer.json'));
    if (names.includes(path.basename(answer))) continue;
    const q = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { message?: string };
    const message = q.message ?? '';
    const verdict = taskVerdict(o.prepared.task, message);
    confirmations.push({
      verdict,
      at: o.clock.now(),
      eventIndex: o.prepared.phone?.world.events.length ?? 0,
      summary: message,
    });
    // A user who would decide later has not agreed now: the action is not let through.
    const tmp = `${answer}.tmp`;
    await writeFile(tmp, JSON.stringify({ approve: verdict === 'approved' }));
    await rename(tmp, answer);
    o.say(`  the user was asked: ${message}\n  → ${verdict} (the task's policy)`);
  }
}

export async function waitForFinish(o: WaitOptions): Promise<{ finish: Finish; confirmations: ConfirmationRecord[] }> {
  const confirmations: ConfirmationRecord[] = [];
  const until = Date.now() + o.timeoutMs;
  for (;;) {
    await answerConsents(o, confirmations);
    const file = await readFinished(o.taskDir);
    if (file) return { finish: { ...file, via: 'file' }, confirmations };
    for (let line = o.stdin.take(); line !== undefined; line = o.stdin.take()) {
      const f = parseFinishLine(line);
      if (f) return { finish: { ...f, via: 'stdin' }, confirmations };
      o.say(`  (stdin: "${line}" is not a finish: type done [answer], infeasible [reason] or ask_user [question])`);
    }
    if (Date.now() > until) return { finish: { status: 'budget', via: 'timeout' }, confirmations };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
