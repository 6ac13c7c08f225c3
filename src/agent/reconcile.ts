import type { Action, Observation } from '../core/types.js';
import { mayChangeNothing } from '../executor/act-kind.js';
import { validate } from '../executor/validator.js';
import { formatExpect } from '../planner/expect-dsl.js';
import { emptyUsage } from '../planner/llm/client.js';
import type { JournalEntry } from '../store/action-journal.js';
import { controlAction } from '../tools/control-action.js';
import { actionSignature, REGISTRY } from '../tools/index.js';
import type { RunEvent } from './reduce.js';
import type { RunState } from './run-state.js';
import { describeOn } from './step-helpers.js';
import type { StepRecord } from './types.js';

/**
 * The action that was in flight when the run was killed (the journal's last entry past the
 * checkpoint, DESIGN §6), judged on the phone before the model decides anything: its `expect`
 * checked against the screen it was decided on and the screen now, as the executor would have.
 * Visible → recorded as done (its subgoal too) and not repeated; the screen as it was → not done;
 * anything else is unknown, and an action that is not idempotent (a tap on "+", add to cart, send)
 * is then banned on its page and the model told what was in flight — never blindly repeated.
 */

export type Verdict = 'done' | 'not_done' | 'unknown';

export interface Judged {
  verdict: Verdict;
  /** Why not done, in the validator's words. */
  reason?: string;
}

/** Repeating these is harmless once they took effect: they set a state rather than add to one. */
const IDEMPOTENT = new Set([
  'type',
  'launch_app',
  'swipe',
  'scroll_to',
  'home',
  'wait',
  'wait_until',
  'read_control',
  // Drags a slider to a share of its track: again is the same value.
  'set_slider',
]);
const IDEMPOTENT_CONTROL = new Set(['set_progress', 'set_text', 'focus', 'show_on_screen']);

export function isIdempotent(a: Action): boolean {
  if (IDEMPOTENT.has(a.tool)) return true;
  return a.tool === controlAction.name && IDEMPOTENT_CONTROL.has(String(a.args?.action ?? a.args?.op ?? ''));
}

export function judgeInFlight(e: JournalEntry, now: Observation): Judged {
  const { action, expect } = e.decision;
  const target = action.target_id ? e.pre.elements.find((x) => x.id === action.target_id) : undefined;
  // An action meant to change nothing visible (a password typed, a field focused) leaves no trace
  // to tell whether it happened.
  if (expect.kind === 'no_change' || mayChangeNothing(REGISTRY.get(action.tool), action, target))
    return { verdict: 'unknown', reason: 'its effect is not visible on screen' };
  // First: the validator's own "unchanged" compares element ids, and two reads of one screen can
  // give an element different ids (they depend on the read before).
  if (sameAppContent(e.pre, now))
    return { verdict: 'not_done', reason: 'the screen is as it was when the action was decided' };
  const v = validate(REGISTRY.table, expect, e.pre, now, action, target);
  if (v.ok) return { verdict: 'done' };
  // "Something changes" held right after the tap by a toast or a transient state that is gone by
  // now; the app's own content changed since (a cart badge counting the added item): that is it.
  if (expect.kind === 'page_changes' || expect.kind === 'screen_changes') return { verdict: 'done' };
  return { verdict: 'unknown', reason: v.reason };
}

/** What the app shows (its windows' elements, text and state; not toasts, status bar or clock) is the same. */
function sameAppContent(a: Observation, b: Observation): boolean {
  if (a.app.package !== b.app.package || a.app.activity !== b.app.activity) return false;
  if (a.keyboard.shown !== b.keyboard.shown) return false;
  const key = (o: Observation) => {
    const own = new Set(o.windows.filter((w) => APP_WINDOWS.has(w.type)).map((w) => w.id));
    // Not by id: an id can differ between two reads of the same screen (it depends on the read before).
    const els = o.elements
      .filter((x) => own.has(x.window))
      .map((x) => `${x.role}:${x.resourceId}:${x.text}:${x.desc}:${screenFlags(x)}:${JSON.stringify(x.bounds)}`);
    return `${els.sort().join(',')}#${o.texts.join('|')}`;
  };
  return key(a) === key(b);
}

const APP_WINDOWS = new Set(['application', 'dialog', 'overlay']);

function screenFlags(e: Observation['elements'][number]): string {
  const f = e.flags;
  return `${+f.checked}${+f.selected}${+f.enabled}${e.range?.current ?? ''}${e.filled ?? ''}`;
}

/**
 * Fold the judged in-flight action into the resumed run (as events, told in order); returns the
 * note for the resume event.
 */
export async function reconcileAction(
  st: RunState,
  tell: (ev: RunEvent) => Promise<void>,
  e: JournalEntry,
  j: Judged,
  now: Observation,
): Promise<string> {
  const { action } = e.decision;
  const what = describeOn(action, e.pre);
  const expect = formatExpect(e.decision.expect);
  const line = (ok: boolean, note: string) =>
    tell({ kind: 'history', entry: { step: e.step, action: what, expect, ok, note } });
  if (j.verdict === 'done') {
    if (e.subgoalDone && st.plan[e.subgoal]) await tell({ kind: 'subgoal_closed', index: e.subgoal });
    await tell({ kind: 'effect_seen', obs: now });
    await line(
      true,
      'dispatched before the interruption; its expected effect is on screen, so it is done: do not repeat it',
    );
    return `"${what}" had reached the phone before the interruption (its expected effect is on screen): counted as done, not repeated`;
  }
  if (j.verdict === 'not_done') {
    await line(
      false,
      'interrupted before it took effect (the screen is as it was): not done; do it again if still needed',
    );
    return `"${what}" was interrupted before it took effect (the screen is as it was): not done`;
  }
  if (isIdempotent(action)) {
    await line(
      false,
      `interrupted in flight; whether it took effect is not known (${j.reason}); doing it again is harmless`,
    );
    return `"${what}" was in flight: not known whether it took effect (${j.reason}); it may be done again`;
  }
  const note = `was in flight when the run was interrupted and may have taken effect (${j.reason}): look at the screen; do not repeat it unless the screen shows it was not done`;
  await tell({
    kind: 'refused',
    ban: { page: e.pre.pageHash, signature: actionSignature(action), shown: what },
    entry: { step: e.step, action: what, expect, ok: false, note },
    hint: `"${what}" ${note}.`,
  });
  return `"${what}" was in flight and may have taken effect (${j.reason}): banned on its page, not repeated blindly`;
}

/** The step record of a reconciled action, for the archive and the report (it had none). */
export function reconciledRecord(st: RunState, e: JournalEntry, j: Judged): StepRecord {
  const { action } = e.decision;
  return {
    step: e.step,
    subgoal: st.plan[e.subgoal]?.text ?? '',
    source: 'llm',
    action: describeOn(action, e.pre),
    ok: j.verdict === 'done',
    note: `journaled before the interruption; judged on resume: ${j.verdict.replace('_', ' ')}${j.reason ? ` (${j.reason})` : ''}`,
    llm: emptyUsage(),
    timings: { totalMs: 0, llmMs: 0, deviceMs: 0, overheadMs: 0 },
    pageHash: e.pre.pageHash,
    observation: '(not kept: the step was interrupted; see the journal, journal.jsonl)',
    decision: e.decision,
    expect: formatExpect(e.decision.expect),
  };
}
