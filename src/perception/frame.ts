import { bmvbhash } from 'blockhash-core';
import sharp from 'sharp';
import { boxDownscale, type Rgba } from './downscale.js';

/**
 * The screenshot channel: decode, correct a capture that lacks the status bar, downscale to 720 on
 * the long side (configurable 720–1080), and a blockhash perceptual hash for frame diffing.
 *
 * The hash is a cheap "has anything moved?" signal for waiting (skip the LLM while a page loads).
 * It barely sees a toggle flip or a changed digit, so it is NEVER the only evidence that an action
 * worked: validation uses the tree (page hash, element state, expected text) for that.
 */

// libvips' operation cache keeps recent decodes (up to 50 MB) in case the same input comes back.
// Every screenshot is a new buffer, so it never hits; it only holds memory, and fresh memory is
// what costs here: faulting in an 18 MB decode took ~55 ms on the benchmark VM, reusing it ~1 ms.
sharp.cache(false);

export const DEFAULT_LONG_SIDE = 720;
/** Bits of the 256-bit hash (16×16 blocks). */
export const HASH_BITS = 16;
/** At most this many differing bits = the same frame (a blinking caret, anti-aliasing noise). */
export const SAME_FRAME_MAX_DISTANCE = 6;

export interface FrameOptions {
  /** Long side of the downscaled frame, clamped to 720..1080. */
  longSide?: number;
  /** Rows missing at the top, in screenshot pixels, when the capture says so (helper `offsetY`). */
  offsetY?: number;
}

/** A decoded frame: RGBA bytes, row-major. */
export type RawImage = Rgba;

export interface Frame {
  /** 64 hex chars (256 bits). */
  hash: string;
  /** The downscaled full-screen frame (status bar strip restored as black rows when it was missing). */
  scaled: RawImage;
  source: { width: number; height: number };
  /** Rows of the full screen missing at the top of the capture, in screenshot pixels (0 = full). */
  offsetY: number;
  /** How offsetY was obtained. */
  offsetSource: 'none' | 'given' | 'detected';
  /** Decode (libvips, PNG → RGBA) and the box downscale (JavaScript) are timed apart. */
  timings: { decodeMs: number; downscaleMs: number; hashMs: number };
}

export function clampLongSide(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_LONG_SIDE;
  return Math.min(1080, Math.max(720, Math.round(n)));
}

/**
 * A capture narrower in height than the screen (at the same scale) lacks the status bar: some
 * Android versions' takeScreenshot crop it, while the tree's bounds are full-screen.
 */
export function detectMissingTop(img: { width: number; height: number }, screen: { w: number; h: number }): number {
  if (screen.w <= 0 || screen.h <= 0) return 0;
  const scale = img.width / screen.w;
  const expected = screen.h * scale;
  const missing = Math.round(expected - img.height);
  // A status bar is 2–12 % of the height; anything else is a different problem (rotation, crop).
  return missing >= 2 && missing <= expected * 0.12 ? missing : 0;
}

export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) return Math.max(a.length, b.length) * 4;
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    let x = Number.parseInt(a[i], 16) ^ Number.parseInt(b[i], 16);
    while (x) {
      d += x & 1;
      x >>= 1;
    }
  }
  return d;
}

export function sameFrame(a: string, b: string, maxDistance = SAME_FRAME_MAX_DISTANCE): boolean {
  return hammingDistance(a, b) <= maxDistance;
}

