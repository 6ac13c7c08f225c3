import type { Decision } from '../core/types.js';
import { formatExpect } from '../planner/expect-dsl.js';
import { emptyUsage } from '../planner/llm/client.js';
import { isTerminal } from '../tools/index.js';
import { partDispatched, partDone, shapeBurst, stopBurst } from './flash-burst-step.js';
import type { Perceived } from './ports.js';
import { apply, checkCancelled, resultOf, type Session } from './session.js';
import { choose } from './step-choose.js';
import type { StepCtx } from './step-context.js';
import { executePlanned } from './step-execute.js';
import { describeOn, labelOf, onScreen } from './step-helpers.js';
import { handleMeta, planAppliesAfterFailure, subgoalOpen } from './step-meta.js';
import { preflight } from './step-preflight.js';
import { reduce } from './step-reduce.js';
import type { RunResult, RunStatus } from './types.js';

/**
 * One step of DESIGN §1 on the screen it is given: choose (interrupt rule, wait gate, replay, or
 * model) → preflight (done gate, loop breaker, credentials) → execute (the executor's one pipeline,
 * consent through the run's port) → reduce. Each phase reads the run's state and says what happened
 * as events (./reduce.ts); `step_recorded` checkpoints the step and the listeners hear its record.
 * Returns the run's result when the step ends the run, else the screen the next step decides on.
 */

export type StepEnd = { ended: RunResult } | { next: Perceived };

export interface StepStart {
  /** perf() when the step began (the first step of a new run includes planning). */
  t0: number;
  /** Model time already spent for this step (planning). */
  llmMs: number;
}

export async function runStep(s: Session, step: number, seen: Perceived, start: StepStart): Promise<StepEnd> {
  const ctx: StepCtx = {
    step,
    seen,
    t0: start.t0,
    llmMs: start.llmMs,
    deviceMs: 0,
    usage: emptyUsage(),
    record: {
      step,
      subgoal: s.state.plan[s.state.current]?.text ?? '',
      source: 'llm',
      action: '',
      ok: false,
      llm: emptyUsage(),
      timings: { totalMs: 0, llmMs: 0, deviceMs: 0, overheadMs: 0 },
      pageHash: seen.obs.pageHash,
      observation: seen.compact,
      screen: { w: seen.obs.screen.w, h: seen.obs.screen.h },
    },
  };
  const end = async (status: RunStatus, extra: { answer?: string; reason?: string } = {}) => {
    await commit(s, ctx);
    return { ended: await finish(s, status, extra, seen) };
  };
  const next = async (post: Perceived = seen) => {
    await commit(s, ctx, post);
    return { next: post };
  };

  const choice = await choose(s, ctx);
  if (choice.kind === 'end') {
    ctx.record.note = choice.reason;
    return end(choice.status, { reason: choice.reason });
  }
  if (choice.kind === 'retry') {
    ctx.record.note = `model output rejected: ${choice.reason}`;
    return next();
  }
  const { source } = choice;
  // A burst runs in parts across pages and up to its first guarded member, which is a step of its
  // own (./flash-burst-step.ts).
  const shaped = await shapeBurst(s, ctx, choice.planned, choice.part);
  const planned = shaped.kind === 'run' ? shaped.planned : choice.planned;
  const action = planned.decision.action;
  Object.assign(ctx.record, {
    source,
    decision: planned.decision,
    action: describeOn(action, seen.obs, choice.ruleLabel ?? labelOf(seen.obs, action.target_id)),
    expect: shownExpect(planned.decision),
    note: choice.ruleNote,
  });
  // `subgoal_done` names the [>] subgoal the model was shown; `plan=[…]` is what is still open
  // after this action (./plan-edit.ts states the rule): both wait until the step has worked.
  ctx.revisedPlan = planned.revisedPlan;
  if (await handleMeta(s, ctx, planned)) return next();
  const refused = async (note: string, historyNote = note) => {
    ctx.record.note = note;
    // A refused part ends its burst: nothing after it is sent on a guess.
    await stopBurst(s);
    await apply(s, {
      kind: 'history',
      entry: onScreen(
        { step, action: ctx.record.action, expect: ctx.record.expect ?? '-', ok: false, note: historyNote },
        seen.obs,
      ),
    });
    return next();
  };
  if (shaped.kind === 'refused') return refused(shaped.note);

  checkCancelled(s);
  const pre = await preflight(s, ctx, planned, source);
  if (pre.kind === 'end') {
    if (pre.status !== 'done') ctx.record.note = pre.reason;
    return end(pre.status, { answer: pre.answer, reason: pre.reason });
  }
  if (pre.kind === 'refused') return refused(pre.note, pre.historyNote);

  await partDispatched(s, ctx, shaped);
  const out = await executePlanned(s, ctx, planned, source !== 'llm');
  if (out.kind === 'end') {
    ctx.record.note = out.reason;
    return end(out.status, { reason: out.reason });
  }
  if (out.kind === 'refused') return refused(out.note, out.historyNote);
  const post = await reduce(s, ctx, planned, source, out.exec);
  await partDone(s, ctx, ctx.record.ok);
  return next(post);
}

