import type { PlannedStep } from '../planner/act-tool.js';
import { addUsage, type LlmUsage } from '../planner/llm/client.js';
import type { Subgoal } from '../planner/prompt/types.js';
import { actionSequence } from '../tools/action-sequence.js';
import { edited } from './plan-edit.js';
import { HISTORY_KEPT, type RunState } from './run-state.js';

/**
 * Flash's part of the run state, as pure reducers (./reduce.ts calls them): its failed
 * expectations are counted, and the hand-over to Pro makes the run a Pro run from then on — with
 * Pro's plan, a history line saying so and the hand-over kept in the state (and the checkpoint).
 */

/** Failed expectations after which a Flash run hands over to Pro (issue 25: "fails twice"). */
export const FLASH_MISSES = 2;

export interface HandedOver {
  kind: 'handed_over';
  /** The step after which it happened. */
  step: number;
  reason: string;
  /** Pro's plan, made from the screen the run is on. */
  plan: Subgoal[];
  current: number;
  usage?: LlmUsage;
}

/** A Flash step's result: a failed expectation counts towards the hand-over. */
export function countFlashMiss(st: RunState, ok: boolean): RunState {
  return st.mode === 'flash' && !ok ? { ...st, flashMisses: st.flashMisses + 1 } : st;
}

export function handedOver(st: RunState, ev: HandedOver): RunState {
  const note = `Flash handed over to Pro: ${ev.reason}; a plan was made from this screen`;
  return {
    ...st,
    mode: 'pro',
    handover: { step: ev.step, reason: ev.reason },
    planPending: undefined,
    // Pro goes one verified step at a time: what was left of a burst is its plan's to redo.
    burst: undefined,
    plan: ev.plan,
    current: ev.current,
    usage: ev.usage ? addUsage(st.usage as LlmUsage, ev.usage) : st.usage,
    // The step line is the model's record too: what it did before is still true, the plan is new.
    history: [...st.history, { step: ev.step, action: '(hand over to Pro)', expect: '-', ok: true, note }].slice(
      -HISTORY_KEPT,
    ),
    loop: { ...st.loop, hint: `${note}. Go on from here, one verified step at a time.` },
  };
}

/**
 * Flash verifies in full where it trusts most: after a burst (its members were only checked against
 * their controls before the first ran, and the agent's default light read between steps) and after
 * the action that completes its plan, on which the done gate then ends the run. Otherwise the
 * executor's default (light); a guarded action is verified in full in every mode.
 */
export function flashVerification(st: RunState, planned: PlannedStep, burstGoesOn = false): 'full' | undefined {
  if (st.mode !== 'flash') return undefined;
  // A burst's part before a page change is checked lightly; its last part (nothing left) in full.
  if (planned.decision.action.tool === actionSequence.name) return burstGoesOn ? undefined : 'full';
  const edit = { closes: planned.subgoalDone, through: planned.doneThrough, revised: planned.revisedPlan };
  const after = edited(st.plan, st.current, edit);
  const ends = (planned.subgoalDone || planned.revisedPlan !== undefined) && after.plan.every((p) => p.done);
  return ends ? 'full' : undefined;
}

/** Why a Flash run hands over to Pro now; undefined when it goes on in Flash. */
export function handOverReason(st: RunState): string | undefined {
  if (st.mode !== 'flash') return undefined;
  if (st.flashMisses >= FLASH_MISSES) return `${st.flashMisses} expectations failed`;
  if (st.breaker.interventions > 0) return 'it went round in a loop (the loop breaker stepped in)';
  return undefined;
}
