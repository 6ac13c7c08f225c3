import { describe, expect, it } from 'vitest';
import { MAP_01 } from '../../regression-tasks/tasks/map-01.js';
import { emptyResult } from '../../src/agent/session.js';
import type { RunResult } from '../../src/agent/types.js';
import { hammingDistance, prepareFrame, SAME_FRAME_MAX_DISTANCE } from '../../src/perception/frame.js';
import { distanceM, PLACES, toMerc, worldPx } from '../../src/testbed/sim/apps/maps-data.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import type { Stroke } from '../../src/testbed/sim/surface.js';
import { byId, byText, tapNode } from './engine-helpers.js';

/** Maps: a canvas-only map (one "Map" node) that pinch zooms around the fingers and drag pans. */

async function openMaps(seed = 1) {
  const phone = new VirtualPhone({ seed });
  await phone.launch('com.example.maps');
  await phone.clock.sleep(400);
  const map = byId(await phone.readTree(), 'map');
  const box = map.bounds;
  const centre = { x: Math.round((box.left + box.right) / 2), y: Math.round((box.top + box.bottom) / 2) };
  return { phone, box, centre };
}

function pinchAt(c: { x: number; y: number }, from: number, to: number): Stroke[] {
  return [
    {
      points: [
        { x: c.x - from / 2, y: c.y, t: 0 },
        { x: c.x - to / 2, y: c.y, t: 300 },
      ],
    },
    {
      points: [
        { x: c.x + from / 2, y: c.y, t: 0 },
        { x: c.x + to / 2, y: c.y, t: 300 },
      ],
    },
  ];
}

async function frameHash(phone: VirtualPhone): Promise<string> {
  const s = await phone.screenshot();
  return (await prepareFrame(s.png, { w: s.width, h: s.height })).hash;
}

/** The lat/lon drawn at canvas pixel `p` (world state + the projection). */
function latLonAt(
  phone: VirtualPhone,
  box: { left: number; top: number; right: number; bottom: number },
  p: { x: number; y: number },
) {
  const s = phone.world.maps;
  if (!s) throw new Error('no map state');
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  const c = toMerc(s.center.lat, s.center.lon);
  const wp = worldPx(s.zoom, w);
  const mx = c.x + (p.x - box.left - w / 2) / wp;
  const my = c.y + (p.y - box.top - h / 2) / wp;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * my))) * 180) / Math.PI;
  return { lat, lon: mx * 360 - 180 };
}