/**
 * Close the step's record (timings, tokens), checkpoint the step with the screen the next one
 * decides on, and hand the record to the listeners with the screen it decided on.
 */
async function commit(s: Session, ctx: StepCtx, post: Perceived = ctx.seen): Promise<void> {
  // Only a step that worked: after a failure the [>] subgoal is still to do (the history says so).
  if (ctx.revisedPlan && (ctx.record.ok || planAppliesAfterFailure(ctx, subgoalOpen(s))))
    await apply(s, { kind: 'plan_revised', revised: ctx.revisedPlan });
  ctx.revisedPlan = undefined;
  const totalMs = s.perf() - ctx.t0;
  ctx.record.llm = ctx.usage;
  ctx.record.timings = {
    totalMs,
    llmMs: ctx.llmMs,
    deviceMs: ctx.deviceMs,
    overheadMs: Math.max(0, totalMs - ctx.llmMs - ctx.deviceMs),
  };
  const png = ctx.seen.png;
  await apply(s, {
    kind: 'step_recorded',
    step: ctx.step,
    pageHash: post.obs.pageHash,
    screenshot: png ? s.archive.pngPath(ctx.step) : undefined,
    at: s.deps.clock.now(),
  });
  for (const l of s.listeners) await l({ kind: 'step', record: ctx.record, png, max: s.state.maxSteps });
}

/** End the run: remember a plan that carried it through, save the end, tell the listeners. */
export async function finish(
  s: Session,
  status: RunStatus,
  extra: { answer?: string; reason?: string },
  latest: Perceived,
): Promise<RunResult> {
  const { plan, current, goal } = s.state;
  // A Flash plan starts after its first action: only a Pro plan is whole enough to plan with again.
  if ((status === 'done' || status === 'ask_user') && current >= plan.length - 1 && s.state.mode === 'pro')
    s.deps.memory.rememberPlan(
      goal,
      plan.map((p) => p.text),
    );
  await apply(s, { kind: 'finished', status, ...extra, at: s.deps.clock.now() });
  const result = resultOf(s);
  for (const l of s.listeners) await l({ kind: 'finish', result, png: latest.png });
  return result;
}

/**
 * The expect as the history shows it: "-" for a terminal tool (as the model is told to send). A tool
 * that checks itself (set_slider reads where the thumb rests, seek_timeline its readout) does not
 * read the model's expect: its line says so, and never shows a kind the model cannot write
 * (`screen_changes`) as if the model had sent it — three relay players read that as their expect
 * rewritten.
 */
export function shownExpect(decision: Decision): string {
  if (isTerminal(decision.action)) return '-';
  // The action's own target is left out of its expectation: the line names it already.
  const shown = formatExpect(decision.expect, decision.action.target_id);
  const own = decision.expect.note;
  if (!own) return shown;
  const whose = `the tool's own check, your expect is not used: ${own}`;
  return decision.expect.kind === 'screen_changes' ? `(${whose})` : `${shown} (${whose})`;
}
