import type { Approval } from '../core/approval.js';
import type { Action, Expect, Observation } from '../core/types.js';
import { isLauncherPackage } from '../device/app-label.js';
import type { StateChange } from '../executor/side-effects.js';
import { FrameGate, type FrameGateState } from '../perception/frame.js';
import { type ScrollEndState, ScrollEndTracker } from '../perception/scroll-end.js';
import { InterruptTracker } from '../planner/interrupts.js';
import { addUsage, type LlmUsage } from '../planner/llm/client.js';
import { Blacklist } from '../planner/memory/blacklist.js';
import { LoopBreaker, type LoopVerdict } from '../planner/memory/loop-breaker.js';
import type { HistoryEntry, Subgoal } from '../planner/prompt/types.js';
import type { PendingBurst } from '../store/checkpoint.js';
import { type CompletionState, CompletionTracker, type Verdict } from './completion.js';
import { countFlashMiss, type HandedOver, handedOver } from './flash-state.js';
import { revise, tick } from './plan-edit.js';
import type { Counters, DeepReadonly, LoopData, RunState, RunStateData, RunStatus } from './run-state.js';
import { HISTORY_KEPT } from './run-state.js';

/**
 * The run as a reducer (DESIGN §1): every change to a run's state is an event, and
 * `reduce(state, event)` is the one function that makes the next state — pure, so a step can be
 * replayed, tested and checkpointed as data. The step's phases (./step-*.ts) read the state and
 * say what happened; they never write it. The trackers are the planner's and perception's own
 * classes, rebuilt from their data for one call and turned back into data.
 */

export type RunEvent =
  /** A new run, or a resumed one, looked at the phone before its first step. */
  | { kind: 'observed'; obs: Observation }
  /** An action's effect was seen on `obs` without a step (a resume judged the one in flight). */
  | { kind: 'effect_seen'; obs: Observation }
  | { kind: 'usage'; usage: LlmUsage }
  | { kind: 'interrupt_tried'; key: string }
  | { kind: 'gate_checked'; hash: string }
  | { kind: 'replayed'; key: string }
  /** The model's reply went to the step (its look, if any, is used up either way). */
  | { kind: 'model_answered'; rejected?: string }
  | { kind: 'looked'; entry: HistoryEntry; look?: { url: string; of: string; screen: string } }
  /** `through`: the last subgoal index its `subgoal_done=N` ticks (./plan-edit.ts). */
  | { kind: 'meta'; entry: HistoryEntry; note?: string; confirmed: boolean; closes: boolean; through?: number }
  /** A terminal claim judged by the done gate (`claimVerdict`). */
  | { kind: 'claim'; action: Action; obs: Observation; goal: string }
  /** The loop breaker heard the model's action (`breakerVerdict`). */
  | { kind: 'breaker'; page: string; key: string; signature: string; shown: string }
  /** A step refused before it reached the phone, or by its consent. */
  | {
      kind: 'refused';
      entry?: HistoryEntry;
      hint?: string;
      ban?: { page: string; signature: string; shown: string };
      failure?: { page: string; signature: string; shown: string };
      denied?: boolean;
    }
  /** An approved irreversible action is about to be sent (journaled in the checkpoint too). */
  | { kind: 'intent'; intent: NonNullable<RunState['intent']>; approval?: Approval; at: number }
  | { kind: 'deferred'; pending: NonNullable<RunState['pendingConfirmation']>; at: number }
  /** The run's own action was answered: its approval (if new) carries on, anything else ends it. */
  | { kind: 'approval'; approval?: Approval; confirmed: boolean }
  | { kind: 'executed'; e: Executed }
  | { kind: 'replanned'; plan: Subgoal[]; current: number; usage?: LlmUsage }
  /** A Flash run became a Pro run (./flash-state.ts). */
  | HandedOver
  /** Plan edits: the [>] subgoal closed, the model's revised plan, a subgoal ticked by index. */
  | { kind: 'subgoal_closed'; index?: number }
  | { kind: 'plan_revised'; revised: readonly string[] }
  | { kind: 'history'; entry: HistoryEntry }
  | { kind: 'hint'; hint?: string }
  /** A cross-page burst's members still to run (none: it ended or stopped), ./flash-burst.ts. */
  | { kind: 'burst'; pending?: PendingBurst }
  | { kind: 'already_done'; what: string }
  | { kind: 'approval_dropped'; step?: number }
  /** The step is recorded (archive, checkpoint): what the next step decides on. */
  | { kind: 'step_recorded'; step: number; pageHash: string; screenshot?: string; at: number }
  | { kind: 'resumed'; step: number; maxSteps: number; at: number }
  | { kind: 'finished'; status: RunStatus; answer?: string; reason?: string; at: number }
  | { kind: 'interrupted'; reason: string; at: number };

