import path from 'node:path';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Decision } from '../core/types.js';
import { CompletionTracker } from '../executor/completion.js';
import type { Approval } from '../executor/consent-scope.js';
import type { ConfirmationChannel } from '../executor/guardrails/confirm.js';
import { FrameGate } from '../perception/frame.js';
import type { ScrollEndTracker } from '../perception/scroll-end.js';
import { InterruptTracker } from '../planner/interrupts.js';
import { emptyUsage, type LlmUsage } from '../planner/llm/client.js';
import { Blacklist } from '../planner/memory/blacklist.js';
import { History } from '../planner/memory/history.js';
import { LoopBreaker } from '../planner/memory/loop-breaker.js';
import type { PageMemory } from '../planner/memory/page-memory.js';
import type { Planner } from '../planner/planner.js';
import type { Subgoal } from '../planner/prompt/types.js';
import type { CheckpointStore } from '../store/checkpoint.js';
import { RunArchive } from '../store/run-archive.js';
import type { AgentPorts, Perceived } from './ports.js';
import { unmask } from './secrets.js';
import type { AgentEvent, RunResult, StepRecord } from './types.js';

/**
 * The state of one run while it is driven: what a new run builds from the goal, and what a resumed
 * run rebuilds from its checkpoint. Steps (./step.ts) read and update it; the listeners (archive,
 * checkpoint, progress) hear every finished step.
 */

export interface AgentDeps {
  ports: AgentPorts;
  planner: Planner;
  memory: PageMemory;
  clock: Clock;
  logger: Logger;
  /** Who answers guarded actions: a person, a written policy, or pause-and-checkpoint. */
  confirm: ConfirmationChannel;
  /** Real-time ms for the overhead measurement (performance.now by default). */
  perf?: () => number;
  onEvent?: (e: AgentEvent) => void;
}

/** What the run is: fixed when it starts. */
export interface RunInfo {
  runId: string;
  runDir: string;
  /** The goal with credentials masked: all that the model, the archive and the logs ever see. */
  goal: string;
  secrets: ReadonlyMap<string, string>;
  maxSteps: number;
  dryRun: boolean;
  /** The launcher's app names, read once when the run (or its resume) starts; absent when unavailable. */
  apps?: readonly string[];
}

/** What the run has learned and must not forget (checkpointed). */
export interface RunMemory {
  history: History;
  blacklist: Blacklist;
  breaker: LoopBreaker;
  interrupts: InterruptTracker;
  /** Evidence for the completion check: screen texts seen, mistakes not yet undone, the last failure. */
  completion: CompletionTracker;
  /** Guarded actions (by summary) that took effect before an interruption: refused if asked again. */
  alreadyDone: Set<string>;
  /** Cache entries replayed in this run: a second replay of the same page means a cycle. */
  replayed: Set<string>;
  /** Page-memory entries this run learned (subgoal|page): never replayed on this run. */
  learned: Set<string>;
  /** The model's working memory (`note`), shown in every prompt. */
  notes: string[];
  /**
   * Apps (packages) the run has acted in or brought to the front by its own actions: the only ones
   * an interrupt rule may grant a permission to (planner/permission-rule.ts).
   */
  taskApps: Set<string>;
  /**
   * The user's last approval, while it may still cover the confirmation dialog its action opened
   * (executor/consent-scope.ts): set when an approved action is delivered, cleared by the run's next
   * own action. Checkpointed, so a resume keeps it right.
   */
  approval?: Approval;
}

/** The loop's counters and gates, reset by progress. */
export interface LoopState {
  invalidRun: number;
  failRun: number;
  replans: number;
  /** A note for the next model call (strategy change, a refusal, what happened before a resume). */
  hint?: string;
  /** While waiting: the frame gate and how many gated waits in a row. */
  waiting?: { gate: FrameGate; compact: string; count: number };
  /** While scrolling one list: its end detector. */
  scroll?: { key: string; tracker: ScrollEndTracker };
  /** The screenshot a `look` took, for the next decision on the screen it was taken of (`seen`). */
  look?: { url: string; of: string; seen: Perceived };
}

/** Hears each finished step, in order: the archive, the checkpoint, progress. */
export type StepListener = (s: Session, record: StepRecord, png: Buffer | undefined) => Promise<void>;

export interface Session {
  deps: AgentDeps;
  perf: () => number;
  run: RunInfo;
  plan: Subgoal[];
  current: number;
  mem: RunMemory;
  loop: LoopState;
  /** The latest stable observation and its capture: what the next step decides on. */
  cur: Perceived;
  total: LlmUsage;
  result: RunResult;
  archive: RunArchive;
  checkpoint: CheckpointStore;
  listeners: StepListener[];
}

export function emptyResult(runId: string, runDir: string, goal: string): RunResult {
  return {
    runId,
    runDir,
    goal,
    status: 'failed',
    steps: 0,
    llm: emptyUsage(),
    cacheHits: 0,
    ruleActions: 0,
    denials: 0,
    confirmations: 0,
    stepLog: [],
  };
}

export async function newSessionParts(
  runsDir: string,
  runId: string,
): Promise<{ runDir: string; archive: RunArchive }> {
  const runDir = path.join(runsDir, runId);
  return { runDir, archive: await RunArchive.create(runDir) };
}

/** The decision as dispatched: placeholders replaced by the real credential, in the action only. */
export function live(s: Session, d: Decision): Decision {
  return s.run.secrets.size && d.action.text !== undefined
    ? { ...d, action: { ...d.action, text: unmask(d.action.text, s.run.secrets) } }
    : d;
}

/** Fresh run memory (a resume restores its contents from the checkpoint). */
export function freshMemory(): RunMemory {
  return {
    history: new History(5),
    blacklist: new Blacklist(),
    breaker: new LoopBreaker(),
    interrupts: new InterruptTracker(),
    completion: new CompletionTracker(),
    alreadyDone: new Set<string>(),
    replayed: new Set<string>(),
    notes: [],
    learned: new Set<string>(),
    taskApps: new Set<string>(),
  };
}

export function freshLoop(): LoopState {
  return { invalidRun: 0, failRun: 0, replans: 0 };
}

/** A new wait gate starting from the frame the wait was decided on. */
export function waitGate(seen: Perceived): FrameGate {
  const gate = new FrameGate();
  if (seen.obs.frameHash) gate.check(seen.obs.frameHash);
  return gate;
}

export function counters(s: Session): {
  cacheHits: number;
  ruleActions: number;
  denials: number;
  confirmations: number;
} {
  const { cacheHits, ruleActions, denials, confirmations } = s.result;
  return { cacheHits, ruleActions, denials, confirmations };
}
