import type { Deadline } from '../core/clock.js';
import type { Decision } from '../core/types.js';
import type { ConfirmationAnswer, ConfirmationChannel, ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { actionSignature } from '../planner/memory/signature.js';
import { consentNote } from '../planner/prompt/format.js';
import { appendJournal } from '../store/action-journal.js';
import type { Executed } from './ports.js';
import { live, type Session } from './session.js';
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

const ALREADY_DONE = 'already took effect before the run was interrupted';

function runChannel(s: Session): ConfirmationChannel {
  return {
    name: s.deps.confirm.name,
    async confirm(req: ConfirmationRequest, d: Deadline): Promise<ConfirmationAnswer> {
      if (s.mem.alreadyDone.has(req.summary)) return { verdict: 'denied', by: 'resume', reason: ALREADY_DONE };
      return s.deps.confirm.confirm(req, d);
    },
  };
}

export async function executePlanned(s: Session, ctx: StepCtx, planned: PlannedStep, fresh: boolean): Promise<Outcome> {
  const decision: Decision = planned.decision;
  const obs = ctx.seen.obs;
  const sig = actionSignature(decision.action);
  const te = s.perf();
  const exec = await s.deps.ports.execute({
    decision: live(s, decision),
    obs,
    dryRun: s.run.dryRun,
    fresh,
    confirm: runChannel(s),
    journal: async (req, guarded) => {
      await appendJournal(
        s.run.runDir,
        {
          step: ctx.step,
          at: s.deps.clock.now(),
          decision,
          pre: obs,
          subgoal: s.current,
          subgoalDone: planned.subgoalDone,
          guarded: guarded ? req.summary : undefined,
        },
        [...s.run.secrets.values()],
      );
      if (!guarded) return;
      await s.checkpoint.save({
        pendingConfirmation: undefined,
        intent: {
          step: ctx.step,
          decision,
          pageHash: obs.pageHash,
          state: screenState(obs),
          summary: req.summary,
          subgoal: s.current,
          subgoalDone: planned.subgoalDone,
        },
      });
    },
  });
  ctx.deviceMs += s.perf() - te;
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
    await s.checkpoint.save({
      pendingConfirmation: {
        step: ctx.step,
        decision,
        summary: consent.request.summary,
        categories: consent.request.categories,
        pageHash: obs.pageHash,
      },
    });
    return {
      kind: 'end',
      status: 'needs_confirmation',
      reason: `waiting for confirmation: ${consent.request.summary}`,
    };
  }
  if (consent?.kind === 'denied') {
    const what = consent.request.summary;
    s.mem.blacklist.ban(obs.pageHash, sig, ctx.record.action);
    if (consent.reason === ALREADY_DONE) {
      s.loop.hint = `"${what}" was already done before the interruption. Do not repeat it; check the result on screen and finish.`;
      return { kind: 'refused', note: `"${what}" ${ALREADY_DONE}; not repeated`, historyNote: 'already done' };
    }
    s.result.denials++;
    const declined = consentNote('declined', askedAbout(consent.request), consent.request.categories);
    s.loop.hint = `${declined.replace(/^the/, 'The')}. Do not try it again or any other way to the same effect; tell the user it was not done (ask_user), or go on with parts of the goal that do not need it.`;
    return { kind: 'refused', note: `denied by ${consent.by}: ${what}`, historyNote: declined };
  }
  if (consent?.kind === 'approved') s.result.confirmations++;
  return { kind: 'executed', exec };
}