describe('Maps app', () => {
  it('exposes only the map container (described "Map") and a search box; the map is pixels only', async () => {
    const { phone } = await openMaps();
    const tree = await phone.readTree();
    const map = byId(tree, 'map');
    expect(map.desc).toBe('Map');
    expect(map.className).toBe('android.view.TextureView');
    expect(tree.nodes.some((n) => n.parent === map.id)).toBe(false);
    expect(byId(tree, 'search').flags.editable).toBe(true);
    expect(phone.world.maps?.zoom).toBe(10);
  });

  it('pinching out zooms in by the finger ratio around the centre; pinching in zooms out; the frame changes', async () => {
    const { phone, centre } = await openMaps();
    const before = { ...phone.world.maps!.center };
    const h0 = await frameHash(phone);
    const r = await phone.gesture(pinchAt(centre, 200, 500));
    expect(r.ok).toBe(true);
    const s = phone.world.maps!;
    expect(s.zoom).toBeCloseTo(10 + Math.log2(2.5), 2);
    expect(distanceM(before, s.center)).toBeLessThan(50);
    const h1 = await frameHash(phone);
    expect(hammingDistance(h0, h1)).toBeGreaterThan(SAME_FRAME_MAX_DISTANCE);

    await phone.gesture(pinchAt(centre, 600, 150));
    expect(phone.world.maps!.zoom).toBeCloseTo(10 + Math.log2(2.5) - 2, 2);
    // The tree did not change at all: only the screenshot shows the zoom.
    expect(byId(await phone.readTree(), 'map').desc).toBe('Map');
  });

  it('zooms around the fingers: the place between them stays between them', async () => {
    const { phone, box } = await openMaps();
    const focus = { x: box.left + Math.round((box.right - box.left) * 0.25), y: box.top + 400 };
    const under = latLonAt(phone, box, focus);
    const oldCentre = { ...phone.world.maps!.center };
    await phone.gesture(pinchAt(focus, 200, 400));
    expect(phone.world.maps!.zoom).toBeCloseTo(11, 2);
    expect(distanceM(under, latLonAt(phone, box, focus))).toBeLessThan(30);
    // The centre moved toward the fingers (west and north of the old centre).
    expect(phone.world.maps!.center.lon).toBeLessThan(oldCentre.lon);
    expect(phone.world.maps!.center.lat).toBeGreaterThan(oldCentre.lat);
  });

  it('a one-finger drag pans the map with the finger', async () => {
    const { phone, box, centre } = await openMaps();
    const grabbed = latLonAt(phone, box, centre);
    expect((await phone.swipe(centre.x, centre.y, centre.x - 300, centre.y + 200, 400)).ok).toBe(true);
    // What was under the finger is under it again where the finger stopped.
    const now = latLonAt(phone, box, { x: centre.x - 300, y: centre.y + 200 });
    expect(distanceM(grabbed, now)).toBeLessThan(30);
    expect(phone.world.maps!.zoom).toBe(10);
  });

  it('search lists matching places; tapping one centres the map on it and closes the keyboard', async () => {
    const { phone } = await openMaps();
    const field = byId(await phone.readTree(), 'search');
    await tapNode(phone, field);
    await phone.inputText('tower');
    const tree = await phone.readTree();
    const names = tree.nodes.filter((n) => n.resourceId.endsWith(':id/suggestion_name')).map((n) => n.text);
    expect(names).toEqual(expect.arrayContaining(['Eiffel Tower', 'Tokyo Tower', 'Oriental Pearl Tower']));
    expect(names).not.toContain('Big Ben');
    await tapNode(phone, byText(tree, 'Tokyo Tower'));
    await phone.clock.sleep(400);
    const s = phone.world.maps!;
    const tokyo = PLACES.find((p) => p.name === 'Tokyo Tower')!;
    expect(distanceM(s.center, tokyo)).toBeLessThan(1);
    expect(s.zoom).toBe(12);
    expect(s.selected).toBe('Tokyo Tower');
    const after = await phone.readTree();
    expect(after.windows.some((w) => w.type === 'input_method')).toBe(false);
    expect(byId(after, 'place_name').text).toBe('Tokyo Tower');
    expect(byId(after, 'search').text).toBe('Tokyo Tower');
  });

  it('a query that matches nothing says so', async () => {
    const { phone } = await openMaps();
    await tapNode(phone, byId(await phone.readTree(), 'search'));
    await phone.inputText('Atlantis');
    expect(byId(await phone.readTree(), 'no_results').text).toBe('No results');
  });

  it('a locked (frozen) map takes the pinch and changes nothing, in state or pixels', async () => {
    const { phone, centre } = await openMaps();
    phone.world.maps!.locked = true;
    const h0 = await frameHash(phone);
    const png0 = (await phone.screenshot()).png;
    expect((await phone.gesture(pinchAt(centre, 200, 500))).ok).toBe(true);
    expect(phone.world.maps!.zoom).toBe(10);
    expect((await phone.screenshot()).png.equals(png0)).toBe(true);
    expect(hammingDistance(h0, await frameHash(phone))).toBe(0);
  });
});

describe('MAP-01 check', () => {
  const done: RunResult = { ...emptyResult('r', '', ''), status: 'done', steps: 7 };
  const params = { place: 'Colosseum', z: '15' };

  it('accepts the place at the zoom asked for, rejects too little zoom, the wrong place, or no done', async () => {
    const { phone } = await openMaps();
    const s = phone.world.maps!;
    const colosseum = PLACES.find((p) => p.name === 'Colosseum')!;
    const check = () => MAP_01.check(phone.world, done, params, phone);
    s.center = { lat: colosseum.lat, lon: colosseum.lon };
    s.zoom = 15.9;
    expect(await check()).toEqual({ ok: true });
    s.zoom = 14.6;
    expect((await check()).ok).toBe(false);
    s.zoom = 16;
    const bigBen = PLACES.find((p) => p.name === 'Big Ben')!;
    s.center = { lat: bigBen.lat, lon: bigBen.lon };
    expect((await check()).ok).toBe(false);
    // A pan of about a kilometre away from the place is not "showing" it centred.
    s.center = { lat: colosseum.lat + 0.01, lon: colosseum.lon };
    expect((await check()).ok).toBe(false);
    s.center = { lat: colosseum.lat, lon: colosseum.lon };
    expect((await MAP_01.check(phone.world, { ...done, status: 'failed' }, params, phone)).ok).toBe(false);
  });
});
