import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { pinchArgs } from '../../src/tools/pinch.js';
import { bridgeRig, decision, el, makeExecutor, observe } from './helpers.js';

/**
 * The planner's pinch end to end on the virtual phone's Maps app, over the real bridge: the scale is
 * turned into finger distances, the map zooms by that much, and `frame_changes` is met by the
 * screenshot alone (the map's tree never changes). A frozen map takes the pinch and the same
 * expectation fails.
 */

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function onMap(locked = false, verification: 'full' | 'light' = 'full') {
  // A small screen: every verification read renders a screenshot here.
  rig = await bridgeRig({ seed: 3, screen: { width: 540, height: 1200, density: 210 } });
  await rig.phone.launch('com.example.maps');
  await rig.clock.sleep(500);
  if (locked && rig.phone.world.maps) rig.phone.world.maps.locked = true;
  const ex = makeExecutor(rig.device, rig.clock, { poll: { timeoutMs: 1_500, intervalMs: 250 }, verification });
  const obs = await observe(ex);
  return { rig, ex, obs, map: el(obs, 'Map') };
}

const pinch = (target_id: string, scale: number) =>
  decision({ tool: 'pinch', target_id, args: { scale } }, { kind: 'frame_changes' });

describe('pinch with a frame_changes expectation', () => {
  it('zooms the map by the scale; only the screenshot changed, and that meets the expectation', async () => {
    const { rig, ex, obs, map } = await onMap();
    const zoom0 = rig.phone.world.maps?.zoom ?? 0;
    const r = await ex.run(pinch(map.id, 2.5), obs);
    expect(r.receipt.error).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.outcome?.signals).toContain('frame_changed');
    // The tree is the same page: nothing but pixels could have confirmed it.
    expect(r.outcome?.signals).not.toContain('page_hash_changed');
    expect((rig.phone.world.maps?.zoom ?? 0) - zoom0).toBeCloseTo(Math.log2(2.5), 1);

    const out = await ex.run(pinch(map.id, 0.5), r.post as Observation);
    expect(out.ok).toBe(true);
    expect((rig.phone.world.maps?.zoom ?? 0) - zoom0).toBeCloseTo(Math.log2(2.5) - 1, 1);
  });

  it('fails when the map ignores the pinch (a frozen map): delivered, but no frame change', async () => {
    const { rig, ex, obs, map } = await onMap(true);
    const r = await ex.run(pinch(map.id, 2.5), obs);
    expect(r.receipt.delivery).toBe('delivered');
    expect(r.ok).toBe(false);
    expect(r.outcome?.reason).toMatch(/nothing on the page changed|screenshot did not change/);
    expect(rig.phone.world.maps?.zoom).toBe(10);
  });

  it('light verification also captures the frames a frame expectation needs', async () => {
    const { rig, ex, obs, map } = await onMap(false, 'light');
    const r = await ex.run(pinch(map.id, 2), obs);
    expect(r.ok).toBe(true);
    expect(r.receipt.pre?.frameHash).toEqual(expect.any(String));
    expect(r.receipt.post?.frameHash).not.toBe(r.receipt.pre?.frameHash);
    expect(rig.phone.world.maps?.zoom).toBeCloseTo(11, 1);
  });

  it('page_changes cannot confirm a pinch on a canvas: the tree is identical', async () => {
    const { ex, obs, map } = await onMap();
    const r = await ex.run(decision({ tool: 'pinch', target_id: map.id, args: { scale: 2 } }), obs);
    expect(r.ok).toBe(false);
    // Without frames the tree is all the evidence there is, and it did not move.
    expect(r.outcome?.reason).toMatch(/nothing on the page changed|page hash is the same/);
  });

  it('puts both fingers inside the target, on its longer axis, in the asked ratio', async () => {
    const { obs, map } = await onMap();
    const p = pinchArgs({ tool: 'pinch', target_id: map.id, args: { scale: 4 } }, obs);
    if (!p.ok) throw new Error(p.message);
    const a = p.args as { x: number; y: number; start_distance: number; end_distance: number; angle_degrees: number };
    expect(a.angle_degrees).toBe(90);
    expect(a.end_distance / a.start_distance).toBeCloseTo(4, 1);
    // Half the spread, in normalized y units (distances are per mille of the short side).
    const halfY = ((a.end_distance / 2) * obs.screen.w) / obs.screen.h;
    expect(a.y - halfY).toBeGreaterThan(map.bounds.top);
    expect(a.y + halfY).toBeLessThan(map.bounds.bottom);
    const gone = pinchArgs({ tool: 'pinch', target_id: 'deadbeef', args: { scale: 2 } }, obs);
    expect(gone.ok).toBe(false);
  });
});
