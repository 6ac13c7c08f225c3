import { afterEach, describe, expect, it } from 'vitest';
import { createDevicePorts } from '../../src/agent/device-ports.js';
import { claimVerdict, type Executed, reduce } from '../../src/agent/reduce.js';
import { newState, type RunState } from '../../src/agent/run-state.js';
import { Logger } from '../../src/core/logger.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig } from '../executor/helpers.js';

/**
 * A skill's reading of the screen (set_slider's read-back, seek_timeline's readout) is what the
 * model was shown: a `done` that gives it back is grounded, though no tree text carries it. The
 * percent asked for is not a reading, and a run that never read it still refuses the number.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const goal = 'What does the brightness slider read now? Give the percent.';

async function observedRun(): Promise<{ s: RunState; seen: Executed['seen'] }> {
  rig = await bridgeRig({ seed: 1 });
  const p = createDevicePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
  await rig.phone.launch('Settings');
  const seen = await p.observe();
  const s0 = newState({
    runId: 'r',
    goal,
    dryRun: false,
    maxSteps: 10,
    plan: [{ text: goal, done: false }],
    usage: emptyUsage(),
    at: 0,
  });
  return { s: reduce(s0, { kind: 'observed', obs: seen.obs }), seen: { obs: seen.obs, compact: seen.compact } };
}

function executed(seen: Executed['seen'], readings: string[] | undefined): Executed {
  return {
    step: 1,
    ok: true,
    expect: { kind: 'page_changes' } as Executed['expect'],
    seen,
    post: seen.obs,
    changes: [],
    entry: { step: 1, action: 'set_slider', expect: '-', ok: true },
    wait: false,
    apps: [],
    closes: false,
    readings,
  };
}

describe("a tool's readings are seen by the done gate", () => {
  it('set_slider reads back the percent it reached, never the one asked for; seek_timeline its settled readout', () => {
    const slider = REGISTRY.get('set_slider')?.readings;
    expect(slider?.({ status: 'reached', target: 80, reached: 79.6, from: 'frame', moves: 2 })).toEqual(['79.6%']);
    expect(slider?.({ status: 'uncertain', target: 80, moves: 1 })).toEqual([]);
    const seek = REGISTRY.get('seek_timeline')?.readings;
    expect(seek?.({ status: 'reached', target: '1:30', reached: '1:29', evidence: [], ignored: [] })).toEqual(['1:29']);
    expect(seek?.({ status: 'uncertain', target: '1:30', cursor: 'unknown', evidence: [], ignored: [] })).toEqual([]);
  });

  it('done "79.6%" is refused until the run was shown that reading, then accepted', async () => {
    const { s, seen } = await observedRun();
    const done = { tool: 'done' as const, answer: '79.6%' };
    expect(claimVerdict(s, done, seen.obs, goal).verdict.ok).toBe(false);
    const unread = reduce(s, { kind: 'executed', e: executed(seen, undefined) });
    expect(claimVerdict(unread, done, seen.obs, goal).verdict.ok).toBe(false);
    const read = reduce(s, { kind: 'executed', e: executed(seen, ['79.6%']) });
    expect(claimVerdict(read, done, seen.obs, goal).verdict).toEqual({ ok: true });
  });
});
