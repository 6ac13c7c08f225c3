import type { Observation, Receipt } from '../core/types.js';
import { applyAudit, auditAction } from './action-audit.js';
import type { Dispatched } from './dispatch.js';
import type { StepResult } from './executor.js';
import type { Acted, StageEnv } from './job.js';
import { perceiveSettled } from './observe.js';
import { reuseRead, type Verified, verifyAction } from './verify.js';

/**
 * Stage 4, verify: read until `expect` holds (light: once settled; full: on two identical reads),
 * then audit what else the action changed — the expectation can hold by accident (the wrong page
 * also removes the intended element) and a failed action can still have changed things. `none`
 * claims only delivery. The text ladder's read-back serves as the read when no frame is wanted. A
 * skill verified itself by what it read; its post read is audited the same way.
 */

export async function verify(env: StageEnv, job: Acted): Promise<StepResult> {
  const r = job.skilled ? verifiedSkill(env, job, job.skilled) : await verifyDispatch(env, job);
  return { ...r, verification: job.mode };
}

async function verifyDispatch(env: StageEnv, job: Acted & { out: Dispatched }): Promise<StepResult> {
  const { out, pre, mode, carried } = job;
  // `none`: delivered is all it claims. The text ladder's read-back is a fresh post-dispatch tree:
  // it is handed on (parsed, no new read) for the caller's own observation.
  if (mode === 'none') {
    env.memory.forget();
    const post = out.text?.snap ? await perceiveSettled(env.perceive, out.text.snap, pre) : undefined;
    if (post) env.memory.remember(post);
    return { ok: true, ...carried, reads: job.reads, changes: [], receipt: out.call.receipt, value: out.value, post };
  }
  const v = await readAfter(env, job);
  const reads = job.reads + v.reads;
  const receipt: Receipt = {
    ...out.call.receipt,
    pre: { pageHash: pre.pageHash, seq: pre.seq, frameHash: pre.frameHash },
    post: v.post ? { pageHash: v.post.pageHash, seq: v.post.seq, frameHash: v.post.frameHash } : undefined,
  };
  const base = { ...carried, reads, value: out.value, post: v.post, postPng: v.png };
  if (!v.outcome || !v.post) {
    const error = {
      code: 'READ_FAILED' as const,
      message: `the action was delivered but the screen could not be read to verify it (${v.lastError ?? 'no read in time'}); observe before retrying. Progress: ${job.progress.log.join('; ')}`,
    };
    return {
      ...base,
      ok: false,
      changes: [],
      receipt: { ...receipt, error },
      error: `${error.code}: ${error.message}`,
    };
  }
  env.memory.remember(v.post);
  const audit = auditAction({
    tools: env.deps.tools,
    expect: job.decision.expect,
    pre,
    post: v.post,
    action: job.action,
    acted: carried.target,
    expectationHeld: v.outcome.ok,
    approved: carried.consent?.kind === 'approved',
  });
  const outcome = applyAudit(v.outcome, audit);
  const error = outcome.ok ? undefined : deviceSaid(outcome.reason ?? 'not validated', receipt, v.post);
  return { ...base, ok: outcome.ok, receipt, outcome, changes: audit.changes, error };
}

/**
 * A delivered input after which the page stayed the same, where the device said why (a replay
 * phone: `off-graph: no recorded tap at … ; nothing changed`): its word goes first, ahead of the
 * validator's guess (dropped input, overlay, wrong element), so the model does not just try again.
 */
function deviceSaid(reason: string, receipt: Receipt, post: Observation): string {
  const said = receipt.detail?.trim();
  return said && receipt.pre?.pageHash === post.pageHash ? `the device said: ${said}; ${reason}` : reason;
}

/** The reads after the dispatch: the text ladder's read-back when it settles and satisfies `expect`, else polling. */
async function readAfter(env: StageEnv, job: Acted & { out: Dispatched }): Promise<Verified> {
  const { deps } = env;
  const { out, pre, mode, decision, carried } = job;
  const snap = out.text?.snap;
  const reuse =
    mode === 'light' && snap && !deps.screenshots
      ? await reuseRead(deps.tools, env.perceive, snap, decision, pre, carried.target)
      : undefined;
  if (reuse) return reuse;
  const poll =
    job.hooks.verifyTimeoutMs !== undefined ? { ...deps.poll, timeoutMs: job.hooks.verifyTimeoutMs } : deps.poll;
  const ctx = {
    device: deps.device,
    tools: deps.tools,
    perceive: env.perceive,
    mode: mode === 'none' ? ('light' as const) : mode,
    screenshots: !!deps.screenshots,
    gesture: job.spec.gesture,
    poll,
  };
  return verifyAction(ctx, decision, pre, carried.target, job.progress);
}

/** A skill's result, its post read remembered and audited for what else changed. */
function verifiedSkill(env: StageEnv, job: Acted, r: NonNullable<Acted['skilled']>): StepResult {
  const { carried } = job;
  if (!r.post) return { ...carried, ...r, reads: job.reads };
  env.memory.remember(r.post);
  const audit = auditAction({
    tools: env.deps.tools,
    expect: job.decision.expect,
    pre: job.pre,
    post: r.post,
    action: job.action,
    acted: carried.target,
    expectationHeld: r.ok,
    approved: carried.consent?.kind === 'approved',
  });
  return { ...carried, ...r, reads: job.reads, changes: audit.changes };
}