/** An executed action, as the step saw it (./step-reduce.ts builds it). */
export interface Executed {
  step: number;
  ok: boolean;
  reason?: string;
  expect: Expect;
  /** The screen decided on, and the one read after (absent when nothing was read). */
  seen: { obs: Observation; compact: string };
  post?: Observation;
  changes: StateChange[];
  /** The history line (its note chosen by the step). */
  entry: HistoryEntry;
  wait: boolean;
  /** The packages the run's own action was in and brought up. */
  apps: string[];
  /** Progress the loop breaker cannot see (the page state stayed put): its count starts again. */
  progressed?: { key: string; signature: string };
  /** Learned into page memory (subgoal|page): not replayed on this run. */
  learned?: string;
  closes: boolean;
  /** With `closes`: the last subgoal index `subgoal_done=N` ticks (./plan-edit.ts); the [>] one alone when absent. */
  through?: number;
  /** A failure that counts against the action on its page. */
  failure?: { page: string; signature: string; shown: string };
  /** A swipe through a list: its tracker, as fed by `scrollVerdict`. */
  scroll?: { key: string; tracker: ScrollEndState };
  /** What the tool read off the screen (its registry `readings`): seen, for the done gate. */
  readings?: string[];
}

export const REPLAN_AFTER_FAILURES = 4;
export const MAX_REPLANS = 2;

export function reduce(s: RunState, ev: RunEvent): RunState {
  switch (ev.kind) {
    case 'observed':
      return { ...s, lastPageHash: ev.obs.pageHash, completion: withCompletion(s, (c) => c.observe(ev.obs)) };
    case 'effect_seen':
      return { ...s, completion: withCompletion(s, (c) => c.record({ ok: true }, ev.obs, [])) };
    case 'usage':
      return { ...s, usage: addUsage(s.usage as LlmUsage, ev.usage) };
    case 'interrupt_tried': {
      const t = InterruptTracker.fromJSON({ ...s.interrupts });
      t.attempt(ev.key);
      return { ...s, interrupts: t.toJSON(), counters: count(s, 'ruleActions') };
    }
    case 'gate_checked': {
      const w = s.loop.waiting;
      if (!w) return s;
      const g = FrameGate.fromJSON({ ...w.gate });
      g.check(ev.hash);
      return loop(s, { waiting: { ...w, gate: g.toJSON() } });
    }
    case 'replayed':
      return { ...s, replayed: [...s.replayed, ev.key], counters: count(s, 'cacheHits') };
    case 'model_answered':
      return ev.rejected === undefined
        ? loop(s, { invalidRun: 0, hint: undefined, look: undefined })
        : loop(s, {
            invalidRun: s.loop.invalidRun + 1,
            hint: `Your last reply was rejected: ${ev.rejected}. Reply with one valid act call.`,
            look: undefined,
          });
    case 'looked': {
      const t = ev.look ? { ...s, completion: withCompletion(s, (c) => c.confirmedOnScreen()) } : s;
      return loop(withHistory(t, ev.entry), ev.look ? { look: ev.look } : {});
    }
    case 'meta': {
      let t: RunState = ev.note === undefined ? s : { ...s, notes: keepNote(s.notes, ev.note) };
      if (ev.confirmed) t = { ...t, completion: withCompletion(t, (c) => c.confirmedOnScreen()) };
      if (ev.closes) t = closeSubgoal(t, t.current, ev.through);
      return withHistory(t, ev.entry);
    }
    case 'claim': {
      const { verdict, completion } = claimVerdict(s, ev.action, ev.obs, ev.goal);
      const t = { ...s, completion };
      return !verdict.ok && !verdict.handOver ? loop(t, { hint: verdict.reason }) : t;
    }
    case 'breaker': {
      const { verdict, breaker } = breakerVerdict(s, ev.key, ev.signature, ev.shown);
      const t = { ...s, breaker };
      if (verdict.kind !== 'change_strategy') return t;
      return loop(
        withBans(t, (b) => b.ban(ev.page, ev.signature, ev.shown)),
        { hint: verdict.hint },
      );
    }
    case 'refused': {
      let t = ev.entry ? withHistory(s, ev.entry) : s;
      const { ban, failure } = ev;
      if (ban) t = withBans(t, (b) => b.ban(ban.page, ban.signature, ban.shown));
      if (failure) t = withBans(t, (b) => b.recordFailure(failure.page, failure.signature, failure.shown));
      if (ev.denied) t = { ...t, counters: count(t, 'denials') };
      return ev.hint === undefined ? t : loop(t, { hint: ev.hint });
    }
    case 'intent':
      return { ...s, intent: ev.intent, approval: ev.approval, pendingConfirmation: undefined, updatedAt: ev.at };
    case 'deferred':
      return { ...s, pendingConfirmation: ev.pending, updatedAt: ev.at };
    case 'approval':
      return {
        ...s,
        approval: ev.approval,
        counters: ev.confirmed ? count(s, 'confirmations') : s.counters,
      };
    case 'executed':
      return countFlashMiss(executed(s, ev.e), ev.e.ok);
    case 'handed_over':
      return handedOver(s, ev);
    case 'replanned':
      return {
        ...s,
        plan: ev.plan,
        current: ev.current,
        planPending: undefined,
        usage: ev.usage ? addUsage(s.usage as LlmUsage, ev.usage) : s.usage,
      };
    case 'subgoal_closed':
      return closeSubgoal(s, ev.index);
    case 'plan_revised':
      return revisePlan(s, ev.revised);
    case 'history':
      return withHistory(s, ev.entry);
    case 'hint':
      return loop(s, { hint: ev.hint });
    case 'burst':
      return { ...s, burst: ev.pending };
    case 'already_done':
      return { ...s, alreadyDone: [...s.alreadyDone, ev.what] };
    case 'approval_dropped':
      return ev.step === undefined || s.approval?.step === ev.step ? { ...s, approval: undefined } : s;
    case 'step_recorded':
      return {
        ...s,
        step: ev.step,
        lastPageHash: ev.pageHash,
        lastScreenshot: ev.screenshot,
        // A journaled intent is cleared in the same write that records its result, so a kill can
        // never leave the result unrecorded and the intent gone.
        intent: undefined,
        updatedAt: ev.at,
      };
    case 'resumed':
      return {
        ...s,
        status: 'running',
        reason: undefined,
        maxSteps: ev.maxSteps,
        // The reconciled in-flight step is settled: a second kill does not judge it again.
        step: ev.step,
        intent: undefined,
        pendingConfirmation: undefined,
        resumes: [...s.resumes, ev.at],
        updatedAt: ev.at,
      };
    case 'finished': {
      const done = ev.status === 'done';
      return {
        ...s,
        status: ev.status,
        answer: ev.answer,
        reason: ev.reason,
        plan: done ? s.plan.map((p) => ({ ...p, done: true })) : s.plan,
        current: done ? s.plan.length : s.current,
        updatedAt: ev.at,
      };
    }
    case 'interrupted':
      return { ...s, status: 'interrupted', reason: ev.reason, updatedAt: ev.at };
  }
}

