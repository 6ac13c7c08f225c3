import { readText } from '../perception/read-text.js';
import { type PlannedStep, TERMINAL_TOOLS } from '../planner/act-tool.js';
import type { Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { labelOf } from './step-helpers.js';

/**
 * Decisions that act on the agent, not the phone (nothing is dispatched): `note` keeps a fact in
 * working memory, shown in every later prompt; `read` answers with an element's full text (a cut
 * line, line breaks kept) in the history; `look` takes the screenshot (zoomed on a control and its
 * row) that the next decision on this screen gets. Each is a step in the history; a note or a read
 * may complete the [>] subgoal (`subgoal_done`), as a phone action may. A read that answers and a
 * look count as the model checking the screen (the done gate after a failed check).
 */

const MAX_NOTES = 10;

/**
 * Apply a plan the model sent with an action that worked: `plan=[…]` lists the subgoals still open
 * after it. An open subgoal it leaves out was finished by that action: it is ticked [x], never
 * dropped (so one action may close several, and `[]` ticks them all). Done subgoals stay done and
 * keep their place; the listed ones follow, open, in the order given.
 */
export function revisePlan(s: Session, revised: readonly string[] | undefined): void {
  if (revised === undefined) return;
  const open = new Set(revised);
  const kept = s.plan.filter((p) => p.done || !open.has(p.text)).map((p) => ({ text: p.text, done: true }));
  const closed = new Set(kept.map((p) => p.text));
  s.plan = [...kept, ...[...open].filter((t) => !closed.has(t)).map((text) => ({ text, done: false }))];
  s.current = kept.length;
}

/** Close the [>] subgoal (the model said this step completed it) and move to the next open one. */
export function closeCurrent(s: Session): void {
  if (!s.plan[s.current]) return;
  s.plan[s.current]!.done = true;
  while (s.plan[s.current]?.done) s.current++;
}

/**
 * `subgoal_done` and `plan=[…]` say what is true once this action worked: they wait for the
 * step's result (StepCtx.revisedPlan), and a step that did not work applies neither.
 */
export function waitsForResult(planned: PlannedStep): boolean {
  return planned.subgoalDone || planned.revisedPlan !== undefined;
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

/** A note, a read or a look: handled here and recorded; returns false for a decision that goes to the phone. */
export async function handleMeta(s: Session, ctx: StepCtx, planned: PlannedStep): Promise<boolean> {
  if (planned.look !== undefined) {
    await handleLook(s, ctx, planned.look);
    return true;
  }
  if (planned.note !== undefined) {
    s.mem.notes = [...s.mem.notes, planned.note].slice(-MAX_NOTES);
    // In the act call's own fields, like every history line (describeAction).
    ctx.record.action = `note text=${JSON.stringify(planned.note)}`;
    ctx.record.ok = true;
    if (planned.subgoalDone) closeCurrent(s);
    s.mem.history.add({ step: ctx.step, action: ctx.record.action, expect: '-', ok: true, note: 'kept in Notes' });
    return true;
  }
  if (planned.read !== undefined) {
    const r = readText(ctx.seen.obs, planned.read);
    ctx.record.action = `read ${planned.read.target_id ? `[${planned.read.target_id}]` : `text=${JSON.stringify(planned.read.text ?? '')}`}`;
    ctx.record.ok = r.ok;
    ctx.record.note = r.ok ? undefined : r.error;
    if (r.ok) s.mem.completion.confirmedOnScreen();
    if (r.ok && planned.subgoalDone) closeCurrent(s);
    s.mem.history.add({
      step: ctx.step,
      action: ctx.record.action,
      expect: '-',
      ok: r.ok,
      note: r.ok ? `full text: "${r.text}"` : notApplied(planned, r.error),
    });
    return true;
  }
  return false;
}

/**
 * A look: the screenshot is taken now, of the screen this step decided on (a step that acts on the
 * agent leaves that screen current), and attached to the next decision on it (LoopState.look).
 */
async function handleLook(s: Session, ctx: StepCtx, req: NonNullable<PlannedStep['look']>): Promise<void> {
  const label = labelOf(ctx.seen.obs, req.target_id);
  // In the act call's own fields, like every history line.
  const where = req.target_id
    ? ` [${req.target_id}]${label ? ` ${JSON.stringify(label)}` : ''}`
    : req.point
      ? ` point=${Math.round(req.point.x)},${Math.round(req.point.y)}`
      : '';
  ctx.record.action = `look${where}`;
  const url = await s.deps.ports.image?.(ctx.seen, req);
  ctx.record.ok = url !== undefined;
  const of = req.target_id
    ? `[${req.target_id}]${label ? ` "${label}"` : ''} and its row`
    : req.point
      ? `the screen around ${Math.round(req.point.x)},${Math.round(req.point.y)}`
      : 'the whole screen';
  if (url) {
    s.loop.look = { url, of, seen: ctx.seen };
    s.mem.completion.confirmedOnScreen();
  }
  s.mem.history.add({
    step: ctx.step,
    action: ctx.record.action,
    expect: '-',
    ok: ctx.record.ok,
    note: url ? 'screenshot sent with the next prompt' : 'no screenshot of this screen could be taken',
  });
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
    selection?: { start: number; end: number };
  };
  const f = v.flags ?? {};
  const parts: string[] = [];
  if (v.text) parts.push(`text=${JSON.stringify(v.text)}`);
  else if (f.password) parts.push('text hidden (password)');
  if (v.content_desc && v.content_desc !== v.text) parts.push(`desc=${JSON.stringify(v.content_desc)}`);
  if (!v.text && v.hint) parts.push(`hint=${JSON.stringify(v.hint)}`);
  if (v.range) parts.push(`range=${v.range.current}/${v.range.max} (min ${v.range.min})`);
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
