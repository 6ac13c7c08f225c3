import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The run folder (DESIGN §6): `steps/NNN.json` for every step (observation, decision, receipt,
 * outcome, timings, tokens) and `steps/NNN.png` when a screenshot was taken. Typed text is redacted
 * by the caller before it gets here.
 */

export function newRunId(now: number, random: () => number = Math.random): string {
  const d = new Date(now);
  const stamp = d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${Math.floor(random() * 0xffff)
    .toString(16)
    .padStart(4, '0')}`;
}

export class RunArchive {
  readonly stepsDir: string;
  constructor(readonly dir: string) {
    this.stepsDir = path.join(dir, 'steps');
  }

  static async create(dir: string): Promise<RunArchive> {
    const a = new RunArchive(dir);
    await mkdir(a.stepsDir, { recursive: true });
    return a;
  }

  stepName(n: number): string {
    return String(n).padStart(3, '0');
  }

  /** The screen the run ended on (`steps/final.png`): each step's picture is the screen before it. */
  async writeFinal(png: Buffer): Promise<string> {
    const file = path.join(this.stepsDir, 'final.png');
    await writeFile(file, png);
    return file;
  }

  pngPath(n: number): string {
    return path.join(this.stepsDir, `${this.stepName(n)}.png`);
  }

  async writeStep(n: number, record: unknown, png?: Buffer): Promise<{ json: string; png?: string }> {
    const base = path.join(this.stepsDir, this.stepName(n));
    await writeFile(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
    if (png) await writeFile(`${base}.png`, png);
    return { json: `${base}.json`, png: png ? `${base}.png` : undefined };
  }
}
