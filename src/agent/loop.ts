import path from 'node:path';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Decision, Observation } from '../core/types.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { TERMINAL_TOOLS } from '../planner/act-tool.js';
import { formatExpect } from '../planner/expect-dsl.js';
import { InterruptTracker, matchInterrupt } from '../planner/interrupts.js';
import { addUsage, emptyUsage, type LlmUsage } from '../planner/llm/client.js';
import { Blacklist } from '../planner/memory/blacklist.js';
import { History } from '../planner/memory/history.js';
import { LoopBreaker } from '../planner/memory/loop-breaker.js';
import type { PageMemory } from '../planner/memory/page-memory.js';
import { actionSignature, describeAction } from '../planner/memory/signature.js';
import type { Planner } from '../planner/planner.js';
import { plannerTools } from '../planner/prompt/builders.js';
import type { Subgoal } from '../planner/prompt/types.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { newRunId, RunArchive } from '../store/run-archive.js';
import type { AgentPorts, Perceived } from './ports.js';
import { maskSecrets, unmask } from './secrets.js';
import { GATE_WAIT, hashText, labelOf, replan } from './step-helpers.js';
import type { AgentEvent, DecisionSource, RunResult, RunStatus, StepRecord } from './types.js';

/**
 * The loop of DESIGN §1: perceive → interrupts → cache or planner → guardrails → execute →
 * validate → record. Every step is archived; the checkpoint is saved after each one.
 */

export interface RunOptions {
  goal: string;
  maxSteps: number;
  runsDir: string;
  dryRun?: boolean;
  runId?: string;
}

export interface AgentDeps {
  ports: AgentPorts;
  planner: Planner;
  memory: PageMemory;
  clock: Clock;
  logger: Logger;
  /** Real-time ms for the overhead measurement (performance.now by default). */
  perf?: () => number;
  onEvent?: (e: AgentEvent) => void;
}

const SETTLE_MS = 150;
const MAX_SETTLE = 6;
const MAX_INVALID = 3;
const REPLAN_AFTER_FAILURES = 4;
const MAX_REPLANS = 2;

