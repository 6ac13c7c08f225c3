import type { Approval } from '../core/approval.js';
import { DEFAULT_RUN_MODE, type RunMode } from '../core/run-mode.js';
import type { FrameGateState } from '../perception/frame.js';
import type { ScrollEndState } from '../perception/scroll-end.js';
import { emptyUsage, type LlmUsage } from '../planner/llm/client.js';
import type { LoopBreakerState } from '../planner/memory/loop-breaker.js';
import type { HistoryEntry, Subgoal } from '../planner/prompt/types.js';
import { CHECKPOINT_VERSION, type Checkpoint, type PendingBurst } from '../store/checkpoint.js';
import { type CompletionState, CompletionTracker } from './completion.js';
import { DEFAULT_TASK_SETTINGS, type TaskSettings } from './task-settings.js';

/**
 * Everything a run's step needs to decide, as one immutable value of plain data (DESIGN §1): a step
 * reads it, and only `reduce` (./reduce.ts) makes the next one. `serialize` is the checkpoint
 * (checkpoint.json), `deserialize` what a resume starts from — one shape, so a resumed run is the
 * same run. The perception a step decides on is its input, not state; a screenshot kept for the next
 * prompt (`look`) and the wait/scroll trackers of the moment are not worth keeping across a kill.
 */

export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export type RunStatus = Checkpoint['status'];

export interface Counters {
  cacheHits: number;
  ruleActions: number;
  denials: number;
  confirmations: number;
}

/** The loop's counters and gates, reset by progress. */
export interface LoopData {
  invalidRun: number;
  failRun: number;
  replans: number;
  /** A note for the next model call (strategy change, a refusal, what happened before a resume). */
  hint?: string;
  /** While waiting: the frame gate, the screen waited on, and how many gated waits in a row. */
  waiting?: { gate: FrameGateState; compact: string; count: number };
  /** While scrolling one list: its end detector. */
  scroll?: { key: string; tracker: ScrollEndState };
  /** The screenshot a `look` took, for the next decision on the screen it was taken of (`screen`). */
  look?: { url: string; of: string; screen: string };
}

export interface RunStateData {
  runId: string;
  /** The goal with credentials masked: all that the model, the archive and the logs ever see. */
  goal: string;
  dryRun: boolean;
  launch?: Record<string, string>;
  /** How the run is driven now (a Flash run that handed over is `pro` from then on). */
  mode: RunMode;
  /** The task settings it started with (a resume keeps them). */
  settings: TaskSettings;
  /** Expectations a Flash step failed (./flash-state.ts): twice hands the run over to Pro. */
  flashMisses: number;
  /**
   * A Flash run whose first decision is still to carry the plan: no plan was made or applied yet.
   * Cleared by the first plan applied — `plan=[]` included, which is a plan with nothing left.
   */
  planPending?: boolean;
  /** When and why a Flash run handed over to Pro. */
  handover?: { step: number; reason: string };
  /** The members of a burst still to run on the screens after a page change (./flash-burst.ts). */
  burst?: PendingBurst;
  maxSteps: number;
  status: RunStatus;
  answer?: string;
  reason?: string;
  /** The last step recorded. */
  step: number;
  plan: Subgoal[];
  current: number;
  lastPageHash?: string;
  lastScreenshot?: string;
  /** The newest HISTORY_KEPT history lines (the prompt shows the last few). */
  history: HistoryEntry[];
  /** Bans by page (signatures), how each is shown, and failures below the ban threshold. */
  bans: {
    banned: Record<string, string[]>;
    shown: Record<string, string>;
    failures: Record<string, Record<string, number>>;
  };
  breaker: LoopBreakerState;
  /** Interrupt rule tries by dialog. */
  interrupts: Record<string, number>;
  /** Evidence for the done gate: screen texts seen, mistakes not yet undone, the last failure. */
  completion: CompletionState;
  /** Guarded actions (by summary) that took effect before an interruption: refused if asked again. */
  alreadyDone: string[];
  /** Cache entries replayed in this run: a second replay of the same page means a cycle. */
  replayed: string[];
  /** Page-memory entries this run learned (subgoal|page): never replayed on this run. */
  learned: string[];
  /** The model's working memory (`note`), shown in every prompt. */
  notes: string[];
  /** Apps the run's own actions were in: the only ones an interrupt rule may grant a permission to. */
  taskApps: string[];
  /** The user's last approval while it may cover the confirmation dialog its action opened. */
  approval?: Approval;
  /** An irreversible dispatch journaled before it happens; cleared by the step's result. */
  intent?: Checkpoint['intent'];
  pendingConfirmation?: Checkpoint['pendingConfirmation'];
  loop: LoopData;
  usage: LlmUsage;
  counters: Counters;
  resumes: number[];
  updatedAt: number;
}

export type RunState = DeepReadonly<RunStateData>;

export const HISTORY_KEPT = 20;

