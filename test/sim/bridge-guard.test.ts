import { afterEach, describe, expect, it } from 'vitest';
import { rectCenter } from '../../src/core/geometry.js';
import { guardForNode, type TouchGuard } from '../../src/device/protocol/guard.js';
import type { WireNode } from '../../src/device/protocol/wire.js';
import { type Harness, startHarness } from './bridge-harness.js';

// Guarded touches (helper/PROTOCOL.md §7, capability guarded_touch) on the virtual phone's helper:
// the touch carries the target it was aimed at; the phone checks it at the instant it would touch
// and answers STALE / OCCLUDED without touching when it no longer holds.
let h: Harness | undefined;
afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

async function bluetoothPage(harness: Harness): Promise<{ node: WireNode; guard: TouchGuard }> {
  await harness.phone.launch('com.android.settings', '.BluetoothSettings');
  const snap = await harness.snapshot();
  const node = snap.nodes.find((n) => n.resourceId.endsWith('bluetooth_switch'));
  if (!node) throw new Error('no Bluetooth switch');
  return { node, guard: guardForNode(node) };
}

const tapOn = (n: WireNode, guard: TouchGuard) => {
  const c = rectCenter(n.bounds);
  return { action: 'tap' as const, x: Math.round(c.x), y: Math.round(c.y), coord_space: 'pixel' as const, guard };
};

describe('bridge: guarded touches', () => {
  it('taps when the target is still there, and refuses a replaced, moved or different one without touching', async () => {
    h = await startHarness();
    const hello = (await h.post('/v3/hello', {})).json as { capabilities: string[] };
    expect(hello.capabilities).toContain('guarded_touch');
    const { node, guard } = await bluetoothPage(h);
    const was = h.phone.world.settings.bluetooth;
    const rev = h.phone.revision();

    for (const stale of [
      { ...guard, text: 'Use Wi-Fi' }, // another element now stands there
      { ...guard, bounds: { ...guard.bounds, top: guard.bounds.top + 100, bottom: guard.bounds.bottom + 100 } },
      { ...guard, class_name: 'android.widget.Button' },
    ]) {
      const r = await h.act(tapOn(node, stale));
      expect(r.status).toBe('not_started');
      expect(r.delivery).toBe('not_delivered');
      expect(r.error?.code).toBe('STALE');
      expect(r.timings.dispatched_at).toBeUndefined();
    }
    expect(h.phone.world.settings.bluetooth).toBe(was);
    expect(h.phone.revision()).toBe(rev);

    const ok = await h.act(tapOn(node, guard));
    expect(ok.status).toBe('completed');
    expect(h.phone.world.settings.bluetooth).toBe(!was);
  });

  it('a point that is not on the target, or covered by an overlay, is refused before any input', async () => {
    h = await startHarness();
    const { node, guard } = await bluetoothPage(h);
    const was = h.phone.world.settings.bluetooth;
    const off = await h.act({ ...tapOn(node, guard), y: node.bounds.bottom + 40 });
    expect(off.error?.code).toBe('STALE');
    expect(off.error?.message).toMatch(/no longer on/);
    h.phone.faults.overlay = true;
    const covered = await h.act(tapOn(node, guard));
    expect(covered.error?.code).toBe('OCCLUDED');
    expect(covered.delivery).toBe('not_delivered');
    expect(h.phone.world.settings.bluetooth).toBe(was);
  });

  it('a dialog takes a touch on the page below even outside its own bounds', async () => {
    h = await startHarness();
    const { node, guard } = await bluetoothPage(h);
    const was = h.phone.world.settings.bluetooth;
    h.phone.popup({
      kind: 'app',
      title: 'Enjoying the app?',
      message: 'Rate us',
      buttons: [{ text: 'Not now', onTap: () => {} }],
    });
    const snap = await h.snapshot();
    const dialog = snap.windows.find((w) => w.type === 'dialog');
    const c = rectCenter(node.bounds);
    // The switch's centre is outside the dialog's box: only the modal rule covers it.
    expect(dialog && c.y >= dialog.bounds.top && c.y < dialog.bounds.bottom).toBe(false);
    const r = await h.act(tapOn(node, guard));
    expect(r.error?.code).toBe('OCCLUDED');
    expect(r.error?.message).toContain('dialog window "Enjoying the app?"');
    expect(h.phone.world.settings.bluetooth).toBe(was);
  });

  it('a guard checks one finger; an older helper without guarded_touch refuses a guarded touch', async () => {
    h = await startHarness();
    const { node, guard } = await bluetoothPage(h);
    const c = rectCenter(node.bounds);
    const two = await h.post('/v3/action', {
      action: 'touch_gesture',
      coord_space: 'pixel',
      guard,
      frames: [
        {
          at_ms: 0,
          points: [
            { x: c.x, y: c.y },
            { x: c.x + 200, y: c.y + 300 },
          ],
        },
        {
          at_ms: 100,
          points: [
            { x: c.x, y: c.y },
            { x: c.x + 200, y: c.y + 300 },
          ],
        },
      ],
    });
    expect(two.status).toBe(400);
    expect(JSON.stringify(two.json)).toMatch(/one finger/);
    await h.server.close();

    h = await startHarness({}, { omitCapabilities: ['guarded_touch'] });
    const older = await bluetoothPage(h);
    const hello = (await h.post('/v3/hello', {})).json as { capabilities: string[] };
    expect(hello.capabilities).not.toContain('guarded_touch');
    const r = await h.act(tapOn(older.node, older.guard));
    expect(r.error?.code).toBe('UNSUPPORTED');
    expect(r.delivery).toBe('not_delivered');
  });

  it('the check costs what the phone pays: a lookup by view id, a tree walk when a lookup cannot be complete', async () => {
    h = await startHarness({ latency: { nodeLookup: 40, treeRead: 300, helperInput: 0 } });
    const { node, guard } = await bluetoothPage(h);
    // Moved 100 px: found by the lookup and refused, so every call sees the same page.
    const moved = {
      ...guard,
      bounds: { ...guard.bounds, top: guard.bounds.top + 100, bottom: guard.bounds.bottom + 100 },
    };
    const took = async (g: TouchGuard) => {
      const r = await h?.act({ ...tapOn(node, g), duration_ms: 50 });
      expect(r?.error?.code).toBe('STALE');
      return (r?.timings.ended_at ?? 0) - (r?.timings.started_at ?? 0);
    };
    expect(await took(moved)).toBe(40 + 50); // by view id: complete, no walk
    // By text, the lookup finds "Pair new device" but not that identity (no such node without an
    // id): a text lookup is not complete, so the helper walks the tree before it may say "gone".
    expect(
      await took({ ...guard, resource_id: '', text: 'Pair new device', class_name: 'android.widget.TextView' }),
    ).toBe(40 + 300 + 50);
    // Neither id nor text: Android has no query for it, the helper walks the tree.
    expect(await took({ ...guard, resource_id: '', text: '', desc: '' })).toBe(300 + 50);
    expect(h.phone.foreground().activity).toContain('BluetoothSettings');
  });
});
