import type { Observation } from '../core/types.js';
import { MAX_READ_CHARS, readText } from '../perception/read-text.js';
import type { PlannedStep } from '../planner/act-tool.js';
import type { LookImage } from '../planner/planner.js';
import type { HistoryEntry } from '../planner/prompt/types.js';
import { isTerminal } from '../tools/index.js';
import { planEditNote } from './plan-edit.js';
import type { AgentPorts, Perceived } from './ports.js';
import type { RunState } from './run-state.js';

export { keepNote } from './reduce.js';

import { apply, type Session } from './session.js';
import { screenKey } from './step-choose.js';
import type { StepCtx } from './step-context.js';
import { labelOf, onScreen } from './step-helpers.js';

/**
 * Decisions that act on the agent, not the phone (nothing is dispatched): `note` keeps a fact in
 * working memory, shown in every later prompt; `read` answers with an element's full text (a cut
 * line, line breaks kept) in the history; `look` takes the screenshot (zoomed on a control and its
 * row) that the next decision on this screen gets. Each is a step in the history; a note or a read
 * may complete the [>] subgoal (`subgoal_done`), as a phone action may. A read that answers and a
 * look count as the model checking the screen (the done gate after a failed check).
 */

/**
 * `subgoal_done` and `plan=[…]` say what is true once this action worked: they wait for the
 * step's result (StepCtx.revisedPlan), and a step that did not work applies neither.
 */
export function waitsForResult(planned: PlannedStep): boolean {
  return planned.subgoalDone || planned.revisedPlan !== undefined;
}

/** Whether the run's plan has a [>] subgoal (none once every one is done, or the plan is empty). */
export function subgoalOpen(s: Session): boolean {
  return s.state.current < s.state.plan.length;
}

/**
 * For the history line of a step that did not work: its bookkeeping was not applied, said first,
 * since a reason may end in an undo to copy ("undo: tap [id] expect text_appears 1"). `open`:
 * whether the plan has a [>] subgoal (none once every one is done).
 */
export function notApplied(planned: PlannedStep, reason: string, open: boolean): string {
  if (!waitsForResult(planned) || isTerminal(planned.decision.action)) return reason;
  const reopens = planAppliesAfterFailure(planned, open);
  const what = [planned.subgoalDone ? 'subgoal_done' : '', planned.revisedPlan && !reopens ? 'plan' : ''].filter(
    Boolean,
  );
  if (what.length === 0) return `your plan=[…] is the plan now: ${reason}`;
  // With every subgoal done there is no [>] one to stay open (a relay player looked for it).
  const plan = open
    ? 'the [>] subgoal stays open'
    : reopens
      ? 'your plan=[…] is the plan now'
      : 'the plan stays as it was';
  return `${what.join(' and ')} not applied, ${plan}: ${reason}`;
}

/**
 * A worked step's history note, with what its `subgoal_done=N` or `plan=[…]` ticked, left and
 * dropped when that is more than the [>] subgoal ticked (./plan-edit.ts).
 */
export function withPlanNote(
  at: { state?: Pick<RunState, 'plan' | 'current'> },
  planned: PlannedStep,
  note: string | undefined,
): string | undefined {
  const st = at.state;
  if (!st) return note;
  const edit = { closes: planned.subgoalDone, through: planned.doneThrough, revised: planned.revisedPlan };
  const said = planEditNote(st.plan, st.current, edit);
  return [note, said].filter(Boolean).join('; ') || undefined;
}

/**
 * A plan sent with an action that failed waits for a step that works — it may leave out the [>]
 * subgoal that action was for. With every subgoal done nothing can be left out, and refusing it kept
 * "all subgoals done — call done" in front of a model that had just seen the goal unmet (a relay
 * player, bilibili): then the plan applies, and reopens the task.
 */
