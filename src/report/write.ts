import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadRun } from './load.js';
import { renderReport } from './render.js';
import type { Shot } from './schema.js';

/**
 * Load, render and write a run's report. Screenshots are linked relative to the output file (so the
 * page works where it is written) or, with `inline`, embedded as data URLs (one file to send).
 */

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
  const images = new Map<string, string>();
  for (const shot of [...model.steps.map((s) => s.shot), model.final]) {
    if (!shot) continue;
    images.set(
      shot.rel,
      opts.inline ? await dataUrl(path.join(model.dir, shot.rel)) : relativeHref(out, model.dir, shot),
    );
  }
  const html = renderReport(model, { imageSrc: (s) => images.get(s.rel) ?? s.rel, generatedAt: opts.now });
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, html);
  return { path: out, bytes: Buffer.byteLength(html), steps: model.steps.length };
}

function relativeHref(outFile: string, runDir: string, shot: Shot): string {
  const rel = path.relative(path.dirname(outFile), path.join(runDir, shot.rel));
  return rel.split(path.sep).map(encodeURIComponent).join('/');
}

async function dataUrl(file: string): Promise<string> {
  const buf = await readFile(file).catch(() => undefined);
  return buf ? `data:image/png;base64,${buf.toString('base64')}` : '';
}
