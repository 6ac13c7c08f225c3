import { byId } from '../executor/native-args.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { tap } from '../tools/tap.js';
import { heldWhy, stopAtHeld } from './burst-stop.js';
import { type BurstPart, firstPart, nextPart, type PendingBurst, shown, stoppedHint } from './flash-burst.js';
import { apply, type Session } from './session.js';
import type { StepCtx } from './step-context.js';

/**
 * A step's burst, between choosing and executing (./flash-burst.ts says what a part is): the part
 * of it this step runs, cut before a guarded member (./burst-stop.ts) — a guarded member stops the
 * burst, also on a screen after a page change, and goes alone for consent. What is left of the
 * burst becomes run state only right before the part is dispatched, so a checkpoint never holds a
 * member that was sent: a resume goes on from what was not.
 */

export type Shaped =
  | { kind: 'run'; planned: PlannedStep; rest?: PendingBurst; hint?: string }
  | { kind: 'refused'; note: string };

/** The next part of the run's pending burst on this screen, as the step's choice; undefined when there is none to run. */
export async function pendingPart(s: Session, ctx: StepCtx): Promise<BurstPart | undefined> {
  const p = s.state.burst;
  if (!p) return undefined;
  const part = nextPart(p as PendingBurst, ctx.seen.obs);
  if (part.kind === 'part') return part;
  // Nothing of it grounds here: the model decides on this screen, told why.
  await stopBurst(s, part.kind === 'stopped' ? part.hint : undefined);
  return undefined;
}

export async function shapeBurst(s: Session, ctx: StepCtx, planned: PlannedStep, given?: BurstPart): Promise<Shaped> {
  const obs = ctx.seen.obs;
  // A part grounded from the rest of a burst (a replayed first part brings its rest, and is a first part).
  ctx.burstNext = given?.kind === 'part' && given.first > 1;
  const part = given ?? firstPart(planned, obs);
  if (part.kind === 'stopped') {
    await stopBurst(s, part.hint);
    return { kind: 'refused', note: part.note };
  }
  const run = part.kind === 'part' ? part : { planned, rest: undefined, stop: undefined, before: [], first: 1 };
  const stop = stopAtHeld(s, ctx, run.planned);
  if (stop.kind === 'whole') return { kind: 'run', planned: run.planned, rest: run.rest, hint: run.stop };
  const members = (run.planned.decision.action.args?.actions ?? []) as Grounded[];
  const index = stop.kind === 'cut' ? stop.index : 0;
  const n = run.first + index;
  const before = [...run.before, ...members.slice(0, index).map((m) => shown(m, byId(obs, m.target_id)))];
  // Members after the guarded one are not sent: the burst stops there.
  const dropped = members.length - index - 1 + (run.rest?.members.length ?? 0);
  const guarded = members[index] as Grounded;
  const el = byId(obs, guarded.target_id);
  if (stop.kind === 'none') {
    // It goes alone now, as the tap it is: confirmed, verified in full.
    const action = { tool: tap.name, target_id: el?.id };
    const own = dropped
      ? {
          expect: { kind: 'screen_changes' as const, note: 'a guarded member of the burst, alone' },
          subgoalDone: false,
        }
      : {
          expect: run.planned.decision.expect,
          subgoalDone: run.planned.subgoalDone,
          revisedPlan: run.planned.revisedPlan,
        };
    const { expect, ...rest } = own;
    const lone: PlannedStep = { decision: { thought: run.planned.decision.thought, action, expect }, ...rest };
    return { kind: 'run', planned: lone, hint: dropped ? wentAlone(n, stop, before, dropped) : undefined };
  }
  // The members before it run; it is the burst's next part, alone, grounded again by its label.
  const label = el && (el.label || el.text || el.desc);
  const hint = stoppedHint(`member ${n} (${stop.what})`, heldWhy(stop.asks), before);
  if (!label) return { kind: 'run', planned: stop.planned, hint };
  const last = run.planned;
  const rest: PendingBurst = {
    members: [{ tool: guarded.tool, label, args: guarded.args }],
    next: n,
    ran: before,
    expect: dropped ? { kind: 'screen_changes', note: 'a guarded member of the burst, alone' } : last.decision.expect,
    subgoalDone: dropped ? false : last.subgoalDone,
    ...(!dropped && last.revisedPlan ? { plan: [...last.revisedPlan] } : {}),
    thought: last.decision.thought,
  };
  // Told once it went alone (the model's next call comes after it).
  return { kind: 'run', planned: stop.planned, rest, hint: dropped ? wentAlone(n, stop, before, dropped) : undefined };
}

/** What the model is told after a guarded member went alone and the members after it were not sent. */
function wentAlone(n: number, stop: { what: string; asks: string }, before: string[], dropped: number): string {
  const ran = before.length
    ? `the ${before.length} member(s) before it ran (${before.join(', ')})`
    : 'nothing before it ran';
  return `Your action_sequence stopped at member ${n} (${stop.what}): it asks the user (${stop.asks}), so it went alone; ${ran}; the ${dropped} member(s) after it were not sent. Go on from this screen.`;
}

type Grounded = PendingBurst['members'][number] & { target_id?: string };

/**
 * Right before the part is dispatched: what will be left of its burst waits on the step (run state
 * only once the part ran: a run killed before it went out resumes with this part still to run, one
 * killed while it was out has it in the journal), and the model's note for after it.
 */
export async function partDispatched(s: Session, ctx: StepCtx, shaped: Shaped & { kind: 'run' }): Promise<void> {
  ctx.burstRest = shaped.rest;
  if (shaped.hint) await apply(s, { kind: 'hint', hint: shaped.hint });
}

/** After the part: its rest is what is left of the burst; a part that failed ends it, the model told what was not sent. */
export async function partDone(s: Session, ctx: StepCtx, ok: boolean): Promise<void> {
  const rest = ctx.burstRest;
  if (ok) {
    if (rest || s.state.burst) await apply(s, { kind: 'burst', pending: rest });
    return;
  }
  const p = rest ?? s.state.burst;
  if (!p) return;
  const mine = `The rest of your action_sequence (member ${p.next} on) was not sent: its part before failed.`;
  await stopBurst(s, [s.state.loop.hint, mine].filter(Boolean).join(' '));
}

/** The burst ends here: nothing of it is left, and the model is told why (when there is something to tell). */
export async function stopBurst(s: Session, hint?: string): Promise<void> {
  if (s.state.burst) await apply(s, { kind: 'burst' });
  if (hint) await apply(s, { kind: 'hint', hint });
}
