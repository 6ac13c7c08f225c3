import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { type Rig, startRig } from './support/agent-rig.js';

/**
 * A process killed with a non-guarded action in flight (journal.jsonl, DESIGN §6): right after the
 * phone performed it, the resumed run sees its effect and does not do it again; right before, it
 * does it once. The shop's counter "+" and "Add to cart" add to what is there: a repeat shows in
 * the cart.
 */

const TWO = 'Put two Lattes in the cart.';
const ONE = 'Put one Latte in the cart.';
const CATALOG = [
  {
    id: 'TEST-PLUS',
    instruction: TWO,
    intents: [
      'launch "FoodShop"',
      'type "Search" "Latte"',
      'tap "Latte"',
      'tap "+" changes',
      'tap "Add to cart" keep',
      'done',
    ],
  },
  {
    id: 'TEST-ADD',
    instruction: ONE,
    intents: ['launch "FoodShop"', 'type "Search" "Latte"', 'tap "Latte"', 'tap "Add to cart" keep', 'done'],
  },
];

let model: ReferenceModel;
let runsDir: string;
let rig: Rig;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: CATALOG, noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-inflight-'));
});
afterAll(async () => {
  await model.close();
  // DBG await rm(runsDir, { recursive: true, force: true });
  console.log('RUNSDIR', runsDir);
});
beforeEach(async () => {
  rig = await startRig({ modelUrl: model.url });
});
afterEach(async () => {
  await rig.close();
});

/** Ports whose process "dies" on the action whose summary matches: before it is sent (journaled) or after the phone did it. */
function dyingOn(what: RegExp, when: 'before' | 'after') {
  return (ports: AgentPorts): AgentPorts => ({
    ...ports,
    execute: async (req) => {
      let hit = false;
      const out = await ports.execute({
        ...req,
        events: async (e) => {
          await req.events(e);
          hit = what.test(e.request.summary);
          if (hit && when === 'before') throw new Error('process killed before dispatch');
        },
      });
      if (hit) throw new Error('process killed after dispatch');
      return out;
    },
  });
}

async function killAndResume(goal: string, runId: string, what: RegExp, when: 'before' | 'after') {
  const first = await rig.agent({ confirm: () => 'approved', wrap: dyingOn(what, when) });
  await expect(runAgent(first.deps, { goal, maxSteps: 20, runsDir, runId })).rejects.toThrow(/process killed/);
  await first.close();
  const cartAtKill = rig.phone.world.cart.map((l) => ({ name: l.name, qty: l.qty }));
  const second = await rig.agent({ confirm: () => 'approved' });
  const notes: string[] = [];
  second.deps.onEvent = (e) => {
    if (e.kind === 'resume') notes.push(...e.notes);
  };
  const resumed = await resumeAgent(second.deps, { runDir: path.join(runsDir, runId) });
  await second.close();
  return { resumed, notes, cartAtKill, runDir: path.join(runsDir, runId) };
}

const cart = () => rig.phone.world.cart.map((l) => ({ name: l.name.split(' ')[0], qty: l.qty }));

describe('resume with a non-guarded action in flight', () => {
  it('a counter "+" that reached the phone is not tapped again: the quantity moved once', async () => {
    const r = await killAndResume(TWO, 'plus-after', /tap "\+"/, 'after');
    expect(r.resumed.status, JSON.stringify(r.resumed.stepLog)).toBe('done');
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
    expect(r.notes.join('\n')).toMatch(/"\+".*counted as done, not repeated/);
    const steps = r.resumed.stepLog.map((s) => s.action);
    expect(steps.filter((a) => /"\+"/.test(a))).toEqual([]);
  });

  it('a counter "+" killed before it was sent is tapped once on resume', async () => {
    const r = await killAndResume(TWO, 'plus-before', /tap "\+"/, 'before');
    expect(r.resumed.status, JSON.stringify([r.notes, r.resumed.stepLog])).toBe('done');
    expect(cart(), JSON.stringify([r.notes, r.resumed.stepLog])).toEqual([{ name: 'Latte', qty: 2 }]);
    expect(cart()).toEqual([{ name: 'Latte', qty: 2 }]);
    expect(r.notes.join('\n')).toMatch(/"\+".*before it took effect/);
  });

  it('an add-to-cart that reached the phone leaves one cart line of one', async () => {
    const r = await killAndResume(ONE, 'add-after', /Add to cart/, 'after');
    expect(r.cartAtKill).toEqual([{ name: expect.stringMatching(/^Latte/), qty: 1 }]);
    expect(r.resumed.status, JSON.stringify(r.resumed.stepLog)).toBe('done');
    expect(cart()).toEqual([{ name: 'Latte', qty: 1 }]);
    // The judged step is archived and settled: the journal holds every dispatched action.
    const cp = JSON.parse(await readFile(path.join(r.runDir, 'checkpoint.json'), 'utf8'));
    expect(cp.history.map((h: { note?: string }) => h.note ?? '').join('\n')).toMatch(/expected effect is on screen/);
    const journal = (await readFile(path.join(r.runDir, 'journal.jsonl'), 'utf8')).split('\n').filter(Boolean);
    expect(journal.map((l) => JSON.parse(l).decision.action.tool)).toEqual(
      expect.arrayContaining(['launch_app', 'type', 'tap']),
    );
    const report = JSON.parse(
      await readFile(
        path.join(r.runDir, 'steps', `${String(r.resumed.stepLog[0]!.step - 1).padStart(3, '0')}.json`),
        'utf8',
      ),
    );
    expect(report.note).toMatch(/judged on resume: done/);
  });

  it('a second kill before the next step does not judge the settled action again', async () => {
    const first = await rig.agent({ confirm: () => 'approved', wrap: dyingOn(/Add to cart/, 'after') });
    await expect(runAgent(first.deps, { goal: ONE, maxSteps: 20, runsDir, runId: 'add-twice' })).rejects.toThrow();
    await first.close();
    const runDir = path.join(runsDir, 'add-twice');
    // Killed again right after the resume saved its judgement, before any step.
    const second = await rig.agent({ confirm: () => 'approved' });
    second.deps.onEvent = (e) => {
      if (e.kind === 'resume') throw new Error('process killed after resuming');
    };
    await expect(resumeAgent(second.deps, { runDir })).rejects.toThrow(/killed after resuming/);
    await second.close();
    const third = await rig.agent({ confirm: () => 'approved' });
    const notes: string[] = [];
    third.deps.onEvent = (e) => {
      if (e.kind === 'resume') notes.push(...e.notes);
    };
    const resumed = await resumeAgent(third.deps, { runDir });
    await third.close();
    expect(resumed.status).toBe('done');
    expect(notes.join('\n')).not.toMatch(/Add to cart/);
    const cp = JSON.parse(await readFile(path.join(runDir, 'checkpoint.json'), 'utf8'));
    const judged = cp.history.filter((h: { note?: string }) => /expected effect is on screen/.test(h.note ?? ''));
    expect(judged).toHaveLength(1);
    expect(cart()).toEqual([{ name: 'Latte', qty: 1 }]);
  });
});
