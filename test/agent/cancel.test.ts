import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { resumeAgent } from '../../src/agent/resume.js';
import type { RunResult } from '../../src/agent/types.js';
import { CancelledError } from '../../src/core/errors.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { type Rig, startRig } from './support/agent-rig.js';

/**
 * A run cancelled (its AbortSignal: Ctrl-C, an MCP cancellation) while it waits on the model, on an
 * observation and on an action ends at once — well within a second — as `interrupted`, its journal
 * whole, and a resume reaches what the uncancelled run reaches: two Lattes in the cart, the "+"
 * never tapped twice. The model is the reference model over real HTTP behind a proxy that can hold
 * a request unanswered; the phone is the virtual phone behind its bridge.
 */

const GOAL = 'Put two Lattes in the cart.';
const CATALOG = [
  {
    id: 'TEST-CANCEL',
    instruction: GOAL,
    intents: [
      'launch "FoodShop"',
      'type "Search" "Latte"',
      'tap "Latte"',
      'tap "+" changes',
      'tap "Add to cart" keep',
      'done',
    ],
  },
];
/** Far more than the run needs to stop, far less than anything it waits on would take. */
const BOUND_MS = 1000;

/** The model behind a proxy that answers every request but the `hold`-th, which it never answers. */
async function modelProxy(target: string) {
  const base = new URL(target);
  let count = 0;
  let hold = 0;
  let held: () => void = () => {};
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (++count === hold) {
      held();
      return; // left open: the client's abort is the only way out
    }
    const r = await fetch(new URL(req.url ?? '/', base.origin), {
      method: req.method,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`,
    /** Hold the n-th request from now; resolves once it has arrived. */
    holdNth(n: number): Promise<void> {
      hold = count + n;
      return new Promise((ok) => {
        held = ok;
      });
    },
    release() {
      hold = 0;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

let model: ReferenceModel;
let proxy: Awaited<ReturnType<typeof modelProxy>>;
let runsDir: string;
let rig: Rig;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: CATALOG, noise: 0, seed: 1, tokenizer: 'estimate' });
  proxy = await modelProxy(model.url);
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-cancel-'));
});
afterAll(async () => {
  await proxy.close();
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});
beforeEach(async () => {
  proxy.release();
  rig = await startRig({ modelUrl: proxy.url });
});
afterEach(async () => {
  await rig.close();
});

const cart = () => rig.phone.world.cart.map((l) => ({ name: l.name.split(' ')[0], qty: l.qty }));

/** Cancel `run` once `reached` resolves; how long the run took to end after the cancel. */
async function cancelWhen(run: (signal: AbortSignal) => Promise<RunResult>, reached: Promise<void>) {
  const ctl = new AbortController();
  const p = run(ctl.signal);
  p.catch(() => undefined);
  await reached;
  const t0 = performance.now();
  ctl.abort();
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - t0 };
}

async function checkpointOf(runId: string) {
  return JSON.parse(await readFile(path.join(runsDir, runId, 'checkpoint.json'), 'utf8'));
}

/** Every journal line parses and names a step (a cut line would be a kill mid-write, not a cancel). */
async function journalOf(runId: string) {
  const text = await readFile(path.join(runsDir, runId, 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { step: number; decision: { action: { tool: string } } });
}

async function resume(runId: string, wrap?: (p: AgentPorts) => AgentPorts, signal?: AbortSignal) {
  const a = await rig.agent({ confirm: () => 'approved', wrap });
  try {
    return await resumeAgent(a.deps, { runDir: path.join(runsDir, runId), signal });
  } finally {
    await a.close();
  }
}

describe('a cancelled run', () => {
  it('uncancelled, the task puts two Lattes in the cart (what every cancelled run must reach)', async () => {
    const a = await rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: GOAL, maxSteps: 20, runsDir, runId: 'whole' });
    await a.close();
    expect(r.status, JSON.stringify(r.stepLog)).toBe('done');
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
  });

  it('during a model call: ends at once, interrupted, and resumes to the same result', async () => {
    const a = await rig.agent({ confirm: () => 'approved' });
    // A few steps in (the plan, then the first decisions), a decision is left unanswered.
    const held = proxy.holdNth(4);
    const c = await cancelWhen(
      (signal) => runAgent(a.deps, { goal: GOAL, maxSteps: 20, runsDir, runId: 'in-model', signal }),
      held,
    );
    await a.close();
    proxy.release();
    expect(c.error).toBeInstanceOf(CancelledError);
    expect(c.ms).toBeLessThan(BOUND_MS);
    const cp = await checkpointOf('in-model');
    expect(cp.status).toBe('interrupted');
    expect(cp.step).toBeGreaterThanOrEqual(2);
    expect(cp.reason).toMatch(/cancelled/);
    // Nothing was in flight: the journal holds exactly the steps the checkpoint recorded.
    const steps = Array.from({ length: cp.step }, (_, i) => i + 1);
    expect([...new Set((await journalOf('in-model')).map((e) => e.step))]).toEqual(steps);
    const r = await resume('in-model');
    expect(r.status, JSON.stringify(r.stepLog)).toBe('done');
    expect(r.stepLog[0]?.step).toBe(cp.step + 1);
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
  });

  it('during an observation: ends at once, and the run resumes to the same result', async () => {
    const a = await rig.agent({ confirm: () => 'approved' });
    const held = proxy.holdNth(4);
    await cancelWhen(
      (signal) => runAgent(a.deps, { goal: GOAL, maxSteps: 20, runsDir, runId: 'in-read', signal }),
      held,
    );
    await a.close();
    proxy.release();
    const before = await checkpointOf('in-read');
    expect(before.status).toBe('interrupted');
    // The resume's first read of the phone never answers.
    let reading: () => void = () => {};
    const reached = new Promise<void>((ok) => {
      reading = ok;
    });
    const stuck = (p: AgentPorts): AgentPorts => ({
      ...p,
      observe: () => {
        reading();
        return new Promise(() => {});
      },
    });
    const c = await cancelWhen((signal) => resume('in-read', stuck, signal), reached);
    expect(c.error).toBeInstanceOf(CancelledError);
    expect(c.ms).toBeLessThan(BOUND_MS);
    // Cancelled before it settled anything: the checkpoint is the one it started from.
    expect(await checkpointOf('in-read')).toEqual(before);
    const r = await resume('in-read');
    expect(r.status, JSON.stringify(r.stepLog)).toBe('done');
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
  });

  it('during an action: ends at once with the action journaled, and the resume does not repeat it', async () => {
    let acting: () => void = () => {};
    const reached = new Promise<void>((ok) => {
      acting = ok;
    });
    // The "+" reaches the phone, and then the action never returns (its verification hangs).
    const slowPlus = (p: AgentPorts): AgentPorts => ({
      ...p,
      execute: async (req) => {
        let plus = false;
        const out = await p.execute({
          ...req,
          events: async (e) => {
            await req.events(e);
            plus = /tap "\+"/.test(e.request.summary);
          },
        });
        if (!plus) return out;
        acting();
        return new Promise(() => {});
      },
    });
    const a = await rig.agent({ confirm: () => 'approved', wrap: slowPlus });
    const c = await cancelWhen(
      (signal) => runAgent(a.deps, { goal: GOAL, maxSteps: 20, runsDir, runId: 'in-act', signal }),
      reached,
    );
    await a.close();
    expect(c.error).toBeInstanceOf(CancelledError);
    expect(c.ms).toBeLessThan(BOUND_MS);
    const cp = await checkpointOf('in-act');
    expect(cp.status).toBe('interrupted');
    // The "+" is journaled past the checkpoint: in flight, for the resume to judge.
    const journal = await journalOf('in-act');
    expect(journal.at(-1)?.step).toBe(cp.step + 1);
    expect(cart()).toEqual([]);
    const r = await resume('in-act');
    expect(r.status, JSON.stringify(r.stepLog)).toBe('done');
    expect(r.stepLog.filter((s) => /"\+"/.test(s.action))).toEqual([]);
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
  });

  it('past its deadline: ends the same way, saying so, and resumes to the same result', async () => {
    const a = await rig.agent({ confirm: () => 'approved' });
    const held = proxy.holdNth(4);
    await cancelWhen(
      (signal) => runAgent(a.deps, { goal: GOAL, maxSteps: 20, runsDir, runId: 'deadline', signal }),
      held,
    );
    await a.close();
    // Resumed with a deadline, on a model that leaves its next decision unanswered.
    const again = proxy.holdNth(1);
    const b = await rig.agent({ confirm: () => 'approved' });
    const t0 = performance.now();
    const error = await resumeAgent(b.deps, { runDir: path.join(runsDir, 'deadline'), deadlineMs: 1500 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const ms = performance.now() - t0;
    await b.close();
    await again;
    proxy.release();
    expect(error).toBeInstanceOf(CancelledError);
    expect(String(error)).toMatch(/deadline of 1500 ms passed/);
    // It stopped at the deadline, not at the model client's own timeout (a minute).
    expect(ms).toBeLessThan(1500 + BOUND_MS + 2000);
    expect(await checkpointOf('deadline')).toMatchObject({ status: 'interrupted' });
    const r = await resume('deadline');
    expect(r.status, JSON.stringify(r.stepLog)).toBe('done');
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
  });
});
