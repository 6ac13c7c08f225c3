import type { DroidbotState } from '../../src/perception/droidbot/state.js';
import type { ReplayState } from '../../src/testbed/replay/graph.js';
import { normalizeText } from '../../src/testbed/replay/match.js';
import type { GoldTask } from './fixture.js';

/**
 * Where DroidTask's own data contradicts its gold steps (issue 22: "report those separately, do not
 * redefine the metric"): from that step on, a model that reads its screen and instruction sees a
 * goal the gold does not reach, and every relay player then corrected the field rather than take
 * the gold tap. Found from the data alone, never from a model's answers:
 * - **typed-shows-other**: a gold step types T into a field, and the next step's recorded screen shows
 *   that field (same resource id) holding another text, neither T nor what it showed before (messenger: "Morning" typed, "I-love-you"
 *   shown; notes: "events" typed, "rename" shown);
 * - **gold-text-not-instructed**: a gold input types a text that is not what the instruction quotes,
 *   only a part of it (notes: the instruction says '12345678', the gold types "123456"; a file name's
 *   stem, 'test' for 'test.ics', is what the app asks for);
 * - **gold-target-not-instructed**: the gold taps a file the instruction does not name, where it names
 *   one of that kind (filemanager: "play video2.mp4", the gold taps video1.mp4);
 * - **gold-taps-selected-radio**: the gold taps a radio button the screen shows selected already, which
 *   changes nothing (dialer: "Ascending", then OK); that step alone.
 * The step (for the first three, with the rest of its task) is flagged and its misses are counted apart
 * in the report; they still count as misses.
 */

export const CONTRADICTION_FLAG = 'recording-contradicts-gold';

export type ContradictionWhy =
  | 'typed-shows-other'
  | 'gold-text-not-instructed'
  | 'gold-target-not-instructed'
  | 'gold-taps-selected-radio';

const ridTail = (rid: string | null | undefined) => (rid ?? '').slice((rid ?? '').lastIndexOf('/') + 1);

function fields(state: DroidbotState | undefined): { rid: string; text: string }[] {
  return (state?.views ?? [])
    .filter((v) => v.editable === true && v.resource_id)
    .map((v) => ({ rid: ridTail(v.resource_id), text: normalizeText(v.text ?? '') }));
}

/** The values the instruction quotes. */
function quoted(instruction: string): string[] {
  const q = [...instruction.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => normalizeText(m[1] ?? m[2] ?? ''));
  return [...new Set(q.filter(Boolean))];
}

/** File names (`video2.mp4`), normalised. */
function fileNames(s: string): string[] {
  return [
    ...new Set(
      [...s.matchAll(/[\p{L}\p{N}_-]+\.(?:mp4|mp3|m4a|wav|jpg|jpeg|png|gif|txt|pdf|json|vcf|ics|zip|apk)\b/giu)].map(
        (m) => normalizeText(m[0]),
      ),
    ),
  ];
}
const ext = (f: string) => f.slice(f.lastIndexOf('.'));

/** A file name's stem: the app adds the extension itself (`test` typed for 'test.ics'). */
const stem = (s: string) => s.replace(/\.[a-z0-9]{2,4}$/, '');

/** Step number (1-based) → why, for every step from the first contradiction on. */
export function contradictions(
  task: GoldTask,
  states: ReadonlyMap<string, ReplayState>,
): Map<number, ContradictionWhy> {
  const named = quoted(task.instruction);
  let first: { step: number; why: ContradictionWhy } | undefined;
  const files = fileNames(task.instruction);
  for (const [k, step] of task.steps.entries()) {
    if (first) break;
    // The gold taps a file the instruction does not name, beside one it does (video1.mp4 for video2.mp4).
    const tapped = fileNames(step.element ?? '');
    if (tapped.some((f) => files.some((n) => ext(n) === ext(f)) && !files.includes(f))) {
      first = { step: k + 1, why: 'gold-target-not-instructed' };
      break;
    }
    if (step.gold.kind !== 'input') continue;
    const t = normalizeText(step.gold.text ?? '');
    // The instruction quotes a text of which the gold types only a part.
    if (named.some((n) => n !== t && stem(n) !== t && n.includes(t)) && !named.includes(t)) {
      first = { step: k + 1, why: 'gold-text-not-instructed' };
      break;
    }
    // The next recorded screen: the field typed into shows neither the text nor what it showed before.
    const state = states.get(step.state)?.state;
    const view = state?.views.find((v) => v.temp_id === step.gold.view);
    const next = task.steps[k + 1];
    if (!view?.resource_id || !next) continue;
    const rid = ridTail(view.resource_id);
    const before = normalizeText(view.text ?? '');
    const after = fields(states.get(next.state)?.state).filter((f) => f.rid === rid);
    if (after.length > 0 && after.every((f) => f.text !== '' && f.text !== t && f.text !== before))
      first = { step: k + 2, why: 'typed-shows-other' };
  }
  const out = new Map<number, ContradictionWhy>();
  // A no-op the gold makes: that step alone (the screen after it is the one before it).
  for (const [k, step] of task.steps.entries()) {
    const view = states.get(step.state)?.state.views.find((v) => v.temp_id === step.gold.view);
    if (step.gold.kind === 'tap' && view?.checked === true && /RadioButton/.test(view.class ?? ''))
      out.set(k + 1, 'gold-taps-selected-radio');
  }
  if (first) for (let s = first.step; s <= task.steps.length; s++) out.set(s, first.why);
  return out;
}
