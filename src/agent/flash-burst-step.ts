import type { PlannedStep } from '../planner/act-tool.js';
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
  const part = given ?? firstPart(planned, obs);
  if (part.kind === 'stopped') {
    await stopBurst(s, part.hint);
    return { kind: 'refused', note: part.note };
  }
  const run = part.kind === 'part' ? part : { planned, rest: undefined, stop: undefined, before: [], first: 1 };
  const stop = stopAtHeld(s, ctx, run.planned);
  if (stop.kind === 'whole') return { kind: 'run', planned: run.planned, rest: run.rest, hint: run.stop };
  const index = stop.kind === 'cut' ? stop.index : 0;
  const members = (run.planned.decision.action.args?.actions ?? []) as PendingBurst['members'];
  const ran = members.slice(0, index).map((m) =>
    shown(
      m,
      obs.elements.find((e) => e.id === (m as { target_id?: string }).target_id),
    ),
  );
  const hint = stoppedHint(`member ${run.first + index} (${stop.what})`, heldWhy(stop.asks), [...run.before, ...ran]);
  if (stop.kind === 'cut') return { kind: 'run', planned: stop.planned, hint };
  await stopBurst(s, hint);
  return { kind: 'refused', note: `stopped before ${stop.what}: nothing ran` };
}

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
