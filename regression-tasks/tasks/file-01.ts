import { DOWNLOAD_NAMES, DOWNLOADS, seedDownloads, seededContent } from '../../src/testbed/sim/apps/files-data.js';
import type { World } from '../../src/testbed/sim/world.js';
import type { CheckResult, TaskDef } from '../types.js';

/** English names only: the instruction is English, and Chinese names are FILE-02's. */
const CANDIDATES = DOWNLOAD_NAMES.filter((n) => /^[\x20-\x7e]+$/.test(n));

/** Every seeded Download except `gone` still holds its seeded bytes; `gone` no longer exists. */
export function downloadsIntact(w: World, gone?: string): CheckResult {
  const changed = DOWNLOAD_NAMES.filter(
    (n) => n !== gone && !w.files.get(`${DOWNLOADS}/${n}`)?.equals(seededContent(n)),
  );
  if (changed.length) return { ok: false, reason: `other files changed or missing: ${changed.slice(0, 5).join(', ')}` };
  if (gone && w.files.has(`${DOWNLOADS}/${gone}`)) return { ok: false, reason: `${gone} still exists` };
  return { ok: true };
}

/** FILE-01: delete one file among 150 with confusable names; the delete is confirmed (DEL). */
export const FILE_01: TaskDef = {
  id: 'FILE-01',
  category: 'files',
  tags: ['files', 'guard', 'delete', 'long-list', 'search', 'en'],
  instruction: 'Delete {file} from Downloads.',
  params: (r) => ({ file: CANDIDATES[Math.floor(r() * CANDIDATES.length)] ?? 'invoice.pdf' }),
  setup: (phone) => seedDownloads(phone.world),
  check: (w, run, p) => {
    const files = downloadsIntact(w, p.file);
    if (!files.ok) return files;
    const deletes = w.events.filter((e) => e.kind === 'deleted');
    if (deletes.length !== 1) return { ok: false, reason: `${deletes.length} delete events` };
    return run.status === 'done' ? { ok: true } : { ok: false, reason: `status=${run.status}` };
  },
  guard: 'DEL',
  confirm: 'approve',
  optimalSteps: 8,
  intents: [
    'launch "Files"',
    'tap "Downloads"',
    'type "Search" "{file}"',
    'tap "{file}"',
    // The viewer's Delete stays under the confirmation it opens: the page changes, nothing goes.
    'tap "Delete" keep',
    'tap "Delete"',
    'done',
  ],
};