/** What the done gate says of a terminal claim on `obs`, and its evidence after judging it. */
export function claimVerdict(
  s: RunState,
  action: Action,
  obs: Observation,
  goal: string,
): { verdict: Verdict; completion: CompletionState } {
  const c = CompletionTracker.fromState(s.completion as CompletionState);
  const verdict = c.check(action, obs, { goal });
  return { verdict, completion: c.toJSON(true) };
}

/** What the loop breaker says of the model's action, and its counts after hearing it. */
export function breakerVerdict(
  s: RunState,
  key: string,
  signature: string,
  shown: string,
): { verdict: LoopVerdict; breaker: RunStateData['breaker'] } {
  const b = LoopBreaker.fromJSON(s.breaker as RunStateData['breaker']);
  const verdict = b.check(key, signature, shown);
  return { verdict, breaker: b.toJSON() };
}

/** Whether the interrupt rule for `key` may try again. */
export function interruptMayTry(s: RunState, key: string): boolean {
  return InterruptTracker.fromJSON({ ...s.interrupts }).attempt(key);
}

/** Whether the wait gate, fed `hash`, says the frame is the one waited on. */
export function gateSkips(s: RunState, hash: string): boolean {
  const w = s.loop.waiting;
  return !!w && FrameGate.fromJSON({ ...w.gate }).check(hash).skip;
}

/** The scroll-end detector fed a swipe's read: its verdict and its data, for the `executed` event. */
export function scrollVerdict(
  s: RunState,
  key: string,
  container: Observation['elements'][number] | undefined,
  before: Observation,
  after: Observation,
): { atEnd: boolean; reasons: string[]; tracker: ScrollEndState } {
  const prev = s.loop.scroll;
  let t: ScrollEndTracker;
  if (prev?.key === key) t = ScrollEndTracker.fromJSON(prev.tracker as ScrollEndState);
  else {
    t = new ScrollEndTracker(container);
    t.record(before);
  }
  const v = t.record(after);
  return { atEnd: v.atEnd, reasons: v.reasons, tracker: t.toJSON() };
}

