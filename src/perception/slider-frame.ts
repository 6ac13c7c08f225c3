import sharp from 'sharp';
import type { Rect } from '../core/geometry.js';
import type { Observation } from '../core/types.js';
import type { Rgba } from './downscale.js';

/**
 * A slider read off the screenshot, for trees that carry no value (a uiautomator dump has no
 * progress): inside the control's bounds, the track is the thin line of ink across its middle
 * and the thumb the tallest run of ink on it (a dot, a bar). Where no thumb stands out, the end of
 * the track's active colour is taken. The value is where the thumb stands between the track's
 * ends, as a fraction; what cannot be found is said, never guessed.
 */

export interface SliderReading {
  /** Screen pixels (full screen, status bar included). */
  trackLeft: number;
  trackRight: number;
  thumbX: number;
  /** 0..1 along the track. */
  fraction: number;
  /** How the position was found. */
  by: 'thumb' | 'colour';
}

export type SliderRead = { ok: true; reading: SliderReading } | { ok: false; reason: string };

/** Percent of the track a value read off the frame may be off (a finger's pixel on a phone's track). */
export const FRAME_VALUE_TOLERANCE = 2;

/** Colour difference (sum over RGB) from the background that counts as ink. */
const INK = 60;
const SAME_COLOUR = 40;

interface Crop {
  data: Uint8Array;
  width: number;
  height: number;
}

function px(c: Crop, x: number, y: number): [number, number, number] {
  const i = (y * c.width + x) * 4;
  return [c.data[i] ?? 0, c.data[i + 1] ?? 0, c.data[i + 2] ?? 0];
}

const diff = (a: readonly number[], b: readonly number[]) =>
  Math.abs((a[0] ?? 0) - (b[0] ?? 0)) + Math.abs((a[1] ?? 0) - (b[1] ?? 0)) + Math.abs((a[2] ?? 0) - (b[2] ?? 0));

/** The reading inside a decoded crop of the control (x, y relative to the crop). */
export function readSliderCrop(
  c: Crop,
):
  | { ok: true; trackLeft: number; trackRight: number; thumbX: number; by: 'thumb' | 'colour' }
  | { ok: false; reason: string } {
  const { width: w, height: h } = c;
  if (w < 16 || h < 4) return { ok: false, reason: 'the control is too small in the screenshot' };
  // The background: the colour of the crop's left and right edges at the top (outside the track).
  const bg = px(c, 0, 0);
  const mid = Math.floor(h / 2);
  // Per column: the run of ink through the middle row (±2 rows, for a track drawn off-centre).
  const run = new Array<number>(w).fill(0);
  for (let x = 0; x < w; x++) {
    let row = -1;
    for (const dy of [0, -1, 1, -2, 2]) {
      const y = mid + dy;
      if (y >= 0 && y < h && diff(px(c, x, y), bg) > INK) {
        row = y;
        break;
      }
    }
    if (row < 0) continue;
    let top = row;
    let bottom = row;
    while (top > 0 && diff(px(c, x, top - 1), bg) > INK) top--;
    while (bottom < h - 1 && diff(px(c, x, bottom + 1), bg) > INK) bottom++;
    run[x] = bottom - top + 1;
  }
  const inked = run.map((r, x) => (r > 0 ? x : -1)).filter((x) => x >= 0);
  if (inked.length < w * 0.3) return { ok: false, reason: 'no track across the control in the screenshot' };
  // The track's thickness: the most common run among inked columns (the thumb is few columns).
  const counts = new Map<number, number>();
  for (const x of inked) counts.set(run[x] ?? 0, (counts.get(run[x] ?? 0) ?? 0) + 1);
  const thickness = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 1;
  const tall = (x: number) => (run[x] ?? 0) >= Math.max(thickness * 2, thickness + 4);
  const thin = inked.filter((x) => !tall(x));
  // The thumb: the widest contiguous run of tall columns.
  let best: [number, number] | undefined;
  for (let x = 0; x < w; x++) {
    if (!tall(x)) continue;
    let e = x;
    while (e + 1 < w && tall(e + 1)) e++;
    if (!best || e - x > best[1] - best[0]) best = [x, e];
    x = e;
  }
  if (best && best[1] - best[0] >= 2) {
    const thumbX = (best[0] + best[1]) / 2;
    // A round thumb's edges are thin too: within its radius (half its height) they are not track.
    let radius = 0;
    for (let x = best[0]; x <= best[1]; x++) radius = Math.max(radius, (run[x] ?? 0) / 2);
    const track = thin.filter((x) => Math.abs(x - thumbX) > radius + 1);
    // A thumb at an end stands over the track's end: the end is under its centre.
    const lo = Math.min(thumbX, ...track);
    const hi = Math.max(thumbX, ...track);
    return { ok: true, trackLeft: lo, trackRight: hi, thumbX, by: 'thumb' };
  }
  const lo = thin.length ? Math.min(...thin) : (inked[0] ?? 0);
  const hi = thin.length ? Math.max(...thin) : (inked[inked.length - 1] ?? w - 1);
  // No thumb: the active part of the track is drawn in another colour; its end is the value.
  const active = px(c, lo, mid);
  let end = lo;
  for (let x = lo; x <= hi; x++) if (run[x] && diff(px(c, x, mid), active) <= SAME_COLOUR) end = x;
  if (end <= lo + 1 && diff(px(c, hi, mid), active) <= SAME_COLOUR)
    return { ok: false, reason: 'the track is drawn in one colour and no thumb stands out' };
  return { ok: true, trackLeft: lo, trackRight: hi, thumbX: end, by: 'colour' };
}

