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
 *   stem, 'test' for 'test.ics', is what the app asks for).
 * The step is flagged and its misses are counted apart in the report; they still count as misses.
 */

export const CONTRADICTION_FLAG = 'recording-contradicts-gold';

export type ContradictionWhy = 'typed-shows-other' | 'gold-text-not-instructed';

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

/** A file name's stem: the app adds the extension itself (`test` typed for 'test.ics'). */
const stem = (s: string) => s.replace(/\.[a-z0-9]{2,4}$/, '');

/** Step number (1-based) → why, for every step from the first contradiction on. */
export function contradictions(
  task: GoldTask,
  states: ReadonlyMap<string, ReplayState>,
): Map<number, ContradictionWhy> {
  const named = quoted(task.instruction);
  let first: { step: number; why: ContradictionWhy } | undefined;
  for (const [k, step] of task.steps.entries()) {
    if (first || step.gold.kind !== 'input') continue;
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
  if (first) for (let s = first.step; s <= task.steps.length; s++) out.set(s, first.why);
  return out;
}
