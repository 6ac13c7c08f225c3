import { Progress } from '../core/progress.js';
import type { Decision } from '../core/types.js';
import { ALREADY_DONE } from '../executor/consent.js';
import { approvalOf } from '../executor/consent-scope.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { consentNote } from '../planner/prompt/format.js';
import { appendJournal } from '../store/action-journal.js';
import { actionSignature } from '../tools/index.js';
import { cancellable } from './cancel.js';
import { flashVerification } from './flash-state.js';
import type { Executed } from './ports.js';
import { standingApproval } from './run-state.js';
import { apply, checkCancelled, live, type Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { askedAbout, screenState } from './step-helpers.js';
import type { RunStatus } from './types.js';

/**
 * Execute through the one pipeline with the run's consent port: a guarded action that already took
 * effect before an interruption is refused whatever the policy (DESIGN §6); every action is
 * journaled before dispatch (journal.jsonl), an approved guarded one in the checkpoint too; a
 * deferred one pauses the run with a checkpoint.
 */

export type Outcome =
  | { kind: 'executed'; exec: Executed }
  | { kind: 'end'; status: RunStatus; reason: string }
  | { kind: 'refused'; note: string; historyNote?: string };

/**
 * After the run's own action: a new approval is remembered, anything else ends the last one's
 * reach (a rule's or the gate's action leaves it). A covered confirmation dialog asked nobody: it
 * is not a second consent.
 */
async function carryApproval(s: Session, ctx: StepCtx, exec: Executed): Promise<void> {
  const c = exec.consent;
  const delivered = exec.receipt.delivery !== 'not_delivered';
  const own = ctx.record.source !== 'rule' && ctx.record.source !== 'gate';
  const approval = !own
    ? standingApproval(s.state)
    : c?.kind === 'approved' && !c.covered && delivered
      ? approvalOf(ctx.step, c.request, ctx.seen.obs)
      : undefined;
  const confirmed = c?.kind === 'approved' && !c.covered && !exec.dryRun;
  await apply(s, { kind: 'approval', approval, confirmed });
}

export async function executePlanned(s: Session, ctx: StepCtx, planned: PlannedStep, fresh: boolean): Promise<Outcome> {
  const decision: Decision = planned.decision;
  const obs = ctx.seen.obs;
  const sig = actionSignature(decision.action);
  checkCancelled(s);
  const te = s.perf();
  // A cancel stops the wait at once; the journal (written before dispatch) says what was in flight.
  const exec = await cancellable(
    s.deps.ports.execute({
      decision: live(s, decision),
      obs,
      dryRun: s.state.dryRun,
      verification: flashVerification(s.state, planned, !!ctx.burstRest),
      progress: s.run.signal && Progress.start(s.deps.clock, { signal: s.run.signal }),
      fresh,
      confirm: s.deps.confirm,
      // A tap on the confirmation dialog an approved action opened is covered by that approval (one
      // act, one consent); an act that already took effect before an interruption is refused.
      consent: { approval: standingApproval(s.state), alreadyDone: s.state.alreadyDone },
      events: async ({ request: req, guarded, covered }) => {
        if (covered) ctx.covered = covered;
        // Cancelled while the executor was on its way here: nothing more reaches the phone.
        checkCancelled(s);
        await appendJournal(
          s.run.runDir,
          {
            step: ctx.step,
            at: s.deps.clock.now(),
            decision,
            pre: obs,
            subgoal: s.state.current,
            subgoalDone: planned.subgoalDone,
            guarded: guarded ? req.summary : undefined,
          },
          [...s.run.secrets.values()],
        );
        if (!guarded) return;
        await apply(s, {
          kind: 'intent',
          // Should the run die in flight, the approval stands with the intent (resume judges both).
          approval: ctx.covered ?? approvalOf(ctx.step, req, obs),
          intent: {
            step: ctx.step,
            decision,
            pageHash: obs.pageHash,
            state: screenState(obs),
            summary: req.summary,
            subgoal: s.state.current,
            subgoalDone: planned.subgoalDone,
          },
          at: s.deps.clock.now(),
        });
      },
    }),
    s.run.signal,
  );
  ctx.deviceMs += s.perf() - te;
  if (exec.consent?.kind === 'approved' && exec.consent.covered) ctx.covered = exec.consent.covered;
  await carryApproval(s, ctx, exec);
  ctx.record.receipt = exec.receipt;
  // The element acted on, with its box: the report draws it on the screen before the step.
  if (exec.target) ctx.record.target = { id: exec.target.id, bounds: exec.target.bounds };
  const consent = exec.consent;
  if (consent && consent.kind !== 'free') {
    ctx.record.guard = {
      categories: consent.request.categories,
      reasons: consent.request.reasons,
      verdict: consent.kind,
      by: consent.by,
    };
  }
  if (exec.dryRun && consent) {
    ctx.record.guard = { categories: consent.request.categories, reasons: consent.request.reasons };
    return { kind: 'end', status: 'dry_run', reason: `dry run: would ${consent.request.summary}` };
  }
  if (consent?.kind === 'deferred') {
    await apply(s, {
      kind: 'deferred',
      pending: {
        step: ctx.step,
        decision,
        summary: consent.request.summary,
        categories: consent.request.categories,
        pageHash: obs.pageHash,
      },
      at: s.deps.clock.now(),
    });
    return {
      kind: 'end',
      status: 'needs_confirmation',
      reason: `waiting for confirmation: ${consent.request.summary}`,
    };
  }
  if (consent?.kind === 'denied') {
    const what = consent.request.summary;
    const ban = { page: obs.pageHash, signature: sig, shown: ctx.record.action };
    if (consent.reason === ALREADY_DONE) {
      await apply(s, {
        kind: 'refused',
        ban,
        hint: `"${what}" was already done before the interruption. Do not repeat it; check the result on screen and finish.`,
      });
      return { kind: 'refused', note: `"${what}" ${ALREADY_DONE}; not repeated`, historyNote: 'already done' };
    }
    const declined = consentNote('declined', askedAbout(consent.request), consent.request.categories);
    await apply(s, {
      kind: 'refused',
      ban,
      denied: true,
      hint: `${declined.replace(/^the/, 'The')}. Do not try it again or any other way to the same effect; tell the user it was not done (ask_user), or go on with parts of the goal that do not need it.`,
    });
    return { kind: 'refused', note: `denied by ${consent.by}: ${what}`, historyNote: declined };
  }
  return { kind: 'executed', exec };
}
