import { describe, expect, it } from 'vitest';
import { Deadline, VirtualClock } from '../../src/core/clock.js';

describe('VirtualClock', () => {
  it('fires sleepers in time order when advanced by hand', async () => {
    const clock = new VirtualClock({ autoAdvance: false, start: 0 });
    const order: string[] = [];
    clock.sleep(300).then(() => order.push(`b@${clock.now()}`));
    clock.sleep(100).then(() => order.push(`a@${clock.now()}`));
    clock.advance(99);
    await Promise.resolve();
    expect(order).toEqual([]);
    await clock.tick(250);
    expect(order).toEqual(['a@100', 'b@300']);
    expect(clock.now()).toBe(349);
  });

  it('auto-advances to the earliest sleeper so waits cost no real time', async () => {
    // Without auto-advance this sleep would never resolve and the test would time out.
    const clock = new VirtualClock({ start: 0 });
    const order: number[] = [];
    await Promise.all([
      clock.sleep(60_000).then(() => order.push(clock.now())),
      clock.sleep(5_000).then(() => order.push(clock.now())),
    ]);
    expect(order).toEqual([5_000, 60_000]);
  });

  it('rejects an aborted sleep and forgets it', async () => {
    const clock = new VirtualClock({ autoAdvance: false, start: 0 });
    const ac = new AbortController();
    const p = clock.sleep(1000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(clock.pending()).toBe(0);
  });
});

describe('Deadline', () => {
  it('children never outlive their parent, share its signal, and their log reaches it', () => {
    const clock = new VirtualClock({ autoAdvance: false, start: 0 });
    const ac = new AbortController();
    const d = Deadline.after(clock, 1000, ac.signal);
    const c = d.child(5000);
    expect(c.remaining()).toBe(1000);
    c.note('read tree');
    expect(d.log).toEqual(['read tree']);
    clock.advance(1000);
    expect(c.expired()).toBe(true);
    expect(c.aborted).toBe(false);
    ac.abort();
    expect(c.aborted).toBe(true);
  });
});
