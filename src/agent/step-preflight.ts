import type { Decision } from '../core/types.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { done } from '../tools/done.js';
import { actionSignature, isTerminal } from '../tools/index.js';
import { infeasible } from '../tools/infeasible.js';
import { breakerVerdict, claimVerdict } from './reduce.js';
import { apply, type Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { hashText } from './step-helpers.js';
import type { DecisionSource, RunStatus } from './types.js';

/**
 * What is decided before anything reaches the phone: a terminal claim is judged by the completion
 * check (evidence on the phone, not subgoal bookkeeping), the loop breaker stops the third repeat
 * without progress, and a credential is only ever typed into a password field.
 */

export type Preflight =
  | { kind: 'go' }
  | { kind: 'end'; status: RunStatus; answer?: string; reason?: string }
  /** Refused before dispatch: the step is recorded as failed and the run goes on. */
  | { kind: 'refused'; note: string; historyNote?: string };

export function breakerKey(ctx: StepCtx): string {
  return `${ctx.seen.obs.pageHash}:${hashText(ctx.seen.compact)}`;
}

export async function preflight(
  s: Session,
  ctx: StepCtx,
  planned: PlannedStep,
  source: DecisionSource,
): Promise<Preflight> {
  const decision: Decision = planned.decision;
  const action = decision.action;
  const obs = ctx.seen.obs;
  const sig = actionSignature(action);

  if (isTerminal(action)) {
    const goal = s.state.goal;
    const v = claimVerdict(s.state, action, obs, goal).verdict;
    await apply(s, { kind: 'claim', action, obs, goal });
    if (!v.ok) {
      ctx.record.signals = [v.handOver ? 'finish_handover' : 'finish_rejected'];
      // A mistake seen on the phone that the model will not put back: a person decides, never "done".
      if (v.handOver) return { kind: 'end', status: 'ask_user', reason: v.reason };
      return { kind: 'refused', note: v.reason };
    }
    ctx.record.ok = true;
    // The run's status words match the terminal tools' names; they are statuses here, not tools.
    if (action.tool === done.name) {
      return { kind: 'end', status: 'done', answer: action.answer };
    }
    if (action.tool === infeasible.name) {
      return { kind: 'end', status: 'infeasible', reason: action.reason };
    }
    return { kind: 'end', status: 'ask_user', reason: action.question };
  }

  // Loop breaker, keyed by the page *state* (values, toggles) so retyping a corrected field is not a loop.
  if (source === 'llm') {
    const key = breakerKey(ctx);
    const verdict = breakerVerdict(s.state, key, sig, ctx.record.action).verdict;
    await apply(s, { kind: 'breaker', page: obs.pageHash, key, signature: sig, shown: ctx.record.action });
    if (verdict.kind === 'hand_over') return { kind: 'end', status: 'ask_user', reason: verdict.reason };
    if (verdict.kind === 'change_strategy') {
      return {
        kind: 'refused',
        note: 'loop breaker: action banned on this page, strategy change requested',
        historyNote: 'repeated without progress; banned',
      };
    }
  }

  const secrets = s.run.secrets;
  // Only the type tool fills in a credential (into a password field): in any other tool's arguments the
  // placeholder would be sent as it is, or the secret land where a password field does not hide it.
  const inArgs = action.args !== undefined && [...secrets.keys()].some((k) => JSON.stringify(action.args).includes(k));
  const failure = { page: obs.pageHash, signature: sig, shown: ctx.record.action };
  if (secrets.size && inArgs) {
    await apply(s, {
      kind: 'refused',
      failure,
      hint: 'A secret placeholder is entered only with the type tool, into the password field.',
    });
    return { kind: 'refused', note: 'refused: a secret placeholder is entered only with type, into a password field' };
  }
  if (secrets.size && action.text && [...secrets.keys()].some((k) => action.text?.includes(k))) {
    const field = obs.elements.find((e) => e.id === action.target_id);
    if (!field?.flags.password) {
      await apply(s, { kind: 'refused', failure });
      return { kind: 'refused', note: 'refused: a secret may only be typed into a password field' };
    }
  }
  return { kind: 'go' };
}
