import type { Deadline } from '../../core/clock.js';
import type { PxPoint, Rect } from '../../core/geometry.js';
import type { Element, Observation } from '../../core/types.js';
import type { CapturedScreenshot, Device } from '../../device/device.js';
import { findGuarded, guardFor } from '../../device/protocol/guard.js';
import type { WireNode, WireSnapshot } from '../../device/protocol/index.js';
import type { Perceiver } from '../../executor/observe.js';
import type { SkillResult } from '../../executor/skill-step.js';
import { readSliderInScreenshot, FRAME_VALUE_TOLERANCE as SLIDER_TOLERANCE } from '../../perception/slider-frame.js';

/**
 * The `set_slider` skill: set a range control to a share of its track by dragging its thumb, the
 * way a finger does, where no native set is available (plain adb). The thumb and the track come
 * from the screenshot (perception/slider-frame.ts) inside the control's bounds — from the bounds
 * alone, inset by the platform's thumb offset, when the picture shows no track. It drags from the
 * thumb to the target point, slowly (a drag, not a fling), reads where the thumb rests — the tree's
 * range when it has one, else the frame — and corrects twice at most. A value it cannot read is
 * reported as such (`uncertain`): it never claims a value it did not see.
 */

export interface SliderReport {
  status: 'reached' | 'uncertain' | 'failed';
  /** Percent of the track asked for. */
  target: number;
  /** Percent read back, when read. */
  reached?: number;
  from?: 'tree' | 'frame';
  moves: number;
  reason?: string;
}

export type SliderResult = SkillResult<SliderReport>;

const MAX_MOVES = 3;
/** Slow enough that no widget takes it for a fling, fast enough to feel like a finger. */
const DRAG_MS = 600;
const SETTLE_MS = 300;
/** Android's default SeekBar thumb offset (16 dp): the track's inset inside the bounds. */
const THUMB_OFFSET_DP = 16;

interface Seen {
  snap: WireSnapshot;
  shot?: CapturedScreenshot;
  node?: WireNode;
  track?: { left: number; right: number };
  thumbX?: number;
  /** 0..1, where read. */
  fraction?: number;
  from?: 'tree' | 'frame';
  why?: string;
}

const pct = (f: number) => Math.round(f * 1000) / 10;

/** Where the slider stands now: the tree's range, else the picture. */
async function look(device: Device, slider: Element, d: Deadline): Promise<Seen | { error: string }> {
  const r = await device.snapshot({ screenshot: true }, d);
  if (!r.ok) return { error: `the screen could not be read (${r.message})` };
  const node = findGuarded(r.snapshot, guardFor(slider));
  const seen: Seen = { snap: r.snapshot, shot: r.screenshot, node };
  if (!node) return { ...seen, why: 'the slider is no longer on screen' };
  const frame = r.screenshot
    ? await readSliderInScreenshot(r.screenshot.png, node.bounds, r.screenshot.offsetY)
    : { ok: false as const, reason: 'the device gave no screenshot' };
  if (frame.ok) {
    seen.track = { left: frame.reading.trackLeft, right: frame.reading.trackRight };
    seen.thumbX = frame.reading.thumbX;
    seen.fraction = frame.reading.fraction;
    seen.from = 'frame';
  } else seen.why = frame.reason;
  const range = node.range;
  if (range && range.max > range.min) {
    seen.fraction = (range.current - range.min) / (range.max - range.min);
    seen.from = 'tree';
  }
  return seen;
}

/** The track inside the bounds when the picture shows none: Android insets it by the thumb offset. */
function trackOf(seen: Seen, bounds: Rect, density: number): { left: number; right: number } {
  if (seen.track) return seen.track;
  const inset = Math.min((bounds.right - bounds.left) / 4, (THUMB_OFFSET_DP * density) / 160);
  return { left: bounds.left + inset, right: bounds.right - inset };
}

function straight(a: PxPoint, b: PxPoint, n = 8): PxPoint[] {
  return Array.from({ length: n + 1 }, (_, i) => ({
    x: Math.round(a.x + ((b.x - a.x) * i) / n),
    y: Math.round(a.y + ((b.y - a.y) * i) / n),
  }));
}

