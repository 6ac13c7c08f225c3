import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { type Harness, startHarness } from './bridge-harness.js';

// Server behaviour the black-box suite cannot see: faults, logging, interfaces, the input lock and
// cancellation of a running op.
let h: Harness | undefined;
afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

describe('bridge server: faults', () => {
  it('helperUnresponsive: requests hang until the client gives up; close() ends them', async () => {
    h = await startHarness();
    h.phone.faults.helperUnresponsive = true;
    const ac = new AbortController();
    const pending = h.post('/v3/hello', {}, { signal: ac.signal });
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Other requests are answered immediately when the fault is lifted, so this one is truly hanging.
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    ac.abort();
    await expect(pending).rejects.toThrow();
    const second = h.post('/v3/hello', {});
    const closing = h.server.close();
    await expect(second).rejects.toThrow();
    await closing;
    h = undefined;
  });

  it('helperDisconnected: connections are dropped; lifting the fault restores service', async () => {
    h = await startHarness();
    h.phone.faults.helperDisconnected = true;
    await expect(h.post('/v3/hello', {})).rejects.toThrow();
    h.phone.faults.helperDisconnected = false;
    expect((await h.post('/v3/hello', {})).status).toBe(200);
  });

  it('cropped screenshots report offsetY', async () => {
    h = await startHarness();
    h.phone.faults.cropStatusBar = true;
    const r = await h.post('/v3/snapshot', { screenshot: { format: 'png' } });
    const shot = (r.json as { screenshot: { offsetY: number; height: number } }).screenshot;
    expect(shot.offsetY).toBeGreaterThan(0);
    expect(shot.height + shot.offsetY).toBe(h.phone.screen().height);
  });
});

describe('bridge server: privacy and interfaces', () => {
  it('logs neither the token, nor typed text, nor screen text', async () => {
    const lines: string[] = [];
    const logger = new Logger('cli', { level: 'debug', sink: (l) => lines.push(l) });
    h = await startHarness({}, { logger, token: 'sekret-token-123' });
    await h.act({ action: 'launch_app', package: 'com.acme.bank' });
    await h.act({ action: 'wait_until', condition: 'stable', timeout_ms: 2_000 });
    await h.act({ action: 'set_text', selector: { resource_id: 'com.acme.bank:id/email' }, text: 'typed-secret@x.y' });
    await h.post('/v3/snapshot', {});
    const compat = await fetch(`${h.server.url}/action`, {
      method: 'POST',
      headers: { 'x-android-bridge-token': 'sekret-token-123' },
      body: JSON.stringify({ action: 'read_screen' }),
    });
    expect(((await compat.json()) as { payload: string }).payload).toContain('typed-secret@x.y');
    await h.post('/v3/hello', {}, { headers: { authorization: 'Bearer wrong-token-456' } });
    expect(lines.length).toBeGreaterThan(3); // it does log requests…
    const all = lines.join('\n');
    for (const secret of ['sekret-token-123', 'wrong-token-456', 'typed-secret', 'Acme Bank', 'Log in'])
      expect(all).not.toContain(secret); // …but nothing of their content
  });

  it('refuses a non-loopback interface without allowRemote, and an empty token', async () => {
    const phone = new VirtualPhone();
    await expect(startBridgeServer({ phone, host: '0.0.0.0' })).rejects.toThrow(/allowRemote|--allow-remote/);
    await expect(startBridgeServer({ phone, token: '' })).rejects.toThrow(/token/);
  });

  it('a random token per start, required on every endpoint', async () => {
    h = await startHarness();
    const other = await startBridgeServer({ phone: h.phone });
    expect(other.token).not.toBe(h.server.token);
    expect(h.server.token).toMatch(/^[0-9a-f]{64}$/);
    const r = await fetch(`${other.url}/v3/snapshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token}` },
      body: '{}',
    });
    expect(r.status).toBe(401);
    await other.close();
  });
});

describe('bridge server: input lock and cancellation', () => {
  it('a second input while one is in flight gets BUSY; a read-only wait is not blocked', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    h = await startHarness({ clock });
    const long = h.act({
      action: 'touch_gesture',
      op_id: 'long-drag',
      frames: [
        { at_ms: 0, points: [{ x: 500, y: 500 }] },
        { at_ms: 2_000, points: [{ x: 500, y: 520 }] },
      ],
    });
    while (clock.pending() === 0) await new Promise((r) => setImmediate(r));
    const busy = await h.act({ action: 'key', key: 'back' });
    expect(busy.error?.code).toBe('BUSY');
    expect(busy.delivery).toBe('not_delivered');
    const read = await h.act({ action: 'read_control', selector: { text: 'Settings' } });
    expect(read.status).toBe('observed');
    clock.advance(2_000);
    const done = await long;
    expect(done.status).toBe('completed');
    expect(done.op_id).toBe('long-drag');
    expect((await h.act({ action: 'key', key: 'back' })).status).toBe('completed');
  });

  it('cancel stops a running wait_until', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    h = await startHarness({ clock });
    const waiting = h.act({
      action: 'wait_until',
      op_id: 'w1',
      condition: 'appears',
      selector: { text: 'never there' },
      timeout_ms: 30_000,
    });
    while (clock.pending() === 0) await new Promise((r) => setImmediate(r));
    const c = await h.post('/v3/cancel', { op_id: 'w1' });
    expect(c.json).toEqual({ op_id: 'w1', state: 'running' });
    const r = await waiting;
    expect(r.status).toBe('cancelled');
    expect(r.error?.code).toBe('CANCELLED');
    expect((await h.post('/v3/cancel', { op_id: 'w1' })).json).toEqual({ op_id: 'w1', state: 'done' });
  });
});
