import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DecisionSchema, ObservationSchema } from '../core/types.js';
import { maskString } from './mask.js';

/**
 * The run's action journal, `journal.jsonl` (DESIGN §6): one line per dispatched action, appended
 * and fsync'd right before the action is sent, with the screen it was decided on. The checkpoint
 * written after the step records its result, so the last line whose step is past the checkpoint's
 * is the action that was in flight when the process died: a resume judges it on the phone instead
 * of deciding it again. A line torn by a kill mid-write was never followed by a dispatch and is
 * skipped.
 */

export const JOURNAL_FILE = 'journal.jsonl';

export const JournalEntrySchema = z.object({
  step: z.number(),
  /** Clock ms when it was journaled. */
  at: z.number(),
  decision: DecisionSchema,
  /** The observation the action was decided on (no screenshot path, no notes): its pre-state. */
  pre: ObservationSchema,
  /** The subgoal it served, and whether it completes that subgoal. */
  subgoal: z.number(),
  subgoalDone: z.boolean(),
  /** Set for a guarded action: the summary its consent was given for. */
  guarded: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export function journalPath(runDir: string): string {
  return path.join(runDir, JOURNAL_FILE);
}

/**
 * Append one entry and make it durable before returning (one write + one fdatasync). Known secret
 * values are masked wherever they occur, as in the archive.
 */
export async function appendJournal(
  runDir: string,
  entry: JournalEntry,
  secrets: readonly string[] = [],
): Promise<void> {
  const { screenshot: _s, notes: _n, ...obs } = entry.pre;
  // Values only: a key-based mask would turn the elements' `password` flag into a string.
  const mask = (_k: string, v: unknown) => (typeof v === 'string' && secrets.length ? maskString(v, secrets) : v);
  const fh = await open(journalPath(runDir), 'a');
  try {
    // Each entry starts on a line of its own: one torn by a kill never swallows the next.
    await fh.write(`\n${JSON.stringify({ ...entry, pre: obs }, mask)}`);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/** The newest complete entry, if the journal has one (a missing file is an empty journal). */
export async function lastJournalEntry(runDir: string): Promise<JournalEntry | undefined> {
  const file = journalPath(runDir);
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  const lines = text.split('\n').filter((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i] as string);
    } catch {
      // Torn by a kill mid-append: that action was never sent.
      continue;
    }
    const parsed = JournalEntrySchema.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `${file} line ${i + 1} is not a journal entry (${parsed.error.issues[0]?.message}); move the file away to resume without it`,
      );
    return parsed.data;
  }
  return undefined;
}
