import type { Element } from '../core/types.js';
import type { RawImage } from './frame.js';

/**
 * Tree ↔ screenshot cross-check (DESIGN §4, article §2.1): when the tree says there is text where
 * the screenshot is blank, or the two were taken at different screen revisions, the observation is
 * mid-transition (or the capture is misaligned) and the loop should wait a frame instead of acting.
 */

export interface CrossCheckInput {
  /** Full-screen frame (status-bar strip already restored), any scale. */
  frame?: RawImage;
  elements: readonly Element[];
  /** Screen revision of the tree and of the screenshot, when the device reports both. */
  treeSeq?: number;
  screenshotSeq?: number;
  /** Normalized rows at the top restored as black (a cropped capture): not judged. */
  skipTop?: number;
}

/** Luminance standard deviation below this = a uniform (blank) region. */
const BLANK_STDDEV = 2.5;
/** Regions smaller than this many frame pixels are too small to judge. */
const MIN_REGION_PX = 24;

export function regionStdDev(
  img: RawImage,
  norm: { left: number; top: number; right: number; bottom: number },
): number | undefined {
  const x0 = Math.max(0, Math.floor((norm.left / 1000) * img.width));
  const x1 = Math.min(img.width, Math.ceil((norm.right / 1000) * img.width));
  const y0 = Math.max(0, Math.floor((norm.top / 1000) * img.height));
  const y1 = Math.min(img.height, Math.ceil((norm.bottom / 1000) * img.height));
  const n = (x1 - x0) * (y1 - y0);
  if (n < MIN_REGION_PX) return undefined;
  let sum = 0;
  let sumSq = 0;
  const { data, width } = img;
  for (let y = y0; y < y1; y++) {
    let i = (y * width + x0) * 4;
    for (let x = x0; x < x1; x++, i += 4) {
      const l = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
      sum += l;
      sumSq += l * l;
    }
  }
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sumSq / n - mean * mean));
}

/** A reason to wait a frame, or undefined when the two channels agree. */
export function crossCheck(input: CrossCheckInput): string | undefined {
  if (input.treeSeq !== undefined && input.screenshotSeq !== undefined && input.treeSeq !== input.screenshotSeq) {
    return `tree (revision ${input.treeSeq}) and screenshot (revision ${input.screenshotSeq}) were taken at different moments`;
  }
  const img = input.frame;
  if (!img) return undefined;
  // Text the tree claims is drawn: visible, non-empty, not a password, not inside a canvas.
  const skipTop = input.skipTop ?? 0;
  const texty = input.elements.filter(
    (e) => (e.text.trim() !== '' || (!e.actionable && e.desc !== '')) && !e.flags.password && e.bounds.top >= skipTop,
  );
  let judged = 0;
  let blank = 0;
  const blankLabels: string[] = [];
  for (const e of texty) {
    const sd = regionStdDev(img, e.bounds);
    if (sd === undefined) continue;
    judged++;
    if (sd < BLANK_STDDEV) {
      blank++;
      if (blankLabels.length < 3) blankLabels.push(JSON.stringify((e.text || e.desc).slice(0, 24)));
    }
  }
  if (judged >= 3 && blank / judged >= 0.5) {
    return `${blank} of ${judged} text regions are blank in the screenshot (${blankLabels.join(', ')}): mid-transition or misaligned capture`;
  }
  if (judged > 0 && judged < 3 && blank === judged) {
    return `the screenshot is blank where the tree shows ${blankLabels.join(', ')}`;
  }
  return undefined;
}