/**
 * Read a slider whose bounds are `box` (screen pixels) off a PNG screenshot of the screen;
 * `offsetY`: rows of the screen missing at the top of the picture (a capture without the status bar).
 */
export async function readSliderInScreenshot(png: Buffer, box: Rect, offsetY = 0): Promise<SliderRead> {
  try {
    const meta = await sharp(png).metadata();
    const W = meta.width ?? 0;
    const H = meta.height ?? 0;
    const left = Math.max(0, Math.round(box.left));
    const top = Math.max(0, Math.round(box.top - offsetY));
    const width = Math.min(W - left, Math.round(box.right - box.left));
    const height = Math.min(H - top, Math.round(box.bottom - box.top));
    if (width < 16 || height < 4) return { ok: false, reason: 'the control is not inside the screenshot' };
    const { data, info } = await sharp(png)
      .extract({ left, top, width, height })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const r = readSliderCrop({ data, width: info.width, height: info.height });
    if (!r.ok) return r;
    const span = r.trackRight - r.trackLeft;
    if (span < width * 0.3) return { ok: false, reason: 'the track found is too short to read a value from' };
    return {
      ok: true,
      reading: {
        trackLeft: left + r.trackLeft,
        trackRight: left + r.trackRight,
        thumbX: left + r.thumbX,
        fraction: Math.min(1, Math.max(0, (r.thumbX - r.trackLeft) / span)),
        by: r.by,
      },
    };
  } catch (e) {
    return { ok: false, reason: `the screenshot could not be decoded (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** A region of a full-screen frame (normalized 0..1000 bounds) as its own crop. */
function cropOf(img: Rgba, box: Rect): Crop | undefined {
  const x0 = Math.max(0, Math.floor((box.left / 1000) * img.width));
  const x1 = Math.min(img.width, Math.ceil((box.right / 1000) * img.width));
  const y0 = Math.max(0, Math.floor((box.top / 1000) * img.height));
  const y1 = Math.min(img.height, Math.ceil((box.bottom / 1000) * img.height));
  const width = x1 - x0;
  const height = y1 - y0;
  if (width < 16 || height < 4) return undefined;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    data.set(img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x1) * 4), y * width * 4);
  return { data, width, height };
}

/**
 * Fuse the frame into the tree (DESIGN §4): a slider the tree gives no value (a uiautomator dump
 * has no progress) gets the one its picture shows, as a percent marked `fromFrame`. `frame` is the
 * full-screen frame perception downscaled (any scale: the bounds are normalized).
 */
export function slidersFromFrame(obs: Observation, frame: Rgba): void {
  for (const e of obs.elements) {
    if (e.role !== 'SeekBar' || e.range || !e.actionable) continue;
    const c = cropOf(frame, e.bounds);
    const r = c ? readSliderCrop(c) : undefined;
    if (!r?.ok || r.trackRight - r.trackLeft < (c?.width ?? 0) * 0.3) continue;
    const current = Math.round(((r.thumbX - r.trackLeft) / (r.trackRight - r.trackLeft)) * 100);
    e.range = { min: 0, max: 100, current: Math.min(100, Math.max(0, current)), fromFrame: true };
  }
}
