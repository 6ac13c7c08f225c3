import { afterEach, describe, expect, it } from 'vitest';
import { Deadline, VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { bridgeRig } from '../executor/helpers.js';

/**
 * Failover routing rules with two real bridge servers (A = the helper, B = the fallback): only calls
 * that provably never reached A are re-run on B; one that may have acted is returned as unknown.
 */

const rigs: Awaited<ReturnType<typeof bridgeRig>>[] = [];
afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

async function pair() {
  const clock = new VirtualClock();
  const a = await bridgeRig({ clock });
  const b = await bridgeRig({ clock });
  rigs.push(a, b);
  const lines: string[] = [];
  const dev = new FailoverDevice({
    primary: a.device,
    fallback: b.device,
    clock,
    logger: new Logger('device', { sink: (l) => lines.push(l) }),
    probeEveryMs: 1_000,
  });
  return { clock, a, b, dev, lines };
}

describe('failover routing', () => {
  it('a request that never reached the helper is re-run on the fallback, marked failover', async () => {
    const { clock, a, b, dev, lines } = await pair();
    await a.server.close();
    // Let the client's pool notice the closed keep-alive socket, so the next request is refused.
    await new Promise((r) => setTimeout(r, 100));
    const r = await dev.key('home', Deadline.after(clock, 5_000));
    expect(r.ok).toBe(true);
    expect(r.receipt).toMatchObject({ failover: true, delivery: 'delivered' });
    expect(b.inputs.count).toBe(1);
    expect(lines.join('\n')).toMatch(/FAILOVER/);
  });

  it('a guarded touch that never reached the helper is not re-run on the fallback (it cannot be checked there)', async () => {
    const { clock, a, b, dev } = await pair();
    const guard = {
      class_name: 'android.widget.Switch',
      resource_id: 'com.android.settings:id/wifi_switch',
      text: 'Wi-Fi',
      desc: '',
      editable: false,
      bounds: { left: 0, top: 250, right: 1080, bottom: 360 },
    };
    await a.server.close();
    await new Promise((r) => setTimeout(r, 100));
    const r = await dev.tap({ x: 540, y: 300 }, { durationMs: 50, guard }, Deadline.after(clock, 5_000));
    expect(r.ok).toBe(false);
    expect(r.receipt.delivery).toBe('not_delivered');
    expect(b.inputs.count).toBe(0);
    // Unguarded, the same touch is re-run there, as before.
    const plain = await dev.tap({ x: 540, y: 300 }, { durationMs: 50 }, Deadline.after(clock, 5_000));
    expect(plain.receipt).toMatchObject({ failover: true, delivery: 'delivered' });
    expect(b.inputs.count).toBe(1);
  });

  it('a request that may have acted is not replayed: unknown, and the next call goes to the fallback', async () => {
    const { clock, a, b, dev } = await pair();
    a.phone.faults.helperDisconnected = true;
    const r = await dev.key('home', Deadline.after(clock, 5_000));
    expect(r.ok).toBe(false);
    expect(r.receipt.delivery).toBe('unknown');
    expect(b.inputs.count).toBe(0);
    const next = await dev.key('back', Deadline.after(clock, 5_000));
    expect(next.receipt.failover).toBe(true);
    expect(b.inputs.count).toBe(1);
    // Snapshots follow the same backend and say so.
    const s = await dev.snapshot({}, Deadline.after(clock, 5_000));
    expect(s.ok && s.failover).toBe(true);
  });

  it('a hung helper times out (after its share of the deadline) and the read continues on the fallback', async () => {
    const { clock, a, dev } = await pair();
    a.phone.faults.helperUnresponsive = true;
    const s = await dev.snapshot({}, Deadline.after(clock, 2_000));
    expect(s.ok).toBe(true);
    expect(s.ok && s.failover).toBe(true);
    expect(dev.usingFallback).toBe(true);
  });
});
