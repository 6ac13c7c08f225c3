import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { boxDownscale, MAX_BOX_PIXELS, type Rgba } from '../../src/perception/downscale.js';

function noise(width: number, height: number, seed: number): Rgba {
  const rnd = seededRandom(seed);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
  return { data, width, height, channels: 4 };
}

/** The definition, one channel at a time: the mean of the source pixels each output pixel covers. */
function reference(img: Rgba, outW: number, outH: number): Uint8Array {
  const out = new Uint8Array(outW * outH * 4);
  const edge = (i: number, n: number, on: number) => Math.round((i * n) / on);
  for (let oy = 0; oy < outH; oy++) {
    for (let ox = 0; ox < outW; ox++) {
      const sums = [0, 0, 0];
      let n = 0;
      for (let y = edge(oy, img.height, outH); y < edge(oy + 1, img.height, outH); y++) {
        for (let x = edge(ox, img.width, outW); x < edge(ox + 1, img.width, outW); x++) {
          for (let c = 0; c < 3; c++) sums[c] += img.data[(y * img.width + x) * 4 + c];
          n++;
        }
      }
      for (let c = 0; c < 3; c++) out[(oy * outW + ox) * 4 + c] = Math.floor((sums[c] + (n >> 1)) / n);
      out[(oy * outW + ox) * 4 + 3] = 255;
    }
  }
  return out;
}

function maxDiff(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('boxDownscale', () => {
  it.each([
    [1440, 3120, 332, 720],
    [1080, 2400, 324, 720],
    [37, 91, 10, 23],
    [64, 64, 32, 32],
    [50, 50, 50, 50],
  ])('%i×%i → %i×%i equals the per-channel box mean exactly', async (w, h, ow, oh) => {
    const img = noise(w, h, w * h);
    const out = await boxDownscale(img, ow, oh);
    expect([out.width, out.height]).toEqual([ow, oh]);
    expect(maxDiff(out.data, reference(img, ow, oh))).toBe(0);
  });

  it('reads a buffer that is not 4-byte aligned', async () => {
    const img = noise(30, 40, 7);
    const shifted = new Uint8Array(img.data.length + 1);
    shifted.set(img.data, 1);
    const out = await boxDownscale({ ...img, data: shifted.subarray(1) }, 7, 9);
    expect(maxDiff(out.data, reference(img, 7, 9))).toBe(0);
  });

  it('a box of white at the lane limit stays white; larger boxes go to libvips and stay white too', async () => {
    const white = (w: number, h: number): Rgba => ({
      data: new Uint8Array(w * h * 4).fill(255),
      width: w,
      height: h,
      channels: 4,
    });
    // 16×16 = 256 pixels per box: the largest the 16-bit lanes hold (an overflow would spill into blue).
    expect(16 * 16).toBeLessThanOrEqual(MAX_BOX_PIXELS);
    const atLimit = await boxDownscale(white(32, 32), 2, 2);
    expect([...atLimit.data].every((v) => v === 255)).toBe(true);
    // 17×17 = 289 pixels per box: past the limit.
    expect(17 * 17).toBeGreaterThan(MAX_BOX_PIXELS);
    const past = await boxDownscale(white(34, 34), 2, 2);
    expect([...past.data].every((v) => v === 255)).toBe(true);
  });

  it('the libvips path for oversized boxes agrees with the box mean on a smooth image', async () => {
    const w = 40;
    const h = 6000;
    const data = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        data[i] = Math.floor((y / h) * 255);
        data[i + 1] = Math.floor((x / w) * 255);
        data[i + 2] = 128;
        data[i + 3] = 255;
      }
    }
    const img: Rgba = { data, width: w, height: h, channels: 4 };
    const out = await boxDownscale(img, 2, 240); // 20 × 25 = 500 pixels per box
    expect(maxDiff(out.data, reference(img, 2, 240))).toBeLessThanOrEqual(8);
  });

  it('puts opaque black rows on top for a capture that lacked the status bar', async () => {
    const img = noise(20, 40, 3);
    const out = await boxDownscale(img, 10, 20, 3);
    expect([out.width, out.height]).toEqual([10, 23]);
    const top = out.data.subarray(0, 10 * 3 * 4);
    for (let i = 0; i < top.length; i += 4) expect([...top.subarray(i, i + 4)]).toEqual([0, 0, 0, 255]);
    expect(maxDiff(out.data.subarray(10 * 3 * 4), reference(img, 10, 20))).toBe(0);
  });

  it('refuses to enlarge or to read past the buffer, saying what it was asked', async () => {
    const img = noise(10, 10, 1);
    await expect(boxDownscale(img, 11, 5)).rejects.toThrow(/cannot shrink 10×10 .* to 11×5/);
    await expect(boxDownscale({ ...img, height: 20 }, 5, 5)).rejects.toThrow(RangeError);
  });
});
