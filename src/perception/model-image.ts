import sharp from 'sharp';
import { type ImageFormat, imageDataUrl } from '../core/image-format.js';
import type { Observation } from '../core/types.js';

/**
 * The screenshot as the model gets it: the whole screen fit inside 512 px, or — when it asks to
 * zoom on an element or a point — a crop of half the screen's width and a quarter of its height
 * around it, at full resolution. Encoded as the model's configured format (LlmConfig.imageFormat).
 */

export interface ModelImageRequest {
  target_id?: string;
  point?: { x: number; y: number };
}

/** Long side of the whole-screen image (the crop keeps its pixels). */
export const MODEL_IMAGE_SIDE = 512;
const JPEG_QUALITY = 70;

export async function encodeModelImage(
  screenshot: Uint8Array,
  obs: Pick<Observation, 'screen' | 'elements'>,
  req: ModelImageRequest,
  format: ImageFormat,
): Promise<string> {
  let img = sharp(screenshot);
  const el = req.target_id ? obs.elements.find((e) => e.id === req.target_id) : undefined;
  const centre = el
    ? { x: (el.boundsPx.left + el.boundsPx.right) / 2, y: (el.boundsPx.top + el.boundsPx.bottom) / 2 }
    : req.point
      ? { x: (req.point.x / 1000) * obs.screen.w, y: (req.point.y / 1000) * obs.screen.h }
      : undefined;
  if (centre) {
    const w = Math.round(obs.screen.w / 2);
    const h = Math.round(obs.screen.h / 4);
    const left = Math.max(0, Math.min(obs.screen.w - w, Math.round(centre.x - w / 2)));
    const top = Math.max(0, Math.min(obs.screen.h - h, Math.round(centre.y - h / 2)));
    img = img.extract({ left, top, width: w, height: h });
  } else img = img.resize({ width: MODEL_IMAGE_SIDE, height: MODEL_IMAGE_SIDE, fit: 'inside' });
  const bytes = format === 'png' ? await img.png().toBuffer() : await img.jpeg({ quality: JPEG_QUALITY }).toBuffer();
  return imageDataUrl(bytes);
}
