import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendJournal, type JournalEntry, journalPath, lastJournalEntry } from '../../src/store/action-journal.js';
import { look, newPhone, open } from '../perception/phone.js';

let dir: string;
let pre: JournalEntry['pre'];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-journal-'));
  const phone = newPhone();
  await open(phone, 'com.android.settings');
  pre = (await look(phone, { screenshot: false })).observation;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (step: number, text = 'hello'): JournalEntry => ({
  step,
  at: step * 10,
  decision: { thought: 't', action: { tool: 'type', text }, expect: { kind: 'no_change' } },
  pre,
  subgoal: 0,
  subgoalDone: false,
});

describe('action journal', () => {
  it('no file is an empty journal; the newest entry comes back whole', async () => {
    expect(await lastJournalEntry(dir)).toBeUndefined();
    await appendJournal(dir, entry(1));
    await appendJournal(dir, entry(2));
    const last = await lastJournalEntry(dir);
    expect(last?.step).toBe(2);
    expect(last?.pre.elements.map((e) => e.id)).toEqual(pre.elements.map((e) => e.id));
  });

  it('a line torn by a kill is skipped, and the next append is not swallowed by it', async () => {
    await appendJournal(dir, entry(1));
    const whole = await readFile(journalPath(dir), 'utf8');
    await appendFile(journalPath(dir), `\n${whole.trim().slice(0, 120)}`);
    expect((await lastJournalEntry(dir))?.step).toBe(1);
    await appendJournal(dir, entry(3));
    expect((await lastJournalEntry(dir))?.step).toBe(3);
  });

  it('masks known secret values and keeps the flags typed', async () => {
    await appendJournal(dir, entry(1, 'Pw-93x!'), ['Pw-93x!']);
    const text = await readFile(journalPath(dir), 'utf8');
    expect(text).not.toContain('Pw-93x!');
    expect((await lastJournalEntry(dir))?.pre.elements[0]?.flags.password).toBe(false);
  });

  it('an entry that is not one names the file and says what to do', async () => {
    await writeFile(journalPath(dir), '{"step":"one"}\n');
    await expect(lastJournalEntry(dir)).rejects.toThrow(
      /journal\.jsonl line 1 is not a journal entry.*move the file away/,
    );
  });
});
