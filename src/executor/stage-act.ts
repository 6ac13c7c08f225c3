import type { Progress } from '../core/progress.js';
import { refuse } from './dispatch.js';
import { needsFrames } from './frames.js';
import { injectChecked } from './inject.js';
import { type Acted, type Consented, refused, type Staged, type StageEnv } from './job.js';
import { observeDevice } from './observe.js';
import { recheckTarget } from './recheck.js';
import { comparesScreens } from './verify.js';

/**
 * Stage 3, act: wait out the pacing gap, make the one fresh read right before injecting (pre
 * evidence and the target's re-check), then dispatch with the tool's retry ladder (the text
 * ladder, a sequence's members). With a dispatch budget, pacing, re-check and dispatch share it
 * inside the action's deadline. Light mode skips the re-check only for this executor's own settled
 * read made moments ago (no decision time in between); anything a model thought about is
 * re-checked. A skill (a closed loop of gestures and reads) is the dispatch of its tool: paced and
 * re-checked the same way.
 */

export async function act(env: StageEnv, job: Consented): Promise<Staged<Acted>> {
  const { deps } = env;
  const { obs, hooks, mode, spec, decision } = job;
  const ownFresh = !!hooks.fresh && env.memory.isOwnFresh(obs, deps.freshForMs ?? 1_000);
  const d = job.budget.dispatch !== undefined ? job.progress.child(job.budget.dispatch) : job.progress;
  const pacedMs = await env.gap.wait(d);
  let carried = { ...job.carried, pacedMs };
  if (spec.skill) return actSkill(env, { ...job, carried }, d, ownFresh);
  const ctx = {
    device: deps.device,
    tools: deps.tools,
    logger: deps.logger,
    pacer: env.pacer,
    perceive: env.perceive,
    spec,
  };
  const frames = needsFrames(decision.expect.kind, spec.gesture, obs);
  let inj: Awaited<ReturnType<typeof injectChecked>>;
  try {
    inj = await injectChecked(ctx, job.action, obs, job.aim, job.native, d, {
      preRead: mode === 'full' || (mode === 'light' && frames),
      recheck: mode === 'full' || !ownFresh,
      frames,
      evidence: mode !== 'none' && comparesScreens(decision.expect),
    });
  } finally {
    env.gap.dispatched();
  }
  if (!inj.ok) return refused(inj.call.receipt, { ...carried, reads: inj.reads, post: inj.seen });
  const { out, pre, reads } = inj;
  if (out.gestureMs !== undefined) carried = { ...carried, gestureMs: out.gestureMs };
  job.progress.note(`dispatched via ${out.call.receipt.backend ?? deps.device.name}: ${out.call.receipt.status}`);
  if (!out.call.ok) {
    if (out.call.receipt.delivery === 'unknown') {
      deps.logger.warn('delivery unknown: the next step must observe before any retry', { page: obs.pageHash });
      env.memory.forget();
    }
    return refused(out.call.receipt, { ...carried, reads, value: out.value });
  }
  return { next: { ...job, carried, out, pre, reads } };
}

/**
 * A skill's act: the same gap, then the same re-check — one fresh read on which its target must
 * still be where it was (unless light mode may reuse this executor's own read) — and its loop starts
 * from that read. Its report is the dispatch's answer; it verifies itself by what it reads.
 */
async function actSkill(env: StageEnv, job: Consented, d: Progress, ownFresh: boolean): Promise<Staged<Acted>> {
  const { device, clock } = env.deps;
  const target = job.aim.element;
  const skill = job.spec.skill;
  if (!skill || !target)
    return refused(refuse(d, 'INVALID_ARGUMENT', `${job.action.tool} needs its target's id`).receipt, job.carried);
  let pre = job.obs;
  let reads = 0;
  if (job.mode === 'full' || !ownFresh) {
    reads++;
    const seen = await observeDevice(device, env.perceive, job.obs, d);
    if (!seen.ok) {
      const why = `could not re-read the screen right before ${job.action.tool} (${seen.message}); observe again`;
      return refused(refuse(d, 'READ_FAILED', why).receipt, { ...job.carried, reads });
    }
    const rc = recheckTarget(target, seen.snap);
    if (!rc.ok) return refused(refuse(d, rc.code, rc.message).receipt, { ...job.carried, reads, post: seen.obs });
    pre = seen.obs;
  }
  const now = pre.elements.find((e) => e.id === target.id) ?? target;
  try {
    const skilled = await skill({ device, perceive: env.perceive, clock }, job.action, pre, now, d);
    job.progress.note(`${job.action.tool}: ${skilled.receipt.status}${skilled.error ? ` (${skilled.error})` : ''}`);
    return { next: { ...job, pre, reads: reads + skilled.reads, skilled } };
  } finally {
    env.gap.dispatched();
  }
}
