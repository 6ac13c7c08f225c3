import type { Observation } from '../core/types.js';
import { readText } from '../perception/read-text.js';
import { type PlannedStep, TERMINAL_TOOLS } from '../planner/act-tool.js';
import type { HistoryEntry } from '../planner/prompt/types.js';
import type { Session } from './session.js';
import type { StepCtx } from './step-context.js';

/**
 * Decisions that act on the agent, not the phone (nothing is dispatched): `note` keeps a fact in
 * working memory, shown in every later prompt; `read` answers with an element's full text (a cut
 * line, line breaks kept) in the history; a revised plan replaces the open subgoals. Either may
 * complete the [>] subgoal (`subgoal_done`), as a phone action may.
 */

const MAX_NOTES = 10;

/**
 * Apply a plan the model revised: done subgoals stay done, the new ones replace the open ones. An
 * empty one says nothing is left: the open subgoals are closed (shown [x]), not dropped.
 */
export function revisePlan(s: Session, revised: readonly string[] | undefined): void {
  if (revised === undefined) return;
  if (revised.length === 0) {
    for (const p of s.plan) p.done = true;
    s.current = s.plan.length;
    return;
  }
  const done = s.plan.filter((p) => p.done);
  const fresh = revised.slice(resentDone(done, revised));
  s.plan = [...done, ...fresh.map((text) => ({ text, done: false }))];
  s.current = done.length;
}

/**
 * How many leading subgoals of a revised plan repeat the end of the done ones (a model resending
 * the whole plan, or its last done steps): those are not new work. A later subgoal with the text of
 * a done one is — the second "Add to cart" of a two-item order.
 */
function resentDone(done: readonly { text: string }[], revised: readonly string[]): number {
  for (let m = Math.min(done.length, revised.length); m > 0; m--) {
    const tail = done.slice(done.length - m);
    if (tail.every((d, i) => d.text === revised[i])) return m;
  }
  return 0;
}

/** Close the [>] subgoal (the model said this step completed it) and move to the next open one. */
export function closeCurrent(s: Session): void {
  if (!s.plan[s.current]) return;
  s.plan[s.current]!.done = true;
  while (s.plan[s.current]?.done) s.current++;
}

/**
 * `subgoal_done` and a plan sent with it, or `plan=[]`, say what is true once this action worked:
 * they wait for the step's result (StepCtx.revisedPlan), where another plan replaces the open
 * subgoals at once.
 */
export function waitsForResult(planned: PlannedStep): boolean {
  return planned.subgoalDone || planned.revisedPlan?.length === 0;
}

/**
 * For the history line of a step that did not work: its bookkeeping was not applied, said first,
 * since a reason may end in an undo to copy ("undo: tap [id] expect text_appears 1").
 */
export function notApplied(planned: PlannedStep, reason: string): string {
  if (!waitsForResult(planned) || TERMINAL_TOOLS.has(planned.decision.action.tool)) return reason;
  const what = [planned.subgoalDone ? 'subgoal_done' : '', planned.revisedPlan ? 'plan' : ''].filter(Boolean);
  return `${what.join(' and ')} not applied, the [>] subgoal stays open: ${reason}`;
}

/** What a note or a read does to the run, decided on the screen it was asked on (nothing is dispatched). */
export interface MetaEffect {
  /** A note to keep in working memory. */
  note?: string;
  /** The history line (in the act call's own fields, like every history line: describeAction). */
  entry: HistoryEntry;
  /** The step record's note: why a read failed. */
  error?: string;
  /** Whether the [>] subgoal closes (`subgoal_done` on a note, or on a read that worked). */
  closes: boolean;
}

/** A note or a read on `obs`; undefined for a decision that goes to the phone. */
export function metaEffect(planned: PlannedStep, obs: Observation, step: number): MetaEffect | undefined {
  if (planned.note !== undefined) {
    const action = `note text=${JSON.stringify(planned.note)}`;
    return {
      note: planned.note,
      entry: { step, action, expect: '-', ok: true, note: 'kept in Notes' },
      closes: planned.subgoalDone,
    };
  }
  if (planned.read !== undefined) {
    const r = readText(obs, planned.read);
    const action = `read ${planned.read.target_id ? `[${planned.read.target_id}]` : `text=${JSON.stringify(planned.read.text ?? '')}`}`;
    return {
      entry: {
        step,
        action,
        expect: '-',
        ok: r.ok,
        note: r.ok ? `full text: "${r.text}"` : notApplied(planned, r.error),
      },
      error: r.ok ? undefined : r.error,
      closes: r.ok && planned.subgoalDone,
    };
  }
  return undefined;
}

/** Keep a note in working memory (the last MAX_NOTES). */
export function keepNote(notes: readonly string[], note: string): string[] {
  return [...notes, note].slice(-MAX_NOTES);
}

/** A note or a read: handled here and recorded; returns false for a decision that goes to the phone. */
export function handleMeta(s: Session, ctx: StepCtx, planned: PlannedStep): boolean {
  const m = metaEffect(planned, ctx.seen.obs, ctx.step);
  if (!m) return false;
  if (m.note !== undefined) s.mem.notes = keepNote(s.mem.notes, m.note);
  ctx.record.action = m.entry.action;
  ctx.record.ok = m.entry.ok;
  ctx.record.note = m.error;
  if (m.closes) closeCurrent(s);
  s.mem.history.add(m.entry);
  return true;
}

/**
 * A read_control's answer, for the history: what the control holds, in one short line — always
 * something, so a control with nothing to read (a map drawn in pixels) says so instead of "ok".
 */
export function controlSummary(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as {
    class_name?: string;
    text?: string;
    content_desc?: string;
    hint?: string;
    flags?: Record<string, boolean>;
    range?: { min: number; max: number; current: number };
    range_source?: 'tree' | 'frame';
    value_unreadable?: string;
    selection?: { start: number; end: number };
  };
  const f = v.flags ?? {};
  const parts: string[] = [];
  if (v.text) parts.push(`text=${JSON.stringify(v.text)}`);
  else if (f.password) parts.push('text hidden (password)');
  if (v.content_desc && v.content_desc !== v.text) parts.push(`desc=${JSON.stringify(v.content_desc)}`);
  if (!v.text && v.hint) parts.push(`hint=${JSON.stringify(v.hint)}`);
  if (v.range?.current !== undefined && v.range_source === 'frame')
    parts.push(`value≈${v.range.current}% of the track (read off the screenshot)`);
  else if (v.range) parts.push(`range=${v.range.current}/${v.range.max} (min ${v.range.min})`);
  if (v.value_unreadable) parts.push(`its value cannot be read: ${v.value_unreadable}`);
  if (f.checkable) parts.push(f.checked ? 'checked' : 'unchecked');
  if (f.selected) parts.push('selected');
  if (f.enabled === false) parts.push('disabled');
  if (v.selection && v.selection.end > v.selection.start)
    parts.push(`selection ${v.selection.start}-${v.selection.end}`);
  const line = parts.join(' ');
  if (!v.text && !v.range && !f.checkable && !f.editable)
    return `read: ${v.class_name?.split('.').pop() ?? 'view'}${line ? ` ${line}` : ''}; it holds no text, value or range (what it shows is not in the tree)`;
  return `read: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
}