const MAX_NOTES = 10;

/** Keep a note in working memory (the last MAX_NOTES). */
export function keepNote(notes: readonly string[], note: string): string[] {
  return [...notes, note].slice(-MAX_NOTES);
}

function executed(s: RunState, e: Executed): RunState {
  let t: RunState = {
    ...s,
    taskApps: [...new Set([...s.taskApps, ...e.apps.filter((p) => !isLauncherPackage(p))])],
    completion: withCompletion(s, (c) => {
      c.record({ ok: e.ok, reason: e.reason, expect: e.expect }, e.post, e.changes);
      if (e.readings?.length) c.observeTexts(e.readings);
    }),
  };
  t = withHistory(t, e.entry);
  const w = s.loop.waiting;
  const waiting: LoopData['waiting'] = e.wait
    ? {
        gate: w ? { ...w.gate } : waitGate(e.seen.obs),
        compact: w?.compact ?? e.seen.compact,
        count: (w?.count ?? 0) + 1,
      }
    : undefined;
  t = loop(t, { waiting, scroll: e.scroll as LoopData['scroll'] });
  if (e.ok) {
    const { progressed } = e;
    if (progressed) {
      const b = LoopBreaker.fromJSON(t.breaker as RunStateData['breaker']);
      b.progressed(progressed.key, progressed.signature);
      t = { ...t, breaker: b.toJSON() };
    }
    t = loop(t, { failRun: 0 });
    if (e.learned && !t.learned.includes(e.learned))
      t = { ...t, replayed: [...t.replayed, e.learned], learned: [...t.learned, e.learned] };
    return e.closes ? closeSubgoal(t, t.current, e.through) : t;
  }
  const { failure } = e;
  if (failure) t = withBans(t, (b) => b.recordFailure(failure.page, failure.signature, failure.shown));
  const failRun = t.loop.failRun + 1;
  // Repeated failures ask for a new plan (the step makes the model call, then `replanned`).
  if (failRun >= REPLAN_AFTER_FAILURES && t.loop.replans < MAX_REPLANS)
    return loop(t, { failRun: 0, replans: t.loop.replans + 1 });
  return loop(t, { failRun });
}

/** Whether the last `executed` event asked for a new plan (it counted one). */
export function replanDue(before: RunState, after: RunState): boolean {
  return after.loop.replans > before.loop.replans;
}

/** A new wait gate starting from the frame the wait was decided on. */
function waitGate(seen: Observation): FrameGateState {
  const gate = new FrameGate();
  if (seen.frameHash) gate.check(seen.frameHash);
  return gate.toJSON();
}

function loop(s: RunState, patch: Partial<LoopData>): RunState {
  return { ...s, loop: { ...s.loop, ...patch } };
}

function count(s: RunState, k: keyof Counters): Counters {
  return { ...s.counters, [k]: s.counters[k] + 1 };
}

function withHistory(s: RunState, entry: HistoryEntry): RunState {
  return { ...s, history: [...s.history, entry].slice(-HISTORY_KEPT) };
}

function withCompletion(s: RunState, f: (c: CompletionTracker) => void): CompletionState {
  const c = CompletionTracker.fromState(s.completion as CompletionState);
  f(c);
  return c.toJSON(true);
}

function withBans(s: RunState, f: (b: Blacklist) => void): RunState {
  const { banned, shown, failures } = structuredClone(s.bans) as RunStateData['bans'];
  const b = Blacklist.fromJSON(banned, undefined, shown, failures);
  f(b);
  return { ...s, bans: { banned: b.toJSON(), shown: b.shownJSON(), failures: b.failuresJSON() } };
}

/** Close the [>] subgoal (or the one at `index`) and move to the next open one. */
/** Tick the [>] subgoal (or `index`), or with `through` every open one up to it (./plan-edit.ts). */
function closeSubgoal(s: RunState, index = s.current, through = index): RunState {
  if (!s.plan[index]) return s;
  return { ...s, ...tick(s.plan, s.current, index, Math.max(index, through)) };
}

/** The model's `plan=[…]`, sent with an action that worked (./plan-edit.ts states the rule). */
function revisePlan(s: RunState, revised: readonly string[]): RunState {
  return { ...s, ...revise(s.plan, revised), planPending: undefined };
}
