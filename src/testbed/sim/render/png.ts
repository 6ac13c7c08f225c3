import sharp from 'sharp';
import type { Frame } from '../engine/frame.js';
import { frameToSvg } from './svg.js';

/**
 * PNG screenshots, rendered lazily from a frame's SVG and cached per (revision, crop), since agents
 * often take several screenshots of an unchanged screen.
 */
export class ScreenshotCache {
  private readonly cache = new Map<string, Promise<Buffer>>();
  constructor(private readonly capacity = 6) {}

  render(frame: Frame, cropTop: number): Promise<Buffer> {
    const key = `${frame.revision}:${frame.takenAt}:${cropTop}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = renderPng(frame, cropTop);
      this.cache.set(key, hit);
      hit.catch(() => this.cache.delete(key));
      while (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    }
    return hit;
  }
}

export async function renderPng(frame: Frame, cropTop = 0): Promise<Buffer> {
  const svg = Buffer.from(frameToSvg(frame));
  let img = sharp(svg, { density: 72 });
  if (cropTop > 0) {
    const { width, height } = frame.screen;
    img = img.extract({ left: 0, top: cropTop, width, height: height - cropTop });
  }
  return img.png({ compressionLevel: 6 }).toBuffer();
}
