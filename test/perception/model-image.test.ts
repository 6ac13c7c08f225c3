import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageDataUrl, sniffImageType } from '../../src/core/image-format.js';
import type { Element } from '../../src/core/types.js';
import { encodeModelImage, MODEL_IMAGE_SIDE, rowBox } from '../../src/perception/model-image.js';

/**
 * The screenshot the model gets: its bytes are the configured format, the data URL says what the
 * bytes are, and the whole screen fits inside 512 px while a zoom is a full-resolution crop.
 */

const W = 1080;
const H = 2400;

async function screenshot(): Promise<Buffer> {
  // A top half red, a bottom half blue: a crop shows which part of the screen it took.
  const half = Buffer.alloc(W * (H / 2) * 3);
  const top = Buffer.from(half.map((_, i) => (i % 3 === 0 ? 220 : 20)));
  const bottom = Buffer.from(half.map((_, i) => (i % 3 === 2 ? 220 : 20)));
  return sharp(Buffer.concat([top, bottom]), { raw: { width: W, height: H, channels: 3 } })
    .png()
    .toBuffer();
}

const obs = (elements: Partial<Element>[] = []) => ({
  screen: { w: W, h: H, aspect: W / H, rotation: 0 },
  elements: elements as Element[],
});

function decode(url: string): { type: string; bytes: Buffer } {
  const m = /^data:([^;]+);base64,(.*)$/s.exec(url);
  if (!m?.[1] || m[2] === undefined) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}`);
  return { type: m[1], bytes: Buffer.from(m[2], 'base64') };
}

describe('encodeModelImage', () => {
  for (const format of ['png', 'jpeg'] as const) {
    it(`encodes the whole screen as ${format}, fit inside ${MODEL_IMAGE_SIDE} px, and says so in the data URL`, async () => {
      const { type, bytes } = decode(await encodeModelImage(await screenshot(), obs(), {}, format));
      expect(type).toBe(`image/${format}`);
      expect(sniffImageType(bytes)).toBe(`image/${format}`);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe(format);
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(MODEL_IMAGE_SIDE);
      expect(meta.width).toBe(Math.round((MODEL_IMAGE_SIDE * W) / H));
    });
  }

  it('zooms on a target: its row at full resolution, at least half the width and an eighth of the height', async () => {
    const target = { id: 'aa', boundsPx: { left: 400, top: 2000, right: 680, bottom: 2100 } };
    const url = await encodeModelImage(await screenshot(), obs([target]), { target_id: 'aa' }, 'png');
    const { bytes } = decode(url);
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([W / 2, H / 8]);
    // The crop is from the blue bottom half; the whole screen's image would start red.
    expect(data[2]).toBeGreaterThan(200);
    expect(data[0]).toBeLessThan(50);
    // A point zooms on half the width and a quarter of the height; near the top edge the crop stays inside the screen.
    const top = decode(await encodeModelImage(await screenshot(), obs(), { point: { x: 500, y: 10 } }, 'jpeg'));
    const px = await sharp(top.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([px.info.width, px.info.height]).toEqual([W / 2, H / 4]);
    expect(px.data[0]).toBeGreaterThan(200);
  });

  it("a row's label zooms on the whole row: the switch at the row's far end is in the picture", async () => {
    // A Settings row: the row (actionable), its label at the left, its switch at the right end.
    const row = { id: 'row', window: 1, boundsPx: { left: 0, top: 600, right: W, bottom: 760 } };
    const label = {
      id: 'lbl',
      window: 1,
      actionableAncestorId: 'row',
      boundsPx: { left: 48, top: 640, right: 400, bottom: 720 },
    };
    const toggle = { id: 'sw', window: 1, boundsPx: { left: 900, top: 640, right: 1032, bottom: 720 } };
    // A list around the row is taller than the row: not part of it.
    const list = { id: 'list', window: 1, boundsPx: { left: 0, top: 300, right: W, bottom: 2000 } };
    const els = obs([row, label, toggle, list]);
    for (const id of ['row', 'lbl', 'sw']) {
      const { bytes } = decode(await encodeModelImage(await screenshot(), els, { target_id: id }, 'png'));
      const meta = await sharp(bytes).metadata();
      // The whole width (label to switch), a short band around the row — not the list.
      expect([id, meta.width]).toEqual([id, W]);
      expect(meta.height).toBeLessThan(H / 4);
    }
    expect(rowBox(label as Element, els.elements, H)).toEqual({ left: 0, top: 600, right: W, bottom: 760 });
    expect(rowBox(toggle as Element, els.elements, H)).toEqual({ left: 0, top: 600, right: W, bottom: 760 });
  });

  it('refuses bytes that are neither PNG nor JPEG instead of labelling them', () => {
    expect(() => imageDataUrl(Buffer.from('GIF89a'))).toThrow(/neither PNG nor JPEG/);
  });
});

describe('a zoom on a downscaled screenshot (DroidBot graphs record screenshots smaller than the screen)', () => {
  it('crops the same part of the screen in the image’s own pixels instead of failing with "bad extract area"', async () => {
    const small = await sharp(await screenshot())
      .resize({ width: W / 4, height: H / 4 })
      .png()
      .toBuffer();
    const el = {
      id: 'e1',
      window: 0,
      boundsPx: { left: 100, top: 1900, right: 980, bottom: 2050 },
    } as Partial<Element>;
    const { bytes } = decode(await encodeModelImage(small, obs([el]), { target_id: 'e1' }, 'png'));
    const meta = await sharp(bytes).metadata();
    expect(meta.width).toBeLessThanOrEqual(W / 4);
    // The element lies in the blue bottom half: the crop must be blue, not the red top.
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[2]).toBeGreaterThan(150);
    expect(data[0]).toBeLessThan(100);
    const point = decode(await encodeModelImage(small, obs(), { point: { x: 990, y: 995 } }, 'png'));
    expect((await sharp(point.bytes).metadata()).height).toBeGreaterThan(0);
  });
});