export function planAppliesAfterFailure(planned: { revisedPlan?: readonly string[] }, open: boolean): boolean {
  return !open && planned.revisedPlan !== undefined && planned.revisedPlan.length > 0;
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

/** Where a note or a read is decided: its screen, its step, and whether the plan has a [>] subgoal. */
export interface MetaAt {
  obs: Observation;
  step: number;
  subgoalOpen: boolean;
  /** The plan the step decided on (its ticks and `plan=[…]` are said in the note). */
  state?: Pick<RunState, 'plan' | 'current'>;
}

/** A note or a read on `at.obs`; undefined for a decision that goes to the phone. */
export function metaEffect(planned: PlannedStep, at: MetaAt): MetaEffect | undefined {
  const { obs, step } = at;
  if (planned.note !== undefined) {
    const action = `note text=${JSON.stringify(planned.note)}`;
    return {
      note: planned.note,
      entry: { step, action, expect: '-', ok: true, note: withPlanNote(at, planned, 'kept in Notes') },
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
        note: r.ok ? withPlanNote(at, planned, readNote(r)) : notApplied(planned, r.error, at.subgoalOpen),
      },
      error: r.ok ? undefined : r.error,
      closes: r.ok && planned.subgoalDone,
    };
  }
  return undefined;
}

/** What a read answered: "full text" only when it is the whole text, else what cut it and where the rest is. */
function readNote(r: { text: string; cut?: 'app' | 'length' }): string {
  if (r.cut === 'app')
    return `text as the app shows it, cut by the app ("…"; open the item to read the rest): "${r.text}"`;
  if (r.cut === 'length')
    return `the first ${MAX_READ_CHARS} characters (the text is longer; open the item or scroll it for the rest): "${r.text}"`;
  return `full text: "${r.text}"`;
}

/** A note, a read or a look: handled here and recorded; returns false for a decision that goes to the phone. */
export async function handleMeta(s: Session, ctx: StepCtx, planned: PlannedStep): Promise<boolean> {
  if (planned.look !== undefined) {
    const l = await lookEffect(s.deps.ports, ctx.seen, planned.look, ctx.step);
    ctx.record.action = l.entry.action;
    ctx.record.ok = l.entry.ok;
    await apply(s, {
      kind: 'looked',
      entry: onScreen(l.entry, ctx.seen.obs),
      look: l.look && { ...l.look, screen: screenKey(ctx.seen) },
    });
    return true;
  }
  const m = metaEffect(planned, { obs: ctx.seen.obs, step: ctx.step, subgoalOpen: subgoalOpen(s), state: s.state });
  if (!m) return false;
  ctx.record.action = m.entry.action;
  ctx.record.ok = m.entry.ok;
  ctx.record.note = m.error;
  const confirmed = planned.read !== undefined && m.entry.ok;
  await apply(s, {
    kind: 'meta',
    entry: onScreen(m.entry, ctx.seen.obs),
    note: m.note,
    confirmed,
    closes: m.closes,
    through: planned.doneThrough,
  });
  return true;
}

/**
 * A look on the screen `seen` (the one the step decided on: a step that acts on the agent leaves
 * it current): its screenshot, zoomed on the control and its row, for the next decision on that
 * screen, and its history line.
 */
export async function lookEffect(
  ports: Pick<AgentPorts, 'image'>,
  seen: Perceived,
  req: NonNullable<PlannedStep['look']>,
  step: number,
): Promise<{ entry: HistoryEntry; look?: LookImage }> {
  const label = labelOf(seen.obs, req.target_id);
  const point = req.point ? `${Math.round(req.point.x)},${Math.round(req.point.y)}` : undefined;
  const named = req.target_id ? `[${req.target_id}]${label ? ` ${JSON.stringify(label)}` : ''}` : undefined;
  // In the act call's own fields, like every history line.
  const action = `look${named ? ` ${named}` : point ? ` point=${point}` : ''}`;
  const url = await ports.image?.(seen, req);
  const of = named ? `${named} and its row` : point ? `the screen around ${point}` : 'the whole screen';
  return {
    entry: {
      step,
      action,
      expect: '-',
      ok: url !== undefined,
      note: url ? 'screenshot sent with the next prompt' : 'no screenshot of this screen could be taken',
    },
    look: url ? { url, of } : undefined,
  };
}
