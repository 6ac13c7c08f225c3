import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_RUN_MODE } from '../core/run-mode.js';
import type { Decision } from '../core/types.js';
import type { ConfirmationChannel } from '../executor/guardrails/confirm.js';
import { emptyUsage, type LlmUsage } from '../planner/llm/client.js';
import type { PageMemory } from '../planner/memory/page-memory.js';
import type { Planner } from '../planner/planner.js';
import type { Knowledge } from '../store/app-map.js';
import type { CheckpointStore } from '../store/checkpoint.js';
import type { RunArchive } from '../store/run-archive.js';
import { cancelledBy } from './cancel.js';
import { archiveListener, reportListener, stepLogListener } from './listeners.js';
import type { AgentPorts } from './ports.js';
import { type RunEvent, reduce } from './reduce.js';
import { type RunState, serialize } from './run-state.js';
import { unmask } from './secrets.js';
import type { AgentEvent, RunResult, StepRecord, StepSummary } from './types.js';

/**
 * One run being driven: what it is (fixed), its state (one immutable value, ./run-state.ts), and
 * where it goes (the archive, the checkpoint, the listeners). A new run and a resumed one build it
 * the same way (`openSession`). The state changes only through `apply`, which is also the one
 * place the checkpoint is written — whole, as `serialize(state)`, after the events a resume needs.
 */

export interface AgentDeps {
  ports: AgentPorts;
  planner: Planner;
  memory: PageMemory;
  clock: Clock;
  logger: Logger;
  /** Who answers guarded actions: a person, a written policy, or pause-and-checkpoint. */
  confirm: ConfirmationChannel;
  /** App maps Explore wrote (`--knowledge FILE`): each step's prompt gains the current page's lines. */
  knowledge?: readonly Knowledge[];
  /** Real-time ms for the overhead measurement (performance.now by default). */
  perf?: () => number;
  onEvent?: (e: AgentEvent) => void;
}

/** What the run is: fixed when it starts (or resumes). */
export interface RunInfo {
  runId: string;
  runDir: string;
  secrets: ReadonlyMap<string, string>;
  /** The launcher's app names, read once when the run (or its resume) starts; absent when unavailable. */
  apps?: readonly string[];
  /** Cancels the run (Ctrl-C, an MCP cancellation, its deadline): it ends `interrupted`, resumable. */
  signal?: AbortSignal;
}

/** What hears the run, in order: the archive, the progress report, the result's step log. */
export type RunListener = (e: ListenerEvent) => Promise<void> | void;
export type ListenerEvent =
  | { kind: 'step'; record: StepRecord; png: Buffer | undefined; max: number }
  | { kind: 'finish'; result: RunResult; png: Buffer | undefined };

export interface Session {
  readonly deps: AgentDeps;
  readonly perf: () => number;
  readonly run: RunInfo;
  /** The run's state: replaced by `apply`, never edited. */
  state: RunState;
  readonly archive: RunArchive;
  readonly store: CheckpointStore;
  readonly listeners: readonly RunListener[];
  /** The steps so far, for the result (a listener's collection, not state). */
  readonly stepLog: StepSummary[];
}

/** Events after which the checkpoint must be on disk: each is a point a resume may start from. */
const DURABLE: ReadonlySet<RunEvent['kind']> = new Set([
  'observed',
  'intent',
  'deferred',
  'step_recorded',
  'resumed',
  'handed_over',
  'finished',
  'interrupted',
]);

/** The one writer of run state and of the checkpoint. */
export async function apply(s: Session, ev: RunEvent): Promise<void> {
  s.state = reduce(s.state, ev);
  if (DURABLE.has(ev.kind)) await s.store.write(serialize(s.state));
}

/** The one way a Session is built, for a new run and a resumed one. */
export function openSession(o: {
  deps: AgentDeps;
  run: RunInfo;
  state: RunState;
  archive: RunArchive;
  store: CheckpointStore;
}): Session {
  const stepLog: StepSummary[] = [];
  const listeners = [archiveListener(o.archive), reportListener(o.deps), stepLogListener(stepLog)];
  return { ...o, perf: o.deps.perf ?? (() => performance.now()), listeners, stepLog };
}

/** Stop here when the run was cancelled (between phases; a phase in progress stops on the signal). */
export function checkCancelled(s: Session): void {
  const sig = s.run.signal;
  if (sig?.aborted) throw cancelledBy(sig);
}

/** The decision as dispatched: placeholders replaced by the real credential, in the action only. */
export function live(s: Session, d: Decision): Decision {
  return s.run.secrets.size && d.action.text !== undefined
    ? { ...d, action: { ...d.action, text: unmask(d.action.text, s.run.secrets) } }
    : d;
}

export function emptyResult(runId: string, runDir: string, goal: string): RunResult {
  return {
    runId,
    runDir,
    goal,
    status: 'failed',
    steps: 0,
    mode: DEFAULT_RUN_MODE,
    llm: emptyUsage(),
    cacheHits: 0,
    ruleActions: 0,
    denials: 0,
    confirmations: 0,
    stepLog: [],
  };
}

/** The run's result as the caller gets it: from its state and its step log. */
export function resultOf(s: Session): RunResult {
  const st = s.state;
  const status = st.status === 'running' || st.status === 'interrupted' ? 'failed' : st.status;
  return {
    ...emptyResult(st.runId, s.run.runDir, st.goal),
    status,
    answer: st.answer,
    reason: st.reason,
    steps: s.stepLog.at(-1)?.step ?? st.step,
    mode: st.mode,
    ...(st.handover ? { handover: { ...st.handover } } : {}),
    llm: structuredClone(st.usage) as LlmUsage,
    ...st.counters,
    stepLog: s.stepLog,
  };
}
