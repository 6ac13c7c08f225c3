import type { Decision } from '../core/types.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { TERMINAL_TOOLS } from '../planner/act-tool.js';
import { formatExpect } from '../planner/expect-dsl.js';
import { matchInterrupt } from '../planner/interrupts.js';
import { addUsage, emptyUsage } from '../planner/llm/client.js';
import { actionSignature, describeAction } from '../planner/memory/signature.js';
import { plannerTools } from '../planner/prompt/builders.js';
import { compactOf, counters, finish, live, observeStable, type Session } from './session.js';
import { GATE_WAIT, hashText, labelOf, replan, screenState } from './step-helpers.js';
import type { DecisionSource, RunResult, StepRecord } from './types.js';

/**
 * One step of DESIGN §1: interrupts by rule → frame gate → verified cache → model → loop breaker →
 * guardrails → execute → re-observe → validate → record. Returns the run's result when the step
 * ends the run, undefined to go on.
 */

const MAX_INVALID = 3;
const REPLAN_AFTER_FAILURES = 4;
const MAX_REPLANS = 2;

export interface StepStart {
  /** perf() when the step began (the first step of a new run includes planning). */
  t0: number;
  /** Model time already spent for this step (planning). */
  llmMs: number;
}

export async function runStep(s: Session, step: number, start: StepStart): Promise<RunResult | undefined> {
  const { ports, planner, memory, clock, logger } = s.deps;
  const obs = s.cur.obs;
  s.result.steps = step;
  const { t0 } = start;
  let llmMs = start.llmMs;
  let deviceMs = 0;
  let stepUsage = emptyUsage();
  const subgoal = s.plan[s.current]?.text ?? '';
  const record: StepRecord = {
    step,
    subgoal,
    source: 'llm',
    action: '',
    ok: false,
    llm: stepUsage,
    timings: { totalMs: 0, llmMs: 0, deviceMs: 0, overheadMs: 0 },
    pageHash: obs.pageHash,
    observation: compactOf(s, obs),
  };
  const pngBefore = s.cur.png;

  const save = async (): Promise<void> => {
    const totalMs = s.perf() - t0;
    record.llm = stepUsage;
    record.timings = { totalMs, llmMs, deviceMs, overheadMs: Math.max(0, totalMs - llmMs - deviceMs) };
    const { source, action, ok, note, llm, timings } = record;
    const summary = { step, subgoal, source, action, ok, note, llm, timings };
    s.result.stepLog.push(summary);
    const files = await s.archive.writeStep(step, record, pngBefore);
    await s.checkpoint.save({
      subgoals: s.plan,
      current: s.current,
      step,
      lastPageHash: s.cur.obs.pageHash,
      lastScreenshot: files.png,
      history: s.history.all().slice(-20),
      blacklist: s.blacklist.toJSON(),
      usage: s.total,
      counters: counters(s),
      // A journaled intent is cleared in the same write that records its result, so a kill can
      // never leave the result unrecorded and the intent gone.
      intent: undefined,
      updatedAt: clock.now(),
    });
    logger.info('step', { step, source, action, ok, note });
    s.deps.onEvent?.({ kind: 'step', max: s.maxSteps, summary });
  };

  // 1. Interrupts by rule, then the frame gate, then the verified cache, then the model.
  let planned: PlannedStep | undefined;
  let source: DecisionSource = 'llm';
  const interrupt = matchInterrupt(obs);
  const frame = obs.frameHash ?? record.observation;
  if (interrupt) {
    if (!s.interrupts.attempt(interrupt.key)) {
      record.note = `a ${interrupt.kind} dialog did not go away after 3 tries`;
      await save();
      return finish(s, 'ask_user', { reason: `${record.note}; please dismiss it and resume` });
    }
    planned = { decision: interrupt.decision, subgoalDone: false };
    source = 'rule';
    s.result.ruleActions++;
  } else if (s.lastWait && s.lastWait.frame === frame && s.lastWait.count < 3) {
    // Frame gate: we were waiting and nothing changed — keep waiting without asking the model.
    planned = GATE_WAIT;
    source = 'gate';
  } else {
    const hit = memory.lookup(s.goal, subgoal, obs.pageHash);
    // A page replayed twice in one run means the cache is going round a cycle: drop the entry.
    const key = `${subgoal}|${obs.pageHash}`;
    if (hit && s.replayed.has(key)) memory.evict(s.goal, subgoal, obs.pageHash);
    else if (hit && !s.blacklist.isBanned(obs.pageHash, actionSignature(hit.decision.action))) {
      s.replayed.add(key);
      planned = { decision: hit.decision, subgoalDone: hit.subgoalDone };
      source = 'cache';
      s.result.cacheHits++;
    }
  }
  if (!planned) {
    const tl = s.perf();
    const banned = s.blacklist.list(obs.pageHash);
    const res = await planner.decide({
      goal: s.goal,
      plan: s.plan,
      current: s.current,
      screen: record.observation,
      screenIsDelta: false,
      aspect: obs.screen.aspect,
      history: s.history.recent(5),
      banned,
      bannedSignatures: banned,
      tools: plannerTools(ports.image ? [...ports.tools, 'look'] : ports.tools),
      hint: s.hint,
      image: ports.image ? (req) => ports.image!(obs, req) : undefined,
      ids: new Set(obs.elements.map((e) => e.id)),
      visualFirst: obs.visualFirst,
    });
    llmMs += s.perf() - tl;
    stepUsage = addUsage(stepUsage, res.usage);
    s.total = addUsage(s.total, res.usage);
    if (!res.ok) {
      record.note = res.error;
      s.history.add({ step, action: '(no valid action)', expect: '-', ok: false, note: 'model output invalid' });
      await save();
      if (++s.invalidRun >= MAX_INVALID)
        return finish(s, 'failed', { reason: `the model gave no valid action ${MAX_INVALID} times: ${res.error}` });
      return undefined;
    }
    s.invalidRun = 0;
    s.hint = undefined;
    planned = res.step;
  }
  record.source = source;
  const decision: Decision = planned.decision;
  const action = decision.action;
  const sig = actionSignature(action);
  record.decision = decision;
  record.action = describeAction(action, labelOf(obs, action.target_id));
  record.expect = formatExpect(decision.expect);
  const breakerKey = `${obs.pageHash}:${hashText(record.observation)}`;
  const failed = (note: string, historyNote = note) => {
    record.note = note;
    s.history.add({ step, action: record.action, expect: record.expect ?? '-', ok: false, note: historyNote });
  };

  // 2. Terminal outcomes.
  if (TERMINAL_TOOLS.has(action.tool)) {
    // A claim of completion is checked against the screen and what the run has done (executor).
    const claim = ports.checkFinish?.(decision, obs);
    if (claim && !claim.ok) {
      record.signals = claim.signals;
      if (claim.handOver) {
        // A mistake seen on the phone that the model will not put back: a person decides, never "done".
        record.note = claim.reason;
        await save();
        return finish(s, 'ask_user', { reason: claim.reason });
      }
      failed(claim.reason ?? 'not finished');
      s.hint = claim.reason;
      await save();
      return undefined;
    }
    record.ok = true;
    await save();
    if (action.tool === 'done') return finish(s, 'done', { answer: action.answer });
    if (action.tool === 'infeasible') return finish(s, 'infeasible', { reason: action.reason });
    return finish(s, 'ask_user', { reason: action.question });
  }

  // 3. Loop breaker: the same action on the same page three times is not tried a fourth.
  if (source === 'llm') {
    // Keyed by the page *state* (values, toggles) so retyping a corrected field is not a loop.
    const verdict = s.breaker.check(breakerKey, sig);
    if (verdict.kind === 'hand_over') {
      record.note = verdict.reason;
      await save();
      return finish(s, 'ask_user', { reason: verdict.reason });
    }
    if (verdict.kind === 'change_strategy') {
      s.blacklist.ban(obs.pageHash, sig);
      s.hint = verdict.hint;
      failed(
        'loop breaker: action banned on this page, strategy change requested',
        'repeated without progress; banned',
      );
      await save();
      return undefined;
    }
  }

  // A credential is only ever typed into a password field: anywhere else it would be on screen.
  if (s.secrets.size && action.text && [...s.secrets.keys()].some((k) => action.text?.includes(k))) {
    const field = obs.elements.find((e) => e.id === action.target_id);
    if (!field?.flags.password) {
      s.blacklist.recordFailure(obs.pageHash, sig);
      failed('refused: a secret may only be typed into a password field');
      await save();
      return undefined;
    }
  }

  // 4. Guardrails (code, not prompt), dry run, confirmation.
  const guard = ports.guard(live(s, decision), obs);
  if (s.dryRun && guard.mutating) {
    record.note = `dry run: would ${guard.summary}`;
    record.guard = { categories: guard.categories, reasons: guard.reasons };
    await save();
    return finish(s, 'dry_run', { reason: record.note });
  }
  if (guard.needsConfirmation && s.alreadyDone.has(guard.summary)) {
    // It happened before an interruption (DESIGN §6): no confirmation policy may repeat it.
    s.blacklist.ban(obs.pageHash, sig);
    failed(`"${guard.summary}" already took effect before the run was interrupted; not repeated`, 'already done');
    s.hint = `"${guard.summary}" was already done before the interruption. Do not repeat it; check the result on screen and finish.`;
    await save();
    return undefined;
  }
  if (guard.needsConfirmation) {
    const verdict = await ports.confirm(guard, obs);
    record.guard = { categories: guard.categories, reasons: guard.reasons, verdict };
    if (verdict === 'deferred') {
      await s.checkpoint.save({
        pendingConfirmation: {
          step,
          decision,
          summary: guard.summary,
          categories: guard.categories,
          pageHash: obs.pageHash,
        },
      });
      record.note = `waiting for confirmation: ${guard.summary}`;
      await save();
      return finish(s, 'needs_confirmation', { reason: record.note });
    }
    if (verdict === 'denied') {
      s.result.denials++;
      s.blacklist.ban(obs.pageHash, sig);
      failed(`denied by the user: ${guard.summary}`, 'denied by the user');
      s.hint = `The user declined "${guard.summary}". Do not try it again; report that it was cancelled (ask_user) or continue another way.`;
      await save();
      return undefined;
    }
    s.result.confirmations++;
    // Journal the irreversible intent before dispatch (DESIGN §6); a resume checks it on screen.
    await s.checkpoint.save({
      pendingConfirmation: undefined,
      intent: {
        step,
        decision,
        pageHash: obs.pageHash,
        state: screenState(obs),
        summary: guard.summary,
        subgoal: s.current,
        subgoalDone: planned.subgoalDone,
      },
    });
  }

  // 5. Execute, re-observe, validate.
  const te = s.perf();
  const exec = await ports.execute(live(s, decision), obs);
  const execMs = s.perf() - te;
  record.receipt = exec.receipt;
  const post = await observeStable(s.deps, obs);
  deviceMs += execMs + post.realMs;
  const outcome = exec.ok
    ? ports.validate(decision.expect, obs, post.obs, decision, exec.target)
    : { ok: false, signals: [], reason: exec.error ?? 'dispatch failed' };
  record.ok = outcome.ok;
  record.signals = outcome.signals;
  record.note = outcome.ok ? (source === 'cache' ? 'replayed from page memory' : undefined) : outcome.reason;
  s.history.add({
    step,
    action: record.action,
    expect: record.expect,
    ok: outcome.ok,
    note: outcome.ok ? undefined : outcome.reason,
  });
  s.lastWait =
    action.tool === 'wait'
      ? { frame: post.obs.frameHash ?? compactOf(s, post.obs), count: (s.lastWait?.count ?? 0) + 1 }
      : undefined;

  if (outcome.ok) {
    // Verified although the tree's state stayed put (a map zoomed by pinch): progress, not a loop.
    // (Not a wait or a no-change step: those verify by nothing moving.)
    const invisible = decision.expect.kind !== 'no_change' && compactOf(s, post.obs) === record.observation;
    if (source === 'llm' && invisible) s.breaker.progressed(breakerKey, sig);
    // A step right after a failure that does not complete the subgoal (an undo, a back out of a
    // wrong page) answers that failure, not the page: replayed on a later visit it does harm.
    const corrective = s.failRun > 0 && !planned.subgoalDone;
    s.failRun = 0;
    if (!corrective && source !== 'rule' && source !== 'gate' && action.tool !== 'wait')
      memory.remember(s.goal, subgoal, obs.pageHash, decision, planned.subgoalDone);
    if (planned.subgoalDone && s.plan[s.current]) {
      s.plan[s.current]!.done = true;
      while (s.plan[s.current]?.done) s.current++;
    }
  } else {
    s.blacklist.recordFailure(obs.pageHash, sig);
    // Verified replay: a cached action whose expectation fails is forgotten at once.
    if (source === 'cache') memory.evict(s.goal, subgoal, obs.pageHash);
    if (++s.failRun >= REPLAN_AFTER_FAILURES && s.replans < MAX_REPLANS) {
      s.replans++;
      s.failRun = 0;
      const tl = s.perf();
      const r = await replan(
        planner,
        s.goal,
        s.plan,
        compactOf(s, post.obs),
        post.obs.screen.aspect,
        `${REPLAN_AFTER_FAILURES} actions in a row failed`,
      );
      llmMs += s.perf() - tl;
      stepUsage = addUsage(stepUsage, r.usage);
      s.total = addUsage(s.total, r.usage);
      s.plan = r.plan;
      s.current = r.current;
    }
  }
  s.cur = post;
  await save();
  return undefined;
}
