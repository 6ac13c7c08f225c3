import { afterEach, describe, expect, it } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { CancelledError } from '../../src/core/errors.js';
import { Progress } from '../../src/core/progress.js';
import { bridgeRig, decision, makeExecutor, observe } from './helpers.js';

/** A run's cancel reaches the executor's stage in flight: it ends there, with nothing sent after it. */

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('executor cancel', () => {
  it('a cancel during the re-check read ends the action in the act stage, nothing touched', async () => {
    const clock = new RealClock();
    rig = await bridgeRig({ clock });
    const ex = makeExecutor(rig.device, clock, { verification: 'full' });
    const obs = await observe(ex);
    const icon = obs.elements.find((e) => e.actionable);
    expect(icon).toBeDefined();
    // The re-check read hangs on the phone: only the cancel can end it before the tree arrives.
    rig.phone.faults.slowTreeMs = 3_000;
    const ac = new AbortController();
    const run = Progress.start(clock, { timeoutMs: 60_000, signal: ac.signal });
    const pending = ex.run(decision({ tool: 'tap', target_id: icon?.id }), obs, { progress: run });
    setTimeout(() => ac.abort(new Error('Ctrl-C')), 50);
    const e = await pending.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CancelledError);
    expect((e as CancelledError).message).toMatch(/^act: cancelled \(Ctrl-C\)/);
    // The log says how far it got.
    expect((e as CancelledError).message).toMatch(/aimed at/);
    expect(rig.inputs.count).toBe(0);
  });

  it('a run already cancelled sends nothing and says where it stopped', async () => {
    const clock = new RealClock();
    rig = await bridgeRig({ clock });
    const ex = makeExecutor(rig.device, clock);
    const obs = await observe(ex);
    const ac = new AbortController();
    ac.abort(new Error('MCP cancellation'));
    const run = Progress.start(clock, { signal: ac.signal });
    const icon = obs.elements.find((e) => e.actionable);
    await expect(ex.run(decision({ tool: 'tap', target_id: icon?.id }), obs, { progress: run })).rejects.toThrow(
      /^guard: cancelled \(MCP cancellation\)/,
    );
    expect(rig.inputs.count).toBe(0);
  });
});
