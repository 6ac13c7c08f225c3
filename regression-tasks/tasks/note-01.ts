import { NOTE_TITLES, noteByTitle } from '../../src/testbed/sim/apps/notes-data.js';
import type { TaskDef } from '../types.js';

const NUMBER = (r: () => number) => `1555${Math.floor(r() * 9_000_000 + 1_000_000)}`;
/** English titles for the English instruction. */
const TITLES = NOTE_TITLES.filter((t) => /^[\x20-\x7e]+$/.test(t));

/**
 * NOTE-01: Notes → Share → Messages. The body travels through the share intent, so the text sent
 * must equal the note's body exactly (seeded per phone); the send is confirmed (SEND).
 */
export const NOTE_01: TaskDef = {
  id: 'NOTE-01',
  category: 'notes',
  tags: ['notes', 'messages', 'cross-app', 'share', 'guard', 'send', 'en'],
  instruction: 'Send the text of note "{title}" to {number} by SMS.',
  params: (r) => ({ title: TITLES[Math.floor(r() * TITLES.length)] ?? 'Gate code', number: NUMBER(r) }),
  check: (w, run, p) => {
    const note = noteByTitle(w, p.title ?? '');
    if (!note) return { ok: false, reason: `no note "${p.title}"` };
    return w.sent.length === 1 &&
      w.sent[0]?.body === note.body &&
      w.sent[0]?.to.replace(/\D/g, '') === p.number &&
      run.status === 'done'
      ? { ok: true }
      : {
          ok: false,
          reason: `sent=${JSON.stringify(w.sent)}, want body=${JSON.stringify(note.body)}, status=${run.status}`,
        };
  },
  guard: 'SEND',
  confirm: 'approve',
  optimalSteps: 8,
  intents: [
    'launch "Notes"',
    'tap "{title}"',
    // The share sheet opens over the note: Share stays under it.
    'tap "Share" keep',
    'tap "Messages"',
    'type "To" "{number}"',
    'tap "Send" keep',
    'done',
  ],
};
