import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendJournal, JOURNAL_FILE, JournalEntrySchema } from '../src/store/action-journal.js';

/**
 * What the action journal costs a step (DESIGN §6/§10, issue 12): the size of the entries the
 * runs in `runsDir` wrote, and the time of one append + fdatasync of such an entry, measured
 * alone (inside a run it is counted as device time, with the dispatch it precedes).
 */

export interface JournalCost {
  entries: number;
  medianBytes: number;
  medianMs: number;
  p95Ms: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

export async function journalCost(runsDir: string, appends = 200): Promise<JournalCost | undefined> {
  const lines: string[] = [];
  for (const run of await readdir(runsDir).catch(() => [] as string[])) {
    const text = await readFile(path.join(runsDir, run, JOURNAL_FILE), 'utf8').catch(() => '');
    lines.push(...text.split('\n').filter(Boolean));
  }
  if (!lines.length) return undefined;
  const sample = JournalEntrySchema.parse(JSON.parse(lines[Math.floor(lines.length / 2)] as string));
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-journal-'));
  const ms: number[] = [];
  try {
    for (let i = 0; i < appends; i++) {
      const t = performance.now();
      await appendJournal(dir, { ...sample, step: i + 1 });
      ms.push(performance.now() - t);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    entries: lines.length,
    medianBytes: quantile(
      lines.map((l) => Buffer.byteLength(l)),
      0.5,
    ),
    medianMs: quantile(ms, 0.5),
    p95Ms: quantile(ms, 0.95),
  };
}
