import { asksQuestion } from '../core/goal.js';
import { done } from '../tools/done.js';
import { handOverReason } from './flash-state.js';
import type { Perceived } from './ports.js';
import { claimVerdict } from './reduce.js';
import { apply, type Session } from './session.js';
import { finish } from './step.js';
import { replanOn } from './step-helpers.js';
import type { RunResult } from './types.js';

/**
 * Flash (issue 25), between two steps of the one loop: a Flash run whose plan is complete after a
 * verified action ends `done` when the done gate agrees — no model call to say so — and one that
 * failed its expectations twice or went round in a loop hands over to Pro in the same run: a plan
 * call from the screen it is on, the `handed_over` event (checkpointed), and Pro's loop from there.
 * A Flash run never gives up on its own: whatever would make it stop early makes it Pro first.
 */

/** What the first decision of a Flash run without a remembered plan is told (its plan is its own). */
export const FLASH_FIRST_HINT =
  'Flash: no plan was made. With this action send plan=[…], the subgoals still to do after it ([] when this action finishes the goal). When none is left and your last action is verified, the run ends done.';

/** After a step: the run's end (Flash done), or undefined to go on — in Pro if it handed over. */
export async function afterFlashStep(s: Session, seen: Perceived): Promise<RunResult | undefined> {
  if (s.state.mode !== 'flash') return undefined;
  const why = handOverReason(s.state);
  if (why) {
    await handOver(s, seen, why);
    return undefined;
  }
  return finishedPlan(s, seen);
}

/** The plan is done and its last action verified: the done gate judges the goal on this screen. */
async function finishedPlan(s: Session, seen: Perceived): Promise<RunResult | undefined> {
  const st = s.state;
  const last = st.history.at(-1);
  // plan=[] is a plan with nothing left: complete once it applied (it clears planPending).
  const complete = !st.planPending && st.plan.every((p) => p.done);
  // A question needs its answer from the model; an unchecked step is no evidence.
  if (!complete || !last?.ok || last.unchecked || last.step !== st.step || asksQuestion(st.goal)) return undefined;
  const claim = { tool: done.name };
  const { verdict } = claimVerdict(st, claim, seen.obs, st.goal);
  await apply(s, { kind: 'claim', action: claim, obs: seen.obs, goal: st.goal });
  if (!verdict.ok) return undefined;
  return finish(s, 'done', {}, seen);
}

async function handOver(s: Session, seen: Perceived, reason: string): Promise<void> {
  const st = s.state;
  const r = await replanOn(s, seen, `Flash handed over to Pro: ${reason}`);
  // Pro starts its plan whole: Flash's ticks are of a plan made after its first action, so they
  // would leave that action's subgoal open behind done ones. Its steps re-check on the screen.
  const plan = r.plan.map((p) => ({ text: p.text, done: false }));
  await apply(s, { kind: 'handed_over', step: st.step, reason, plan, current: 0, usage: r.usage });
  s.deps.onEvent?.({ kind: 'handover', step: st.step, reason, subgoals: r.plan.map((p) => p.text) });
}
