import { afterEach, describe, expect, it } from 'vitest';
import { RealClock, VirtualClock } from '../../src/core/clock.js';
import { CancelledError, TimeoutError } from '../../src/core/errors.js';
import { Progress } from '../../src/core/progress.js';
import { bridgeRig } from '../executor/helpers.js';

/** The executor's Progress: what a timeout or a cancel says, and that a cancel reaches the device call in flight. */

const never = () => new Promise<never>(() => undefined);

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('Progress', () => {
  it('a deadline that passes names what was pending and carries the log', async () => {
    const p = Progress.start(new RealClock(), { timeoutMs: 40 });
    p.note('aimed at [7]');
    const confirm = p.race('the confirmation', never()).catch((e: unknown) => e);
    const e = await p.race('the re-check read', never()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    const m = (e as TimeoutError).message;
    expect(m).toContain('the re-check read');
    expect(m).toContain('the confirmation');
    expect(m).toContain('aimed at [7]');
    expect(await confirm).toBeInstanceOf(TimeoutError);
  });

  it('a child never outlives its parent and its notes reach the parent', () => {
    const clock = new VirtualClock({ autoAdvance: false, start: 0 });
    const run = Progress.start(clock, { timeoutMs: 1_000 });
    const action = run.child(5_000);
    expect(action.remaining()).toBe(1_000);
    action.note('dispatched via bridge');
    expect(run.log).toEqual(['dispatched via bridge']);
    clock.advance(1_000);
    expect(() => action.throwIfAborted('verify')).toThrow(/verify: the deadline \(1000 ms\) passed/);
  });

  it('a cancel rejects a pending race at once, and every later stage refuses to start', async () => {
    const ac = new AbortController();
    const p = Progress.start(new VirtualClock(), { signal: ac.signal });
    const pending = p.race('the model call', never());
    ac.abort(new Error('Ctrl-C'));
    const e = await pending.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CancelledError);
    expect((e as CancelledError).message).toBe('the model call: cancelled (Ctrl-C)');
    expect(() => p.child(100).throwIfAborted('act')).toThrow(CancelledError);
    await expect(p.race('observe', Promise.resolve(1))).rejects.toThrow(CancelledError);
  });

  it('a settled race returns its value and leaves nothing pending', async () => {
    const p = Progress.start(new VirtualClock(), { timeoutMs: 1_000 });
    expect(await p.race('read', Promise.resolve(42))).toBe(42);
    await expect(p.race('tap', Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(p.timedOut('verify').message).toMatch(/while verify was pending$/);
  });

  it('a cancel ends a device call in flight on the real bridge: CANCELLED, not a timeout', async () => {
    // The phone's clock is frozen: its slow tree read never finishes, so only the cancel can end the call.
    const clock = new VirtualClock({ autoAdvance: false });
    rig = await bridgeRig({ clock });
    rig.phone.faults.slowTreeMs = 10_000;
    const ac = new AbortController();
    const p = Progress.start(clock, { timeoutMs: 30_000, signal: ac.signal });
    const read = rig.device.snapshot({}, p);
    setTimeout(() => ac.abort(new Error('MCP cancellation')), 20);
    const r = await read;
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.code).toBe('CANCELLED');
    // A cancelled call is not a helper gone: the next call after the cancel is refused before sending.
    const tap = await rig.device.tap({ x: 10, y: 10 }, { durationMs: 50 }, p.child(1_000));
    expect(tap.receipt).toMatchObject({ delivery: 'not_delivered' });
    expect(tap.receipt.error?.code).toBe('CANCELLED');
    expect(rig.inputs.count).toBe(0);
    clock.advance(20_000);
  });
});
