import { afterEach, describe, expect, it } from 'vitest';
import { Deadline, VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { BridgeDevice } from '../../src/device/bridge/device.js';
import { bridgeRig } from '../executor/helpers.js';

/** Delivery semantics of the bridge backend against the real bridge server on the virtual phone. */

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('bridge device', () => {
  it('negotiates capabilities with hello and snapshots the screen', async () => {
    rig = await bridgeRig();
    const caps = rig.device.capabilities();
    expect(caps.backend).toBe('bridge');
    expect(caps.ops.has('touch_gesture')).toBe(true);
    expect(caps.screen).toMatchObject({ width: 1080, height: 2400 });
    const s = await rig.device.snapshot({ screenshot: true }, Deadline.after(rig.clock, 5_000));
    expect(s.ok).toBe(true);
    if (s.ok) {
      expect(s.snapshot.foreground.package).toBe('com.android.launcher3');
      expect(s.screenshot?.png.subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('a wrong token is refused with advice, nothing delivered', async () => {
    rig = await bridgeRig();
    const clock = new VirtualClock();
    const bad = new BridgeDevice({ url: rig.server.url, token: 'nope', clock, logger: Logger.silent() });
    const c = await bad.connect(Deadline.after(clock, 5_000));
    expect(c.ok).toBe(false);
    expect(c.ok ? '' : c.message).toMatch(/token/);
  });

  it('helper app gone (connection refused) → not_delivered, safe to retry', async () => {
    rig = await bridgeRig();
    await rig.server.close();
    // Let the client's pool notice the closed keep-alive socket, so the next request is refused.
    await new Promise((r) => setTimeout(r, 100));
    const r = await rig.device.tap({ x: 100, y: 100 }, { durationMs: 50 }, Deadline.after(rig.clock, 5_000));
    expect(r.ok).toBe(false);
    expect(r.receipt).toMatchObject({ delivery: 'not_delivered', status: 'not_started', backend: 'bridge' });
    expect(rig.inputs.count).toBe(0);
  });

  it('connection dropped mid-request → unknown (observe first); fails fast while down, reconnects after the backoff', async () => {
    rig = await bridgeRig();
    rig.phone.faults.helperDisconnected = true;
    const r = await rig.device.tap({ x: 100, y: 100 }, { durationMs: 50 }, Deadline.after(rig.clock, 5_000));
    expect(r.ok).toBe(false);
    // The request was on the wire when the socket died: it may have been acted on.
    expect(r.receipt.delivery).toBe('unknown');
    expect(rig.inputs.count).toBe(0);
    const fast = await rig.device.key('back', Deadline.after(rig.clock, 5_000));
    expect(fast.receipt.delivery).toBe('not_delivered');
    expect(fast.ok ? '' : fast.message).toMatch(/next reconnect/);
    rig.phone.faults.helperDisconnected = false;
    await rig.clock.sleep(1_000);
    const again = await rig.device.key('home', Deadline.after(rig.clock, 5_000));
    expect(again.ok).toBe(true);
    expect(again.receipt.delivery).toBe('delivered');
  });

  it('deadline passed before sending → not_delivered; helper hung after sending → unknown', async () => {
    rig = await bridgeRig();
    const d = Deadline.after(rig.clock, 0);
    const early = await rig.device.tap({ x: 100, y: 100 }, { durationMs: 50 }, d);
    expect(early.receipt).toMatchObject({ delivery: 'not_delivered', error: { code: 'TIMEOUT' } });
    const hung = new BridgeDevice({
      url: rig.server.url,
      token: rig.server.token,
      clock: rig.clock,
      logger: Logger.silent(),
      maxRealWaitMs: 300,
    });
    expect((await hung.connect(Deadline.after(rig.clock, 5_000))).ok).toBe(true);
    rig.phone.faults.helperUnresponsive = true;
    const late = await hung.tap({ x: 100, y: 100 }, { durationMs: 50 }, Deadline.after(rig.clock, 5_000));
    expect(late.ok).toBe(false);
    expect(late.receipt).toMatchObject({ delivery: 'unknown', status: 'unknown', error: { code: 'TIMEOUT' } });
    expect(late.ok ? '' : late.message).toMatch(/observe the screen before retrying/);
  });

  it('two clients of one helper never share op_ids (each call dispatches once)', async () => {
    rig = await bridgeRig();
    const other = new BridgeDevice({
      url: rig.server.url,
      token: rig.server.token,
      clock: rig.clock,
      logger: Logger.silent(),
    });
    expect((await other.connect(Deadline.after(rig.clock, 5_000))).ok).toBe(true);
    const before = rig.inputs.count;
    const a = await rig.device.key('home', Deadline.after(rig.clock, 5_000));
    const b = await other.key('home', Deadline.after(rig.clock, 5_000));
    expect(a.device?.replayed).toBeFalsy();
    expect(b.device?.replayed).toBeFalsy();
    expect(rig.inputs.count).toBe(before + 2);
  });
});