export async function setSlider(
  deps: { device: Device; perceive: Perceiver },
  req: { slider: Element; percent: number; obs: Observation },
  d: Deadline,
): Promise<SliderResult> {
  const target = Math.min(100, Math.max(0, req.percent));
  const f = target / 100;
  let reads = 0;
  let moves = 0;
  let dispatched = false;
  let last: Seen | undefined;
  const finish = async (report: Omit<SliderReport, 'target' | 'moves'>): Promise<SliderResult> => {
    const post = last ? await deps.perceive(last.snap, last.shot, req.obs) : undefined;
    return { report: { target, moves, ...report }, post, reads, dispatched };
  };
  if (!Number.isFinite(req.percent))
    return finish({ status: 'failed', reason: 'set_slider needs value: a percent of the track, 0..100' });
  let aimX: number | undefined;
  for (;;) {
    reads++;
    const s = await look(deps.device, req.slider, d);
    if ('error' in s) return finish({ status: moves ? 'uncertain' : 'failed', reason: s.error });
    last = s;
    const node = s.node;
    if (!node) return finish({ status: moves ? 'uncertain' : 'failed', reason: s.why });
    if (moves > 0 && s.fraction === undefined)
      return finish({
        status: 'uncertain',
        reason: `dragged the thumb to ${target}% of the track, but its value cannot be read (${s.why ?? 'no value in the tree'}): look at it, or read a text that shows it`,
      });
    if (s.fraction !== undefined && Math.abs(pct(s.fraction) - target) <= SLIDER_TOLERANCE)
      return finish({ status: 'reached', reached: pct(s.fraction), from: s.from });
    if (moves >= MAX_MOVES)
      return finish({
        status: 'failed',
        reached: s.fraction === undefined ? undefined : pct(s.fraction),
        from: s.from,
        reason: `the thumb rests at ${s.fraction === undefined ? 'an unknown value' : `${pct(s.fraction)}%`} after ${moves} drags; call set_slider again or drag it yourself`,
      });
    if (d.remaining() <= DRAG_MS + SETTLE_MS)
      return finish({ status: moves ? 'uncertain' : 'failed', reason: 'the time ran out before the slider was set' });
    const b = node.bounds;
    const track = trackOf(s, b, s.snap.screen.density);
    const width = track.right - track.left;
    // First aim at the point on the track; then correct by what the last drag missed. The ends
    // are pressed past the track (a slider clamps there) so the minimum is the minimum.
    aimX = aimX === undefined || s.fraction === undefined ? track.left + f * width : aimX + (f - s.fraction) * width;
    const endX = f <= 0 ? b.left + 1 : f >= 1 ? b.right - 2 : Math.min(b.right - 2, Math.max(b.left + 1, aimX));
    const y = Math.round((b.top + b.bottom) / 2);
    // From the thumb when it is seen; else from a little before the target (a touch on the track
    // moves the thumb to the finger on Android, so the drag still ends where it should).
    const fromX = s.thumbX ?? Math.min(b.right - 2, Math.max(b.left + 1, endX - 0.1 * width));
    const path = straight({ x: fromX, y }, { x: endX, y });
    const call = await deps.device.swipe(path, { durationMs: DRAG_MS }, d);
    if (!call.ok) {
      if (call.receipt.delivery !== 'not_delivered') dispatched = true;
      return finish({ status: dispatched ? 'uncertain' : 'failed', reason: `the drag failed: ${call.message}` });
    }
    dispatched = true;
    moves++;
    await d.sleep(Math.min(SETTLE_MS, Math.max(0, d.remaining())));
  }
}

/** The percent it read back, as the history shows it (never the percent asked for). */
export function sliderReadings(value: unknown): string[] {
  const r = value as SliderReport | undefined;
  return r && typeof r.reached === 'number' ? [`${r.reached}%`] : [];
}

/** The history's line: what was asked, what was read and from where, or why nothing could be. */
export function sliderSummary(value: unknown): string | undefined {
  const r = value as SliderReport | undefined;
  if (!r || typeof r.target !== 'number') return undefined;
  const read =
    r.reached !== undefined ? `reads ${r.reached}% (from the ${r.from === 'tree' ? 'tree' : 'screenshot'})` : '';
  if (r.status === 'reached') return `slider set: asked ${r.target}%, ${read} after ${r.moves} drag(s)`;
  return `slider ${r.status}: asked ${r.target}%${read ? `, ${read}` : ''}; ${r.reason ?? ''}`.trim();
}
