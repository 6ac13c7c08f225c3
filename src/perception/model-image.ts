import sharp from 'sharp';
import { type ImageFormat, imageDataUrl } from '../core/image-format.js';
import type { Element, Observation } from '../core/types.js';

/**
 * The screenshot as the model gets it: the whole screen fit inside 512 px, or — when it asks to
 * zoom — a full-resolution crop: on an element, the control and its row (the row it belongs to and
 * whatever shares its line: a Settings row's switch sits at the row's far end, not at its middle);
 * on a point, half the screen's width and a quarter of its height around it. Encoded as the model's
 * configured format (LlmConfig.imageFormat).
 */

export interface ModelImageRequest {
  target_id?: string;
  point?: { x: number; y: number };
}

/** Long side of the whole-screen image (the crop keeps its pixels). */
export const MODEL_IMAGE_SIDE = 512;
const JPEG_QUALITY = 70;

type Box = { left: number; top: number; right: number; bottom: number };

const union = (a: Box, b: Box): Box => ({
  left: Math.min(a.left, b.left),
  top: Math.min(a.top, b.top),
  right: Math.max(a.right, b.right),
  bottom: Math.max(a.bottom, b.bottom),
});

const contains = (a: Box, b: Box) => a.left <= b.left && a.top <= b.top && a.right >= b.right && a.bottom >= b.bottom;

/** A row is at most this share of the screen's height: a taller container is a list or a page. */
const ROW_MAX_SHARE = 1 / 6;

/**
 * The pixels around an element worth seeing with it: its actionable ancestor (the row a label
 * belongs to) and any row-sized element around it (the row a switch sits in), then every element
 * of its window whose vertical middle lies on that row's band and which is no taller than the row
 * (a row's switch, icon and value; not the list around it).
 */
export function rowBox(el: Element, elements: readonly Element[], screenH = Number.POSITIVE_INFINITY): Box {
  const parent = el.actionableAncestorId ? elements.find((e) => e.id === el.actionableAncestorId) : undefined;
  let row: Box = parent ? union(el.boundsPx, parent.boundsPx) : el.boundsPx;
  for (const e of elements) {
    const b = e.boundsPx;
    if (e.window === el.window && contains(b, row) && b.bottom - b.top <= screenH * ROW_MAX_SHARE) row = union(row, b);
  }
  const height = row.bottom - row.top;
  for (const e of elements) {
    const b = e.boundsPx;
    const mid = (b.top + b.bottom) / 2;
    if (e.window !== el.window || mid < row.top || mid > row.bottom || b.bottom - b.top > height) continue;
    row = union(row, b);
  }
  return row;
}

/** A crop of at least `min` (w, h) around `box`, padded, inside the screen. */
function cropAround(box: Box, screen: { w: number; h: number }, min: { w: number; h: number }) {
  const pad = Math.round(screen.h * 0.02);
  const w = Math.min(screen.w, Math.max(min.w, box.right - box.left + 2 * pad));
  const h = Math.min(screen.h, Math.max(min.h, box.bottom - box.top + 2 * pad));
  const cx = (box.left + box.right) / 2;
  const cy = (box.top + box.bottom) / 2;
  const left = Math.max(0, Math.min(screen.w - w, Math.round(cx - w / 2)));
  const top = Math.max(0, Math.min(screen.h - h, Math.round(cy - h / 2)));
  return { left, top, width: Math.round(w), height: Math.round(h) };
}

/**
 * A crop in screen pixels as pixels of the screenshot: a recorded screenshot may be downscaled (DroidBot's
 * graphs) or a little off the screen's size, and sharp refuses an area outside the image.
 */
export function toImagePixels(
  crop: { left: number; top: number; width: number; height: number },
  screen: { w: number; h: number },
  image: { w: number; h: number },
) {
  const sx = image.w / screen.w;
  const sy = image.h / screen.h;
  const left = Math.min(image.w - 1, Math.max(0, Math.round(crop.left * sx)));
  const top = Math.min(image.h - 1, Math.max(0, Math.round(crop.top * sy)));
  const width = Math.max(1, Math.min(image.w - left, Math.round(crop.width * sx)));
  const height = Math.max(1, Math.min(image.h - top, Math.round(crop.height * sy)));
  return { left, top, width, height };
}

export async function encodeModelImage(
  screenshot: Uint8Array,
  obs: Pick<Observation, 'screen' | 'elements'>,
  req: ModelImageRequest,
  format: ImageFormat,
): Promise<string> {
  let img = sharp(screenshot);
  const { w, h } = obs.screen;
  const el = req.target_id ? obs.elements.find((e) => e.id === req.target_id) : undefined;
  const half = { w: Math.round(w / 2), h: Math.round(h / 4) };
  let crop: ReturnType<typeof cropAround> | undefined;
  if (el) crop = cropAround(rowBox(el, obs.elements, h), obs.screen, { w: half.w, h: Math.round(h / 8) });
  else if (req.point) {
    const p = { x: (req.point.x / 1000) * w, y: (req.point.y / 1000) * h };
    crop = cropAround({ left: p.x, top: p.y, right: p.x, bottom: p.y }, obs.screen, half);
  }
  if (crop) {
    const meta = await img.metadata();
    img = img.extract(toImagePixels(crop, obs.screen, { w: meta.width ?? w, h: meta.height ?? h }));
  } else img = img.resize({ width: MODEL_IMAGE_SIDE, height: MODEL_IMAGE_SIDE, fit: 'inside' });
  const bytes = format === 'png' ? await img.png().toBuffer() : await img.jpeg({ quality: JPEG_QUALITY }).toBuffer();
  return imageDataUrl(bytes);
}
