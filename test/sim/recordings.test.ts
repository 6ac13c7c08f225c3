import { describe, expect, it } from 'vitest';
import { RECORDINGS_PACKAGE } from '../../src/testbed/sim/apps/recordings.js';
import { hms } from '../../src/testbed/sim/apps/recordings-data.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import type { Stroke } from '../../src/testbed/sim/surface.js';
import { byId, byText, centre, tapNode } from './engine-helpers.js';

/** Recordings: a pixel-drawn timeline with a cursor-bound readout, momentum, playback and decoys. */

async function open(seed = 1) {
  const phone = new VirtualPhone({ seed });
  await phone.launch(RECORDINGS_PACKAGE);
  await phone.clock.sleep(400);
  const s = phone.world.recordings;
  if (!s) throw new Error('no recordings state');
  const tl = byId(await phone.readTree(), 'timeline');
  return { phone, s, tl, c: centre(tl), width: tl.bounds.right - tl.bounds.left };
}

const readout = async (phone: VirtualPhone) => byId(await phone.readTree(), 'current_time').text;

function drag(c: { x: number; y: number }, dx: number, ms = 400): Stroke[] {
  return [
    {
      points: [
        { x: c.x - dx / 2, y: c.y, t: 0 },
        { x: c.x + dx / 2, y: c.y, t: ms },
      ],
    },
  ];
}

describe('the Recordings app', () => {
  it('draws the timeline in pixels only: one described node, no range, the readout as text', async () => {
    const { phone, s } = await open(2);
    const tree = await phone.readTree();
    const tl = byId(tree, 'timeline');
    expect(tl.text).toBe('');
    expect(tl.range).toBeUndefined();
    expect(await readout(phone)).toBe(hms(s.position));
    // The decoys are in the tree too, showing other times.
    expect(byId(tree, 'osd_watermark').text).toContain(hms(s.position + s.watermarkDriftSec));
    expect(byId(tree, 'event_time').text).toMatch(/^\d\d:\d\d:\d\d$/);
  });

  it('a pinch changes the span by scale^gamma, not by the fingers ratio', async () => {
    const { phone, s, c } = await open(3);
    const before = s.spanSec;
    const r = await phone.gesture([
      {
        points: [
          { x: c.x - 100, y: c.y, t: 0 },
          { x: c.x - 300, y: c.y, t: 400 },
        ],
      },
      {
        points: [
          { x: c.x + 100, y: c.y, t: 0 },
          { x: c.x + 300, y: c.y, t: 400 },
        ],
      },
    ]);
    expect(r.ok).toBe(true);
    expect(s.spanSec).toBeCloseTo(before / 3 ** s.gamma, 1);
    expect(s.spanSec).not.toBeCloseTo(before / 3, 0);
  });

  it('a drag coasts past the finger (with a bubble showing the release time) and settles on a second', async () => {
    const { phone, s, c, width } = await open(4);
    const start = s.position;
    const dx = -300;
    await phone.gesture(drag(c, dx));
    const finger = (-dx * s.spanSec) / width;
    const bubble = byId(await phone.readTree(), 'drag_bubble').text;
    expect(bubble).toBe(hms(start + finger));
    await phone.clock.sleep(1000);
    const shown = await readout(phone); // timers fire when the phone is read
    const moved = s.position - start;
    expect(moved).toBeGreaterThan(finger * 1.05);
    expect(Number.isInteger(s.position)).toBe(true);
    expect(shown).toBe(hms(s.position));
    expect((await phone.readTree()).nodes.some((n) => n.resourceId.endsWith(':id/drag_bubble'))).toBe(false);
  });

  it('plays one second per second of the clock until paused', async () => {
    const { phone, s } = await open(5);
    const before = (await phone.screenshot()).png;
    await tapNode(phone, byText(await phone.readTree(), 'Play'));
    const t0 = s.position;
    await phone.clock.sleep(5000);
    expect(await readout(phone)).toBe(hms(t0 + 5));
    expect(s.position - t0).toBe(5);
    // The picture moves with it (timeline, readout), not only the tree.
    expect((await phone.screenshot()).png.equals(before)).toBe(false);
    await tapNode(phone, byText(await phone.readTree(), 'Pause'));
    const t1 = s.position;
    await phone.clock.sleep(3000);
    expect(await readout(phone)).toBe(hms(t1));
    expect(s.position).toBe(t1);
    expect(s.playing).toBe(false);
  });

  it('a camera model without the readout shows no current time at all', async () => {
    const phone = new VirtualPhone({ seed: 6 });
    if (phone.world.recordings) phone.world.recordings.readout = false;
    await phone.launch(RECORDINGS_PACKAGE);
    await phone.clock.sleep(400);
    const tree = await phone.readTree();
    expect(tree.nodes.some((n) => n.resourceId.endsWith(':id/current_time'))).toBe(false);
    expect(byId(tree, 'timeline')).toBeDefined();
  });

  it('is reachable from the launcher (the drawer, page 2)', async () => {
    const phone = new VirtualPhone({ seed: 1 });
    await tapNode(phone, byId(await phone.readTree(), 'all_apps'));
    await phone.clock.sleep(300);
    await phone.swipe(900, 1200, 150, 1200, 300);
    const icon = (await phone.readTree()).nodes.find((n) => n.desc === 'Recordings' && n.flags.clickable);
    expect(icon).toBeDefined();
    if (icon) await tapNode(phone, icon);
    await phone.clock.sleep(400);
    expect((await phone.readTree()).foreground.package).toBe(RECORDINGS_PACKAGE);
  });
});
