import os from 'node:os';
import sharp from 'sharp';

/**
 * Area-average (box) downscaling of decoded RGBA pixels, in JavaScript.
 *
 * Why not libvips: a screenshot is an RGBA PNG, so sharp premultiplies the alpha channel and
 * resamples in floating point — about 28 ms for 1440×3120 → 720 on the benchmark machine, more
 * than the whole perception budget. Screenshots are opaque, so the alpha can be ignored, and a box
 * filter is the right one for shrinking UI (every source pixel counts once, text does not alias).
 * Two channels at a time are summed in the 16-bit lanes of one 32-bit integer (R|B and G|A), which
 * is exact while a box holds at most 257 pixels (257 × 255 < 2^16); larger boxes go to libvips.
 */

export interface Rgba {
  /** width × height × 4 bytes, row-major, R G B A. */
  data: Uint8Array;
  width: number;
  height: number;
  channels: 4;
}

/** The most pixels one box may sum without a 16-bit lane overflowing. */
export const MAX_BOX_PIXELS = Math.floor(0xffff / 255);

const littleEndian = os.endianness() === 'LE';

/** Output column/row i covers source [edges[i], edges[i + 1]). */
function edges(source: number, out: number): Int32Array {
  const e = new Int32Array(out + 1);
  for (let i = 0; i <= out; i++) e[i] = Math.round((i * source) / out);
  return e;
}

/** A 32-bit view of the pixels, copying only when the buffer is not 4-byte aligned. */
function pixels32(img: Rgba): Uint32Array {
  const { data } = img;
  const n = img.width * img.height;
  if (data.byteOffset % 4 === 0) return new Uint32Array(data.buffer, data.byteOffset, n);
  return new Uint32Array(Uint8Array.from(data.subarray(0, n * 4)).buffer);
}

/**
 * Shrink `img` to outW × outH (each at most the source size) by averaging boxes, then put
 * `padTop` opaque black rows above it (a capture that lacked the status bar). Alpha comes out 255.
 */
export async function boxDownscale(img: Rgba, outW: number, outH: number, padTop = 0): Promise<Rgba> {
  const { width: w, height: h } = img;
  if (!(outW >= 1 && outH >= 1 && outW <= w && outH <= h) || img.data.length < w * h * 4) {
    throw new RangeError(`boxDownscale: cannot shrink ${w}×${h} (${img.data.length} bytes) to ${outW}×${outH}`);
  }
  const boxW = Math.ceil(w / outW);
  const boxH = Math.ceil(h / outH);
  const body =
    littleEndian && boxW * boxH <= MAX_BOX_PIXELS
      ? boxAverage(pixels32(img), w, h, outW, outH)
      : await libvipsShrink(img, outW, outH);
  if (padTop <= 0) return { data: body, width: outW, height: outH, channels: 4 };
  const out = new Uint8Array(outW * (outH + padTop) * 4);
  const black = new Uint32Array(out.buffer, 0, outW * padTop);
  black.fill(littleEndian ? 0xff000000 : 0x000000ff);
  out.set(body, outW * padTop * 4);
  return { data: out, width: outW, height: outH + padTop, channels: 4 };
}

function boxAverage(src: Uint32Array, w: number, h: number, outW: number, outH: number): Uint8Array {
  const xs = edges(w, outW);
  const ys = edges(h, outH);
  const out = new Uint32Array(outW * outH);
  const rowRB = new Uint32Array(outW);
  const rowGA = new Uint32Array(outW);
  for (let oy = 0; oy < outH; oy++) {
    rowRB.fill(0);
    rowGA.fill(0);
    const y0 = ys[oy];
    const y1 = ys[oy + 1];
    for (let y = y0; y < y1; y++) {
      const base = y * w;
      for (let ox = 0; ox < outW; ox++) {
        let rb = 0;
        let ga = 0;
        const end = base + xs[ox + 1];
        for (let i = base + xs[ox]; i < end; i++) {
          const p = src[i];
          rb += p & 0xff00ff;
          ga += (p >>> 8) & 0xff00ff;
        }
        rowRB[ox] += rb;
        rowGA[ox] += ga;
      }
    }
    const rows = y1 - y0;
    const o = oy * outW;
    for (let ox = 0; ox < outW; ox++) {
      const n = (xs[ox + 1] - xs[ox]) * rows;
      const half = n >> 1;
      const rb = rowRB[ox];
      const ga = rowGA[ox];
      const r = (((rb & 0xffff) + half) / n) | 0;
      const g = (((ga & 0xffff) + half) / n) | 0;
      const b = (((rb >>> 16) + half) / n) | 0;
      out[o + ox] = (r | (g << 8) | (b << 16) | 0xff000000) >>> 0;
    }
  }
  return new Uint8Array(out.buffer);
}

/** Boxes too large for the 16-bit lanes (or a big-endian host): libvips, slower but general. */
async function libvipsShrink(img: Rgba, outW: number, outH: number): Promise<Uint8Array> {
  const raw = { width: img.width, height: img.height, channels: 4 as const };
  const buf = await sharp(img.data, { raw }).resize(outW, outH, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  const out = new Uint8Array(buf);
  for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return out;
}
