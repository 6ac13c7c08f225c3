import path from 'node:path';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Decision, Observation } from '../core/types.js';
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
import type { AgentEvent, RunResult, RunStatus } from './types.js';

/**
 * The state of one run while it is driven: what a new run builds from the goal, and what a resumed
 * run rebuilds from its checkpoint. Steps (./step.ts) read and update it; the checkpoint is its
 * durable copy.
 */

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

export interface Session {
  deps: AgentDeps;
  perf: () => number;
  /** The goal with credentials masked: all that the model, the archive and the logs ever see. */
  goal: string;
  secrets: ReadonlyMap<string, string>;
  maxSteps: number;
  dryRun: boolean;
  runId: string;
  runDir: string;
  archive: RunArchive;
  checkpoint: CheckpointStore;
  plan: Subgoal[];
  current: number;
  history: History;
  blacklist: Blacklist;
  breaker: LoopBreaker;
  interrupts: InterruptTracker;
  total: LlmUsage;
  result: RunResult;
  /** A note for the next model call (strategy change, a refusal, what happened before a resume). */
  hint?: string;
  invalidRun: number;
  failRun: number;
  replans: number;
  lastWait?: { frame: string; count: number };
  /** Guarded actions (by summary) that took effect before an interruption: refused if asked again. */
  alreadyDone: Set<string>;
  /** Cache entries replayed in this run: a second replay of the same page means a cycle. */
  replayed: Set<string>;
  /** The latest stable observation and its capture. */
  cur: Perceived;
  /** Compact views already built, per observation (a post-action view serves the next step too). */
  compacts: WeakMap<Observation, string>;
}

/** The compact view of `obs`, built once per observation. */
export function compactOf(s: Session, obs: Observation): string {
  let text = s.compacts.get(obs);
  if (text === undefined) {
    text = s.deps.ports.compact(obs);
    s.compacts.set(obs, text);
  }
  return text;
}

const SETTLE_MS = 150;
const MAX_SETTLE = 6;

/** Observe until the screen is stable (transitions, loading): waiting here costs no LLM call. */
export async function observeStable(deps: AgentDeps, prev?: Observation): Promise<Perceived & { realMs: number }> {
  const perf = deps.perf ?? (() => performance.now());
  const t = perf();
  let p = await deps.ports.observe(prev, { screenshot: true });
  for (let i = 0; p.obs.unstable && i < MAX_SETTLE; i++) {
    await deps.clock.sleep(SETTLE_MS);
    p = await deps.ports.observe(prev, { screenshot: true });
  }
  return { ...p, realMs: perf() - t };
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
  return s.secrets.size && d.action.text !== undefined
    ? { ...d, action: { ...d.action, text: unmask(d.action.text, s.secrets) } }
    : d;
}

/** Fresh in-memory helpers for a session (the checkpoint restores their contents on resume). */
export function memoryParts(): Pick<
  Session,
  'history' | 'blacklist' | 'breaker' | 'interrupts' | 'replayed' | 'alreadyDone' | 'compacts'
> {
  return {
    compacts: new WeakMap(),
    alreadyDone: new Set<string>(),
    history: new History(5),
    blacklist: new Blacklist(),
    breaker: new LoopBreaker(),
    interrupts: new InterruptTracker(),
    replayed: new Set<string>(),
  };
}

/** End the run: remember a plan that carried it through, save the status, tell the listener. */
export async function finish(
  s: Session,
  status: RunStatus,
  extra: { answer?: string; reason?: string } = {},
): Promise<RunResult> {
  if ((status === 'done' || status === 'ask_user') && s.current >= s.plan.length - 1)
    s.deps.memory.rememberPlan(
      s.goal,
      s.plan.map((p) => p.text),
    );
  Object.assign(s.result, { status, llm: s.total, ...extra });
  if (s.cur.png) await s.archive.writeFinal(s.cur.png);
  await s.checkpoint.save({
    status,
    answer: extra.answer,
    reason: extra.reason,
    usage: s.total,
    counters: counters(s),
    updatedAt: s.deps.clock.now(),
  });
  s.deps.onEvent?.({ kind: 'finish', result: s.result });
  return s.result;
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