/** A new run's state, before its first step. */
export function newState(o: {
  runId: string;
  goal: string;
  dryRun: boolean;
  launch?: Record<string, string>;
  mode?: RunMode;
  settings?: TaskSettings;
  maxSteps: number;
  plan: Subgoal[];
  usage: LlmUsage;
  at: number;
}): RunState {
  return {
    runId: o.runId,
    goal: o.goal,
    dryRun: o.dryRun,
    launch: o.launch,
    mode: o.mode ?? DEFAULT_RUN_MODE,
    settings: { ...(o.settings ?? DEFAULT_TASK_SETTINGS) },
    flashMisses: 0,
    planPending: o.mode === 'flash' && o.plan.length === 0 ? true : undefined,
    maxSteps: o.maxSteps,
    status: 'running',
    step: 0,
    plan: o.plan.map((p) => ({ ...p })),
    current: 0,
    history: [],
    bans: { banned: {}, shown: {}, failures: {} },
    breaker: { counts: {}, interventions: 0 },
    interrupts: {},
    completion: new CompletionTracker().toJSON(true),
    alreadyDone: [],
    replayed: [],
    learned: [],
    notes: [],
    taskApps: [],
    loop: { invalidRun: 0, failRun: 0, replans: 0 },
    usage: o.usage,
    counters: { cacheHits: 0, ruleActions: 0, denials: 0, confirmations: 0 },
    resumes: [],
    updatedAt: o.at,
  };
}

/** The checkpoint: the state as data, less what is not worth keeping across a kill (see above). */
export function serialize(s: RunState): Checkpoint {
  const { invalidRun, failRun, replans, hint } = s.loop;
  return structuredClone({
    version: CHECKPOINT_VERSION,
    runId: s.runId,
    goal: s.goal,
    dryRun: s.dryRun || undefined,
    launch: s.launch,
    mode: s.mode,
    settings: s.settings,
    flashMisses: s.flashMisses || undefined,
    // Every Flash checkpoint says it, so a missing field means a checkpoint from before it was written.
    planPending: s.mode === 'flash' ? !!s.planPending : undefined,
    handover: s.handover,
    burst: s.burst,
    status: s.status,
    answer: s.answer,
    reason: s.reason,
    subgoals: s.plan,
    current: s.current,
    step: s.step,
    maxSteps: s.maxSteps,
    lastPageHash: s.lastPageHash,
    lastScreenshot: s.lastScreenshot,
    history: s.history.slice(-HISTORY_KEPT),
    blacklist: s.bans.banned,
    bannedAs: s.bans.shown,
    failures: s.bans.failures,
    breaker: s.breaker,
    interrupts: s.interrupts,
    completion: CompletionTracker.fromState(s.completion as CompletionState).toJSON(),
    irreversibleDone: s.alreadyDone.length ? s.alreadyDone : undefined,
    replayed: s.replayed.length ? s.replayed : undefined,
    learned: s.learned.length ? s.learned : undefined,
    notes: s.notes.length ? s.notes : undefined,
    taskApps: s.taskApps.length ? s.taskApps : undefined,
    approval: s.approval,
    intent: s.intent,
    pendingConfirmation: s.pendingConfirmation,
    loop: { invalidRun, failRun, replans, hint },
    usage: s.usage,
    counters: s.counters,
    resumes: s.resumes.length ? s.resumes : undefined,
    updatedAt: s.updatedAt,
  }) as Checkpoint;
}

/**
 * The state a checkpoint holds. Fields an older version did not write start empty, as they did
 * in that version's resume (the loop's counters, the breaker's, replays).
 */
export function deserialize(c: Checkpoint): RunState {
  const d = structuredClone(c);
  return {
    runId: d.runId,
    goal: d.goal,
    dryRun: !!d.dryRun,
    launch: d.launch,
    // A checkpoint from before modes ran the one loop there was: Pro.
    mode: d.mode ?? DEFAULT_RUN_MODE,
    settings: { ...DEFAULT_TASK_SETTINGS, ...d.settings },
    flashMisses: d.flashMisses ?? 0,
    // Written since Flash's plan=[] could end a run; before, a Flash run without subgoals had none yet.
    planPending: (d.planPending ?? (d.mode === 'flash' && d.subgoals.length === 0)) || undefined,
    handover: d.handover,
    burst: d.burst,
    maxSteps: d.maxSteps,
    status: d.status,
    answer: d.answer,
    reason: d.reason,
    step: d.step,
    plan: d.subgoals,
    current: d.current,
    lastPageHash: d.lastPageHash,
    lastScreenshot: d.lastScreenshot,
    history: d.history,
    bans: { banned: d.blacklist, shown: d.bannedAs ?? {}, failures: d.failures ?? {} },
    breaker: d.breaker ?? { counts: {}, interventions: 0 },
    interrupts: d.interrupts ?? {},
    completion: CompletionTracker.fromJSON(d.completion).toJSON(true),
    alreadyDone: d.irreversibleDone ?? [],
    replayed: d.replayed ?? [],
    learned: d.learned ?? [],
    notes: d.notes ?? [],
    taskApps: d.taskApps ?? [],
    approval: d.approval,
    intent: d.intent,
    pendingConfirmation: d.pendingConfirmation,
    loop: { invalidRun: 0, failRun: 0, replans: 0, ...d.loop },
    usage: d.usage ?? emptyUsage(),
    counters: { cacheHits: 0, ruleActions: 0, denials: 0, confirmations: 0, ...d.counters },
    resumes: d.resumes ?? [],
    updatedAt: d.updatedAt,
  };
}

/** The signatures banned on a page, and how the prompt shows each. */
export function bannedOn(s: RunState, pageHash: string): { signatures: string[]; shown: string[] } {
  const signatures = [...(s.bans.banned[pageHash] ?? [])];
  return { signatures, shown: signatures.map((sig) => s.bans.shown[sig] ?? sig) };
}

/** The approval that may still cover a confirmation dialog (read-only: consumers only compare it). */
export function standingApproval(s: RunState): Approval | undefined {
  return s.approval as Approval | undefined;
}