export async function runAgent(deps: AgentDeps, runOpts: RunOptions): Promise<RunResult> {
  const { ports, planner, memory, clock, logger } = deps;
  // Credentials in the goal become placeholders for everything but dispatch.
  const { goal: maskedGoal, secrets } = maskSecrets(runOpts.goal);
  const opts = { ...runOpts, goal: maskedGoal };
  const live = (d: Decision): Decision =>
    secrets.size && d.action.text !== undefined
      ? { ...d, action: { ...d.action, text: unmask(d.action.text, secrets) } }
      : d;
  const perf = deps.perf ?? (() => performance.now());
  const runId = opts.runId ?? newRunId(clock.now());
  const runDir = path.join(opts.runsDir, runId);
  const archive = await RunArchive.create(runDir);
  const history = new History(5);
  const blacklist = new Blacklist();
  const breaker = new LoopBreaker();
  const interrupts = new InterruptTracker();
  let total: LlmUsage = emptyUsage();
  const result: RunResult = {
    runId,
    runDir,
    goal: opts.goal,
    status: 'failed',
    steps: 0,
    llm: total,
    cacheHits: 0,
    ruleActions: 0,
    denials: 0,
    confirmations: 0,
    stepLog: [],
  };

  /** Observe until the screen is stable (transitions, loading): waiting here costs no LLM call. */
  async function observeStable(prev?: Observation): Promise<Perceived & { realMs: number }> {
    const t = perf();
    let p = await ports.observe(prev, { screenshot: true });
    for (let i = 0; p.obs.unstable && i < MAX_SETTLE; i++) {
      await clock.sleep(SETTLE_MS);
      p = await ports.observe(prev, { screenshot: true });
    }
    return { ...p, realMs: perf() - t };
  }

  let cur = await observeStable();
  let obs = cur.obs;

  // The coarse plan: from page memory when this goal was planned before, else one model call.
  let plan: Subgoal[];
  const cachedPlan = memory.plan(opts.goal);
  const tPlan = perf();
  if (cachedPlan) plan = cachedPlan.map((text) => ({ text, done: false }));
  else {
    const p = await planner.makePlan({ goal: opts.goal, screen: ports.compact(obs), aspect: obs.screen.aspect });
    plan = p.plan;
    total = addUsage(total, p.usage);
  }
  const planMs = perf() - tPlan;
  deps.onEvent?.({ kind: 'plan', subgoals: plan.map((s) => s.text), cached: !!cachedPlan });
  let current = 0;

  const checkpoint = await CheckpointStore.create(runDir, {
    version: 1,
    runId,
    goal: opts.goal,
    status: 'running',
    subgoals: plan,
    current,
    step: 0,
    maxSteps: opts.maxSteps,
    lastPageHash: obs.pageHash,
    history: [],
    blacklist: {},
    updatedAt: clock.now(),
  });

  async function finish(status: RunStatus, extra: { answer?: string; reason?: string } = {}): Promise<RunResult> {
    // A plan is remembered only once it carried a run to its last subgoal.
    if ((status === 'done' || status === 'ask_user') && current >= plan.length - 1)
      memory.rememberPlan(
        opts.goal,
        plan.map((s) => s.text),
      );
    Object.assign(result, { status, llm: total, ...extra });
    await checkpoint.save({ status, answer: extra.answer, reason: extra.reason, updatedAt: clock.now() });
    deps.onEvent?.({ kind: 'finish', result });
    return result;
  }

  let hint: string | undefined;
  let invalidRun = 0;
  let failRun = 0;
  let replans = 0;
  let lastWait: { frame: string; count: number } | undefined;
  const replayed = new Set<string>();

  for (let step = 1; step <= opts.maxSteps; step++) {
    result.steps = step;
    const t0 = step === 1 ? tPlan : perf();
    let llmMs = step === 1 ? planMs : 0;
    let deviceMs = 0;
    let stepUsage = emptyUsage();
    const subgoal = plan[current]?.text ?? '';
    const record: StepRecord = {
      step,
      subgoal,
      source: 'llm',
      action: '',
      ok: false,
      llm: stepUsage,
      timings: { totalMs: 0, llmMs: 0, deviceMs: 0, overheadMs: 0 },
      pageHash: obs.pageHash,
      observation: ports.compact(obs),
    };
    const pngBefore = cur.png;

    const save = async (): Promise<void> => {
      const totalMs = perf() - t0;
      record.llm = stepUsage;
      record.timings = { totalMs, llmMs, deviceMs, overheadMs: Math.max(0, totalMs - llmMs - deviceMs) };
      const { source, action, ok, note, llm, timings } = record;
      const summary = { step, subgoal, source, action, ok, note, llm, timings };
      result.stepLog.push(summary);
      const files = await archive.writeStep(step, record, pngBefore);
      await checkpoint.save({
        subgoals: plan,
        current,
        step,
        lastPageHash: obs.pageHash,
        lastScreenshot: files.png,
        history: history.all().slice(-20),
        blacklist: blacklist.toJSON(),
        updatedAt: clock.now(),
      });
      logger.info('step', { step, source, action, ok, note });
      deps.onEvent?.({ kind: 'step', max: opts.maxSteps, summary });
    };

    // 1. Interrupts by rule, then the frame gate, then the verified cache, then the model.
    let planned: PlannedStep | undefined;
    let source: DecisionSource = 'llm';
    const interrupt = matchInterrupt(obs);
    const frame = obs.frameHash ?? record.observation;
    if (interrupt) {
      if (!interrupts.attempt(interrupt.key)) {
        record.note = `a ${interrupt.kind} dialog did not go away after 3 tries`;
        await save();
        return finish('ask_user', { reason: `${record.note}; please dismiss it and resume` });
      }
      planned = { decision: interrupt.decision, subgoalDone: false };
      source = 'rule';
      result.ruleActions++;
    } else if (lastWait && lastWait.frame === frame && lastWait.count < 3) {
      // Frame gate: we were waiting and nothing changed — keep waiting without asking the model.
      planned = GATE_WAIT;
      source = 'gate';
    } else {
      const hit = memory.lookup(opts.goal, subgoal, obs.pageHash);
      // A page replayed twice in one run means the cache is going round a cycle: drop the entry.
      const key = `${subgoal}|${obs.pageHash}`;
      if (hit && replayed.has(key)) memory.evict(opts.goal, subgoal, obs.pageHash);
      else if (hit && !blacklist.isBanned(obs.pageHash, actionSignature(hit.decision.action))) {
        replayed.add(key);
        planned = { decision: hit.decision, subgoalDone: hit.subgoalDone };
        source = 'cache';
        result.cacheHits++;
      }
    }
    if (!planned) {
      const tl = perf();
      const banned = blacklist.list(obs.pageHash);
      const res = await planner.decide({
        goal: opts.goal,
        plan,
        current,
        screen: record.observation,
        screenIsDelta: false,
        aspect: obs.screen.aspect,
        history: history.recent(5),
        banned,
        bannedSignatures: banned,
        tools: plannerTools(ports.image ? [...ports.tools, 'look'] : ports.tools),
        hint,
        image: ports.image ? (req) => ports.image!(obs, req) : undefined,
        ids: new Set(obs.elements.map((e) => e.id)),
        visualFirst: obs.visualFirst,
      });
      llmMs += perf() - tl;
      stepUsage = addUsage(stepUsage, res.usage);
      total = addUsage(total, res.usage);
      if (!res.ok) {
        record.note = res.error;
        history.add({ step, action: '(no valid action)', expect: '-', ok: false, note: 'model output invalid' });
        await save();
        if (++invalidRun >= MAX_INVALID)
          return finish('failed', { reason: `the model gave no valid action ${MAX_INVALID} times: ${res.error}` });
        continue;
      }
      invalidRun = 0;
      hint = undefined;
      planned = res.step;
    }
    record.source = source;
    const decision: Decision = planned.decision;
    const action = decision.action;
    const sig = actionSignature(action);
    record.decision = decision;
    record.action = describeAction(action, labelOf(obs, action.target_id));
    record.expect = formatExpect(decision.expect);

    // 2. Terminal outcomes.
    if (TERMINAL_TOOLS.has(action.tool)) {
      record.ok = true;
      await save();
      if (action.tool === 'done') return finish('done', { answer: action.answer });
      if (action.tool === 'infeasible') return finish('infeasible', { reason: action.reason });
      return finish('ask_user', { reason: action.question });
    }

    // 3. Loop breaker: the same action on the same page three times is not tried a fourth.
    if (source === 'llm') {
      // Keyed by the page *state* (values, toggles) so retyping a corrected field is not a loop.
      const verdict = breaker.check(`${obs.pageHash}:${hashText(record.observation)}`, sig);
      if (verdict.kind === 'hand_over') {
        record.note = verdict.reason;
        await save();
        return finish('ask_user', { reason: verdict.reason });
      }
      if (verdict.kind === 'change_strategy') {
        blacklist.ban(obs.pageHash, sig);
        hint = verdict.hint;
        record.note = 'loop breaker: action banned on this page, strategy change requested';
        history.add({
          step,
          action: record.action,
          expect: record.expect,
          ok: false,
          note: 'repeated without progress; banned',
        });
        await save();
        continue;
      }
    }

    // A credential is only ever typed into a password field: anywhere else it would be on screen.
    if (secrets.size && action.text && [...secrets.keys()].some((k) => action.text?.includes(k))) {
      const field = obs.elements.find((e) => e.id === action.target_id);
      if (!field?.flags.password) {
        record.note = 'refused: a secret may only be typed into a password field';
        blacklist.recordFailure(obs.pageHash, sig);
        history.add({ step, action: record.action, expect: record.expect, ok: false, note: record.note });
        await save();
        continue;
      }
    }

    // 4. Guardrails (code, not prompt), dry run, confirmation.
    const guard = ports.guard(live(decision), obs);
    if (opts.dryRun && guard.mutating) {
      record.note = `dry run: would ${guard.summary}`;
      record.guard = { categories: guard.categories, reasons: guard.reasons };
      await save();
      return finish('dry_run', { reason: record.note });
    }
    if (guard.needsConfirmation) {
      const verdict = await ports.confirm(guard, obs);
      record.guard = { categories: guard.categories, reasons: guard.reasons, verdict };
      if (verdict === 'deferred') {
        await checkpoint.save({
          pendingConfirmation: { step, decision, summary: guard.summary, categories: guard.categories },
        });
        record.note = `waiting for confirmation: ${guard.summary}`;
        await save();
        return finish('needs_confirmation', { reason: record.note });
      }
      if (verdict === 'denied') {
        result.denials++;
        blacklist.ban(obs.pageHash, sig);
        record.note = `denied by the user: ${guard.summary}`;
        history.add({ step, action: record.action, expect: record.expect, ok: false, note: 'denied by the user' });
        hint = `The user declined "${guard.summary}". Do not try it again; report that it was cancelled (ask_user) or continue another way.`;
        await save();
        continue;
      }
      result.confirmations++;
      // Journal the irreversible intent before dispatch (DESIGN §6).
      await checkpoint.save({ intent: { step, decision, pageHash: obs.pageHash } });
    }

    // 5. Execute, re-observe, validate.
    const te = perf();
    const exec = await ports.execute(live(decision), obs);
    const execMs = perf() - te;
    record.receipt = exec.receipt;
    const post = await observeStable(obs);
    deviceMs += execMs + post.realMs;
    const outcome = exec.ok
      ? ports.validate(decision.expect, obs, post.obs, decision, exec.target)
      : { ok: false, signals: [], reason: exec.error ?? 'dispatch failed' };
    if (guard.needsConfirmation) await checkpoint.save({ intent: undefined });
    record.ok = outcome.ok;
    record.signals = outcome.signals;
    record.note = outcome.ok ? (source === 'cache' ? 'replayed from page memory' : undefined) : outcome.reason;
    history.add({
      step,
      action: record.action,
      expect: record.expect,
      ok: outcome.ok,
      note: outcome.ok ? undefined : outcome.reason,
    });
    lastWait =
      action.tool === 'wait'
        ? { frame: post.obs.frameHash ?? ports.compact(post.obs), count: (lastWait?.count ?? 0) + 1 }
        : undefined;

    if (outcome.ok) {
      failRun = 0;
      if (source !== 'rule' && source !== 'gate' && action.tool !== 'wait')
        memory.remember(opts.goal, subgoal, obs.pageHash, decision, planned.subgoalDone);
      if (planned.subgoalDone && plan[current]) {
        plan[current]!.done = true;
        while (plan[current]?.done) current++;
      }
    } else {
      blacklist.recordFailure(obs.pageHash, sig);
      // Verified replay: a cached action whose expectation fails is forgotten at once.
      if (source === 'cache') memory.evict(opts.goal, subgoal, obs.pageHash);
      if (++failRun >= REPLAN_AFTER_FAILURES && replans < MAX_REPLANS) {
        replans++;
        failRun = 0;
        const tl = perf();
        const r = await replan(
          planner,
          opts.goal,
          plan,
          ports.compact(post.obs),
          post.obs.screen.aspect,
          REPLAN_AFTER_FAILURES,
        );
        llmMs += perf() - tl;
        stepUsage = addUsage(stepUsage, r.usage);
        total = addUsage(total, r.usage);
        plan = r.plan;
        current = r.current;
      }
    }
    await save();
    cur = post;
    obs = post.obs;
  }
  return finish('budget', { reason: `step budget of ${opts.maxSteps} used up` });
}

export type { Checkpoint };
