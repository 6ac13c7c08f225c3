import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadRun } from './load.js';
import { renderReport } from './render.js';
import type { Shot } from './schema.js';

/**
 * Load, render and write a run's report. Screenshots are linked relative to the output file (so the
 * page works where it is written) or, with `inline`, embedded as small JPEGs (one file to send: a
 * 12-step run stays well under 1 MB; the PNGs in the run folder keep every pixel).
 */

/** Inline pictures: wide enough to read a label at the report's column width, small to send. */
const INLINE_WIDTH = 360;
const INLINE_QUALITY = 70;

export interface WriteReportOptions {
  /** Default: `<run>/report.html`. */
  out?: string;
  inline?: boolean;
  now?: number;
}

export async function writeReport(
  runDir: string,
  opts: WriteReportOptions = {},
): Promise<{ path: string; bytes: number; steps: number }> {
  const model = await loadRun(runDir);
  const out = path.resolve(opts.out ?? path.join(model.dir, 'report.html'));
  const shots = [...model.steps.map((s) => s.shot), model.final].filter((s): s is Shot => s !== undefined);
  const html = opts.inline
    ? renderReport(model, { ...(await inlinePictures(model.dir, shots)), generatedAt: opts.now })
    : renderReport(model, { imageSrc: (s) => relativeHref(out, model.dir, s), generatedAt: opts.now });
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, html);
  return { path: out, bytes: Buffer.byteLength(html), steps: model.steps.length };
}

/** A transparent pixel: the `<img>` keeps its size and alt text, the stylesheet paints the screen. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Each distinct screen once, as a class of the stylesheet. */
async function inlinePictures(
  runDir: string,
  shots: Shot[],
): Promise<{ imageSrc: () => string; imageClass: (s: Shot) => string | undefined; extraCss: string }> {
  const classOf = new Map<string, string>();
  const byData = new Map<string, string>();
  const css: string[] = [];
  for (const shot of shots) {
    if (classOf.has(shot.rel)) continue;
    const url = await dataUrl(path.join(runDir, shot.rel));
    if (!url) continue;
    let cls = byData.get(url);
    if (!cls) {
      cls = `pic${byData.size + 1}`;
      byData.set(url, cls);
      // The blank pixel's own shape is square: the screen's shape is set here.
      const ratio = shot.width && shot.height ? `aspect-ratio:${shot.width}/${shot.height};` : '';
      css.push(`img.${cls}{${ratio}background:url("${url}") center/100% 100% no-repeat}`);
    }
    classOf.set(shot.rel, cls);
  }
  return { imageSrc: () => BLANK, imageClass: (s) => classOf.get(s.rel), extraCss: css.join('\n') };
}

function relativeHref(outFile: string, runDir: string, shot: Shot): string {
  const rel = path.relative(path.dirname(outFile), path.join(runDir, shot.rel));
  return rel.split(path.sep).map(encodeURIComponent).join('/');
}

async function dataUrl(file: string): Promise<string> {
  const buf = await readFile(file).catch(() => undefined);
  if (!buf) return '';
  const jpeg = await sharp(buf)
    .resize({ width: INLINE_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: INLINE_QUALITY })
    .toBuffer()
    .catch(() => undefined);
  // A file sharp cannot read is embedded as it is: the page then shows what the run holds.
  return jpeg ? `data:image/jpeg;base64,${jpeg.toString('base64')}` : `data:image/png;base64,${buf.toString('base64')}`;
}
