import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { instantiate } from '../regression-tasks/harness.js';
import type { TaskDef } from '../regression-tasks/types.js';
import type { RunResult } from '../src/agent/types.js';
import { RealClock } from '../src/core/clock.js';
import type { CatalogEntry } from '../src/testbed/reference-model/intents.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { startBridgeServer } from '../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';

/**
 * One kill-and-resume trial: a virtual phone and the reference model live in this process (they
 * outlive the agent, as a real phone and model server do), each behind a loopback proxy that sees
 * every request; `phone-agent run` is a child process, SIGKILLed at the chosen moment; then
 * `phone-agent resume` runs until the run ends. The world state says whether the task got done and
 * whether an irreversible act happened twice.
 */

export type Phase = 'start' | 'model' | 'observe' | 'action-before' | 'action-after' | 'send';

export interface KillPlan {
  phase: Phase;
  /** The n-th request of that kind (1-based); for `start`, ms after spawn. */
  at: number;
}

export interface TrialResult {
  task: string;
  phase: Phase;
  at: number;
  killed: boolean;
  /** The run folder existed after the kill (else `run` had not reached lockRun). */
  folder: boolean;
  resumes: number;
  exits: (number | null)[];
  finished: boolean;
  worldOk: boolean;
  reason?: string;
  irreversible: number;
  duplicates: number;
  /** Requests seen by the proxies before the kill. */
  seen: Counts;
  /** From spawning `run` to its first request to the phone (ms). */
  firstMs: number;
}

export interface Counts {
  model: number;
  observe: number;
  action: number;
}

export interface TrialOptions {
  task: TaskDef;
  seed: number;
  catalog: readonly CatalogEntry[];
  kill?: KillPlan;
  dir: string;
  cli: string[];
  maxResumes: number;
}

const TOKEN = 'kill-resume-token';
const IRREVERSIBLE = new Set(['sent', 'paid', 'deleted', 'ordered', 'signed_out', 'password_changed']);

type Hook = (kind: keyof Counts, n: number, stage: 'request' | 'response') => boolean;

