import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Deadline } from '../../src/core/clock.js';
import type { Observation } from '../../src/core/types.js';
import { toolsForScreen } from '../../src/planner/screen-tools.js';
import { REGISTRY } from '../../src/tools/index.js';
import type { SliderReport } from '../../src/tools/set-slider/drag.js';
import { decision, makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/**
 * Sliders over plain adb (issue 21, items 19, 22–24): a uiautomator dump carries no progress, so
 * the brightness SeekBar is set by a drag from its thumb and read back off the screenshot; a point
 * tap lands on its point; a touch that moved the thumb is judged on the frame; a screenshot is of
 * the screen its dump describes.
 */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig();
});
afterAll(async () => {
  await rig?.close();
});

const pct = () => Math.round((rig.phone.world.settings.brightness / 255) * 100);
/** As `adb shell settings put` does: the screen redraws. */
const brightness = (v: number) => rig.phone.putSetting('system', 'screen_brightness', String(v));

async function display(): Promise<Observation> {
  await rig.phone.launch('com.android.settings', '.DisplaySettings');
  await rig.clock.sleep(500);
  const r = await makeExecutor(rig.adb, rig.clock).observe(undefined, { screenshot: true });
  if (!r.ok) throw new Error(r.message);
  return r.obs;
}

const seekBar = (o: Observation) => {
  const e = o.elements.find((x) => x.role === 'SeekBar');
  if (!e) throw new Error(`no SeekBar on ${o.app.activity}`);
  return e;
};

describe('a slider over plain adb', () => {
  beforeEach(() => {
    brightness(128);
  });

  it('the dump has no value: the screenshot gives it (≈%), and set_slider is offered where set_progress is not', async () => {
    const o = await display();
    const bar = seekBar(o);
    expect(bar.range).toMatchObject({ fromFrame: true, min: 0, max: 100 });
    expect(Math.abs((bar.range?.current ?? -1) - pct())).toBeLessThanOrEqual(2);
    const tools = toolsForScreen(o, REGISTRY.offered(rig.adb.capabilities()), REGISTRY.catalog);
    expect(tools).toEqual(expect.arrayContaining(['set_slider', 'read_control']));
    expect(tools).not.toContain('control_action');
  });

  it.each([10, 0, 100, 73])('set_slider %i drags the thumb there and reads it back off the frame', async (want) => {
    const o = await display();
    const ex = makeExecutor(rig.adb, rig.clock);
    const r = await ex.run(
      decision({ tool: 'set_slider', target_id: seekBar(o).id, args: { value: want } }, { kind: 'screen_changes' }),
      o,
    );
    const rep = r.value as SliderReport;
    expect(r.ok, r.error).toBe(true);
    expect(rep).toMatchObject({ status: 'reached', target: want, from: 'frame' });
    expect(Math.abs(pct() - want)).toBeLessThanOrEqual(2);
    expect(Math.abs((rep.reached ?? -1) - pct())).toBeLessThanOrEqual(2);
    expect(r.receipt.backend ?? r.receipt.method).toBe('adb');
  });

  it('read_control reads the value off a screenshot, and says so', async () => {
    brightness(64);
    const o = await display();
    const ex = makeExecutor(rig.adb, rig.clock);
    const r = await ex.run(decision({ tool: 'read_control', target_id: seekBar(o).id }, { kind: 'no_change' }), o);
    const c = r.value as { range?: { current: number }; range_source?: string; value_unreadable?: string };
    expect(c.range_source).toBe('frame');
    expect(Math.abs((c.range?.current ?? -1) - 25)).toBeLessThanOrEqual(2);
    expect(c.value_unreadable).toBeUndefined();
  });

  it('a point tap on the track lands on its point, with or without the id (not the track centre)', async () => {
    for (const withId of [false, true]) {
      brightness(128);
      const o = await display();
      const bar = seekBar(o);
      const x = Math.round(bar.bounds.left + 0.2 * (bar.bounds.right - bar.bounds.left));
      const y = Math.round((bar.bounds.top + bar.bounds.bottom) / 2);
      const ex = makeExecutor(rig.adb, rig.clock);
      const r = await ex.run(
        decision(
          { tool: 'tap', point: { x, y }, ...(withId ? { target_id: bar.id } : {}) },
          { kind: 'screen_changes' },
        ),
        o,
      );
      expect(r.ok, r.error).toBe(true);
      // The virtual SeekBar maps a touch over its whole width: 20% of the bounds is 20%.
      expect(Math.abs(pct() - 20), `with id: ${withId}`).toBeLessThanOrEqual(2);
    }
  });

  it('a swipe that moves the thumb is verified on the frame; a touch that moves nothing is "nothing changed"', async () => {
    const o = await display();
    const bar = seekBar(o);
    const ex = makeExecutor(rig.adb, rig.clock, { verification: 'full' });
    const moved = await ex.run(
      decision({ tool: 'swipe', target_id: bar.id, direction: 'right' }, { kind: 'screen_changes' }),
      o,
    );
    // The dump is the same before and after (no progress in it): only the frame shows the move.
    expect(moved.ok, moved.error).toBe(true);
    expect(pct()).toBeGreaterThan(55);
    // A tap where the thumb already is: it stays, and neither the tree nor the frame moves.
    brightness(128);
    const o2 = await display();
    const b2 = seekBar(o2);
    const stuck = await ex.run(
      decision(
        { tool: 'tap', target_id: b2.id, point: { x: 500, y: Math.round((b2.bounds.top + b2.bounds.bottom) / 2) } },
        { kind: 'screen_changes' },
      ),
      o2,
    );
    expect(stuck.ok).toBe(false);
    expect(stuck.error).toMatch(/nothing on the page changed/);
  });
});

describe('a screenshot over plain adb', () => {
  it('is of the screen its dump describes, even right after a tap starts a transition', async () => {
    await rig.phone.launch('com.android.settings', '.Settings');
    await rig.clock.sleep(500);
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await observe(ex);
    const row = o.elements.find((e) => e.actionable && /^Display/.test(e.label ?? ''));
    expect(row).toBeDefined();
    const c = row?.boundsPx ?? { left: 0, right: 0, top: 0, bottom: 0 };
    await rig.phone.tap((c.left + c.right) / 2, (c.top + c.bottom) / 2, 50);
    // The transition to Display runs 300 ms on the phone's clock; read at once.
    const r = await rig.adb.snapshot({ screenshot: true }, Deadline.after(rig.clock, 10_000));
    if (!r.ok || !r.screenshot) throw new Error('no snapshot');
    expect(r.snapshot.foreground.activity).toBe('.DisplaySettings');
    const settled = await rig.phone.screenshot();
    const raw = async (png: Buffer) => (await sharp(png).raw().toBuffer()).toString('base64');
    expect(await raw(r.screenshot.png)).toBe(await raw(settled.png));
  });
});