export async function prepareFrame(
  image: Buffer,
  screen: { w: number; h: number },
  opts: FrameOptions = {},
): Promise<Frame> {
  const t0 = performance.now();
  const decoded = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = decoded.info;
  if (width <= 0 || height <= 0 || decoded.info.channels !== 4) throw new Error('image has no size');
  const t1 = performance.now();
  let offsetY = 0;
  let offsetSource: Frame['offsetSource'] = 'none';
  if (opts.offsetY !== undefined && opts.offsetY > 0) {
    offsetY = opts.offsetY;
    offsetSource = 'given';
  } else {
    const missing = detectMissingTop({ width, height }, screen);
    if (missing > 0) {
      offsetY = missing;
      offsetSource = 'detected';
    }
  }
  const fullH = height + offsetY;
  const longSide = clampLongSide(opts.longSide);
  const scale = Math.min(1, longSide / Math.max(width, fullH));
  const outW = Math.max(1, Math.round(width * scale));
  const bodyH = Math.max(1, Math.round(height * scale));
  // The missing status-bar strip comes back as black rows so frame coordinates are full-screen ones.
  const padTop = Math.round(offsetY * scale);
  const scaled = await boxDownscale({ data: decoded.data, width, height, channels: 4 }, outW, bodyH, padTop);
  const t2 = performance.now();
  const hash = await frameHash(scaled);
  const t3 = performance.now();
  return {
    hash,
    scaled,
    source: { width, height },
    offsetY,
    offsetSource,
    timings: { decodeMs: t1 - t0, downscaleMs: t2 - t1, hashMs: t3 - t2 },
  };
}

/**
 * blockhash (16×16 blocks, 256 bits) of a frame. The frame is box-averaged into a 64×64 thumbnail
 * first: blockhash then takes its exact even-block path, whose block means are those of the
 * 720 px frame, at a fraction of the cost of its fractional-block path.
 */
export async function frameHash(frame: RawImage): Promise<string> {
  // 4×4 thumbnail pixels per block: block sums keep sub-level precision, and the arrays stay small.
  return bmvbhash(await thumbnail(frame, HASH_BITS * 4), HASH_BITS);
}

async function thumbnail(frame: RawImage, side: number): Promise<RawImage> {
  const { width: w, height: h, data } = frame;
  if (w >= side && h >= side) return boxDownscale(frame, side, side);
  // Smaller than the thumbnail: nearest-neighbour upsampling keeps every block filled.
  const out = new Uint8Array(side * side * 4);
  for (let ty = 0; ty < side; ty++) {
    const sy = Math.min(h - 1, Math.floor((ty * h) / side));
    for (let tx = 0; tx < side; tx++) {
      const si = (sy * w + Math.min(w - 1, Math.floor((tx * w) / side))) * 4;
      const ti = (ty * side + tx) * 4;
      out[ti] = data[si];
      out[ti + 1] = data[si + 1];
      out[ti + 2] = data[si + 2];
      out[ti + 3] = 255;
    }
  }
  return { width: side, height: side, data: out, channels: 4 };
}

/** Encode a frame for the LLM or the run archive. */
export async function encodeFrame(frame: RawImage, format: 'png' | 'jpeg' = 'jpeg', quality = 80): Promise<Buffer> {
  const img = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 4 } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg({ quality }).toBuffer();
}

/**
 * The loop's frame gate: while waiting for a page to load, an unchanged frame means there is
 * nothing new to decide on, so the LLM call can be skipped. A changed frame (or the first one)
 * opens the gate. It is a cost saver, not a validator.
 */
export class FrameGate {
  private last: string | undefined;
  private unchanged = 0;

  constructor(private readonly maxDistance = SAME_FRAME_MAX_DISTANCE) {}

  /** Feed the next frame hash; `skip` = same as the previous frame. */
  check(hash: string): { skip: boolean; distance: number; unchangedFrames: number } {
    if (this.last === undefined) {
      this.last = hash;
      return { skip: false, distance: Number.POSITIVE_INFINITY, unchangedFrames: 0 };
    }
    const distance = hammingDistance(this.last, hash);
    const skip = distance <= this.maxDistance;
    this.unchanged = skip ? this.unchanged + 1 : 0;
    // Keep the reference until the gate opens, so a slow drift (a progress bar) accumulates and
    // eventually opens it instead of hiding under the threshold frame after frame.
    if (!skip) this.last = hash;
    return { skip, distance, unchangedFrames: this.unchanged };
  }

  reset(): void {
    this.last = undefined;
    this.unchanged = 0;
  }

  /** Its reference frame and count, as data (the agent's run state is plain data). */
  toJSON(): FrameGateState {
    return { last: this.last, unchanged: this.unchanged };
  }

  static fromJSON(v: FrameGateState): FrameGate {
    const g = new FrameGate();
    g.last = v.last;
    g.unchanged = v.unchanged;
    return g;
  }
}

export interface FrameGateState {
  last?: string;
  unchanged: number;
}