/** A forwarding proxy on loopback; `hook` returning true holds the exchange (the agent is being killed). */
async function proxy(target: string, classify: (req: IncomingMessage) => keyof Counts | undefined, hook: Hook) {
  const counts: Counts = { model: 0, observe: 0, action: 0 };
  const state = { firstAt: 0 };
  const up = new URL(target);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.firstAt ||= performance.now();
    const kind = classify(req);
    const n = kind ? ++counts[kind] : 0;
    if (kind && hook(kind, n, 'request')) return;
    const out = request(
      { host: up.hostname, port: up.port, path: req.url, method: req.method, headers: req.headers },
      (upRes) => {
        const chunks: Buffer[] = [];
        upRes.on('data', (c: Buffer) => chunks.push(c));
        upRes.on('end', () => {
          if (kind && hook(kind, n, 'response')) return;
          if (res.destroyed) return;
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    counts,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function spawnCli(cli: string[], args: string[]): ChildProcess & { done: Promise<number | null>; out: () => string } {
  const child = spawn(cli[0] as string, [...cli.slice(1), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ANDROID_BRIDGE_TOKEN: TOKEN },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.resume();
  const done = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  return Object.assign(child, { done, out: () => out });
}

function parseResult(text: string): RunResult | undefined {
  try {
    return JSON.parse(text) as RunResult;
  } catch {
    return undefined;
  }
}

export async function runTrial(o: TrialOptions): Promise<TrialResult> {
  const phone = new VirtualPhone({ clock: new RealClock(), seed: o.seed, locale: o.task.locale ?? 'en' });
  const { params, goal } = instantiate(o.task, o.seed);
  await o.task.setup?.(phone, params);
  const bridge = await startBridgeServer({ phone, token: TOKEN });
  const model = await startReferenceModel({ catalog: o.catalog, tokenizer: 'estimate' });
  let victim: ChildProcess | undefined;
  let killed = false;
  const kill = () => {
    if (!victim || killed) return;
    killed = victim.kill('SIGKILL');
  };
  const plan = o.kill;
  const hook: Hook = (kind, n, stage) => {
    if (!plan || killed || !victim) return false;
    const hit =
      (plan.phase === 'model' && kind === 'model' && stage === 'request' && n === plan.at) ||
      (plan.phase === 'observe' && kind === 'observe' && stage === 'request' && n === plan.at) ||
      (plan.phase === 'action-before' && kind === 'action' && stage === 'request' && n === plan.at) ||
      (plan.phase === 'action-after' && kind === 'action' && stage === 'response' && n === plan.at);
    if (hit) kill();
    return hit;
  };
  const bridgeProxy = await proxy(
    bridge.url,
    (req) =>
      req.url?.startsWith('/v3/action') ? 'action' : req.url?.startsWith('/v3/snapshot') ? 'observe' : undefined,
    hook,
  );
  const modelProxy = await proxy(model.url, () => 'model', hook);
  const runsDir = path.join(o.dir, 'runs');
  await mkdir(runsDir, { recursive: true });
  const common = ['--runs-dir', runsDir, '--memory', path.join(o.dir, 'memory.json'), '--json', '--yes'];
  const exits: (number | null)[] = [];
  let seen: Counts = { model: 0, observe: 0, action: 0 };
  let result: RunResult | undefined;
  let resumes = 0;
  let folder = true;
  let firstMs = 0;
  try {
    // `run` on the proxied phone and model; the same argv starts a run again that died before its folder.
    const runArgv = [
      'run',
      goal,
      '--device',
      bridgeProxy.url,
      '--base-url',
      `${modelProxy.url}/v1`,
      '--model',
      'reference-bench',
    ];
    const run = spawnCli(o.cli, [...runArgv, '--max-steps', '30', ...common]);
    victim = run;
    const spawnedAt = performance.now();
    const timers: NodeJS.Timeout[] = [];
    if (plan?.phase === 'start') timers.push(setTimeout(kill, plan.at));
    if (plan?.phase === 'send') {
      const sentBefore = phone.world.sent.length;
      timers.push(setInterval(() => phone.world.sent.length > sentBefore && kill(), 2));
    }
    exits.push(await run.done);
    for (const t of timers) clearInterval(t);
    seen = { ...bridgeProxy.counts, model: modelProxy.counts.model };
    firstMs = bridgeProxy.state.firstAt ? Math.round(bridgeProxy.state.firstAt - spawnedAt) : 0;
    result = parseResult(run.out());
    if (killed) {
      const names = await readdir(runsDir).catch(() => [] as string[]);
      const runDir = names.length === 1 ? path.join(runsDir, names[0] as string) : undefined;
      folder = !!runDir;
      victim = undefined;
      // Nothing to resume when the process died before it made its folder: start it again.
      while (resumes < o.maxResumes) {
        resumes++;
        const next = runDir
          ? spawnCli(o.cli, ['resume', runDir, '--task', goal, ...common])
          : spawnCli(o.cli, [...runArgv, ...common]);
        const code = await next.done;
        exits.push(code);
        result = parseResult(next.out()) ?? result;
        if (code === 0 || (code !== 3 && code !== 1)) break;
        if (!runDir) break;
      }
    }
  } finally {
    await bridgeProxy.close();
    await modelProxy.close();
    await bridge.close();
    await model.close();
  }
  const finished = exits[exits.length - 1] === 0 && result?.status === 'done';
  const check = result
    ? await o.task.check(phone.world, result, params, phone)
    : { ok: false, reason: 'no run result (exit codes ' + exits.join(',') + ')' };
  const acts = new Set(phone.world.events.filter((e) => IRREVERSIBLE.has(e.kind)).map((e) => `${e.app}|${e.at}`));
  const expected = o.task.guard && o.task.guard !== 'SECRET' && o.task.confirm !== 'deny' ? 1 : 0;
  return {
    task: o.task.id,
    phase: plan?.phase ?? 'start',
    at: plan?.at ?? 0,
    killed,
    folder,
    resumes,
    exits,
    finished,
    worldOk: check.ok,
    reason: check.ok ? undefined : (check.reason ?? result?.reason),
    irreversible: acts.size,
    duplicates: Math.max(0, acts.size - Math.max(expected, acts.size > 0 ? 1 : 0)),
    seen,
    firstMs,
  };
}
