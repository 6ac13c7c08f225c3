import type { Decision } from '../core/types.js';
import { memberPresses, sequenceMembers } from '../executor/native-args.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { actionSequence } from '../tools/action-sequence.js';
import { uncoveredHeld } from './held-taps.js';
import { standingApproval } from './run-state.js';
import type { Session } from './session.js';
import type { StepCtx } from './step-context.js';

/**
 * A burst (`action_sequence`) runs only up to its first guarded member (issue 25): the members
 * before it go in one go, and the guarded one is left for a step of its own, where it is confirmed
 * and verified in full like any guarded tap. What the guard would hold is the rule the listing's
 * marks come from (`ports.held`, ./held-taps.ts); the executor still judges whatever is sent, so a
 * member this misses is held with the whole sequence — guardrails are the same in every mode. A
 * burst that crosses a page is judged part by part, each on the screen it runs on (./flash-burst.ts).
 */

export type BurstStop =
  | { kind: 'whole' }
  /** Members [0, index) run; member `index` was held (`what` names it, `asks` what it asks). */
  | { kind: 'cut'; planned: PlannedStep; index: number; what: string; asks: string }
  /** The first member is held: nothing runs in this burst. */
  | { kind: 'none'; what: string; asks: string };

export function stopAtHeld(s: Session, ctx: StepCtx, planned: PlannedStep): BurstStop {
  const action = planned.decision.action;
  const members = action.tool === actionSequence.name ? (action.args?.actions as unknown[] | undefined) : undefined;
  if (!members?.length) return { kind: 'whole' };
  const obs = ctx.seen.obs;
  const held = uncoveredHeld(s.deps.ports.held(obs), standingApproval(s.state), obs);
  // The guard's own rule for what a member presses (executor/native-args.ts), on the same members.
  const parsed = sequenceMembers(action, obs);
  const index = parsed.findIndex((m) => m.element && held[m.element.id] !== undefined && memberPresses(m));
  if (index < 0) return { kind: 'whole' };
  const m = parsed[index];
  const id = m?.element?.id ?? '';
  const what = `${m?.op} "${m?.element?.label ?? id}"`;
  const asks = held[id]?.join('/') ?? '';
  if (index === 0) return { kind: 'none', what, asks };
  // What the model expected was of the whole burst: of the members that run, only that they change the screen.
  const decision: Decision = {
    ...planned.decision,
    action: { ...action, args: { ...action.args, actions: members.slice(0, index) } },
    expect: { kind: 'screen_changes', note: `the burst's first ${index} member(s)` },
  };
  return { kind: 'cut', planned: { decision, subgoalDone: false }, index, what, asks };
}

/** Why a burst stopped at a guarded member, for the model (./flash-burst.ts `stoppedHint` says where). */
export function heldWhy(asks: string): string {
  return `it asks the user (${asks}), and a step that asks the user goes alone: send it as its own action when the goal needs it`;
}
