import { askConsent, guardOf } from './consent.js';
import { refusedInExplore } from './guardrails/explore-policy.js';
import { type Consented, type Job, noneReceipt, refused, type Staged, type StageEnv } from './job.js';
import { actionProgress } from './stage-prepare.js';
import type { VerificationMode } from './verify.js';

/**
 * Stage 2, guard: classify the action (DESIGN §5), then consent through the caller's confirmation
 * port, judged first on what the run already knows (an approval that covers this dialog, an act a
 * resume found done). A dry run asks nobody and sends nothing that mutates. Every action that can
 * change the phone is announced (the `intent` event, which the journal records) before it is sent:
 * a resume judges the one in flight on screen. The wait for a person is not part of the action's
 * time: an approved action gets a fresh Progress, and is verified in full.
 */

export async function guard(env: StageEnv, job: Job): Promise<Staged<Consented>> {
  const { clock, logger } = env.deps;
  const { action, obs, hooks, aim } = job;
  const target = aim.element;
  const g = guardOf(env.deps.tools, action, obs, target, env.deps.guard, aim.needsConfirmation);
  if (hooks.policy === 'explore') {
    const why = refusedInExplore(action, obs, target, g.guard, env.deps.tools.get(action.tool));
    if (why)
      return refused(noneReceipt(clock, 'cancelled', 'CANCELLED', `Explore refuses ${g.request.summary}: ${why}`), {
        ...job.carried,
        guard: g.guard,
      });
  }
  if ((hooks.dryRun ?? env.deps.dryRun) && g.guard.mutating)
    return {
      end: {
        ok: true,
        reads: 0,
        changes: [],
        target,
        guard: g.guard,
        consent: { kind: 'free', ...g },
        dryRun: true,
        receipt: noneReceipt(clock, 'not_started'),
      },
    };
  const channel = hooks.confirm ?? env.deps.confirm;
  const deps = { clock, logger, channel, timeoutMs: env.deps.confirmTimeoutMs, progress: job.progress };
  const consent = await askConsent(deps, action, obs, target, g, hooks.consent);
  const carried = { ...job.carried, guard: g.guard, consent };
  if (consent.kind === 'denied') {
    const why = `not confirmed (${consent.reason ?? consent.by}): ${g.request.summary}`;
    return refused(noneReceipt(clock, 'cancelled', 'CANCELLED', why), carried);
  }
  if (consent.kind === 'deferred') {
    const why = `waiting for confirmation: ${g.request.summary}; checkpoint and resume after a person confirms`;
    return refused(noneReceipt(clock, 'not_started', 'CANCELLED', why), { ...carried, pendingConfirmation: g.request });
  }
  const approved = consent.kind === 'approved';
  if (g.guard.mutating)
    await hooks.events?.({
      kind: 'intent',
      request: g.request,
      guarded: approved,
      ...(approved && consent.covered ? { covered: consent.covered } : {}),
    });
  const progress = approved ? actionProgress(env, hooks, job.budget.total) : job.progress;
  // Guarded actions are verified beyond doubt: two identical reads after the expectation holds.
  const mode: VerificationMode = approved ? 'full' : (hooks.verification ?? env.mode);
  progress.note(`${g.request.summary}: aimed${target ? ` at [${target.id}]` : ''}; ${mode} verification`);
  return { next: { ...job, progress, carried, mode } };
}
