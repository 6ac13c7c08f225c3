import { addUsage, emptyUsage } from '../planner/llm/client.js';
import type { Subgoal } from '../planner/prompt/types.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { newRunId } from '../store/run-archive.js';
import { maskSecrets } from './secrets.js';
import {
  type AgentDeps,
  emptyResult,
  finish,
  memoryParts,
  newSessionParts,
  observeStable,
  type Session,
} from './session.js';
import { runStep, type StepStart } from './step.js';
import type { RunResult } from './types.js';

/**
 * The loop of DESIGN §1: perceive → interrupts → cache or planner → guardrails → execute →
 * validate → record (./step.ts), one step at a time until the run ends or its budget is used.
 * Every step is archived and the checkpoint saved after it, so `resumeAgent` (./resume.ts) can
 * pick a killed run up where it stopped.
 */

export type { AgentDeps } from './session.js';

export interface RunOptions {
  goal: string;
  maxSteps: number;
  runsDir: string;
  dryRun?: boolean;
  runId?: string;
  /** How the caller started the run (device, model — no secrets), kept for `resume`. */
  launch?: Record<string, string>;
}

export async function runAgent(deps: AgentDeps, runOpts: RunOptions): Promise<RunResult> {
  const { planner, memory, clock } = deps;
  const perf = deps.perf ?? (() => performance.now());
  // Credentials in the goal become placeholders for everything but dispatch.
  const { goal, secrets } = maskSecrets(runOpts.goal);
  const runId = runOpts.runId ?? newRunId(clock.now());
  const { runDir, archive } = await newSessionParts(runOpts.runsDir, runId);
  const cur = await observeStable(deps);

  // The coarse plan: from page memory when this goal was planned before, else one model call.
  let plan: Subgoal[];
  let total = emptyUsage();
  const cachedPlan = memory.plan(goal);
  const tPlan = perf();
  if (cachedPlan) plan = cachedPlan.map((text) => ({ text, done: false }));
  else {
    const p = await planner.makePlan({ goal, screen: deps.ports.compact(cur.obs), aspect: cur.obs.screen.aspect });
    plan = p.plan;
    total = addUsage(total, p.usage);
  }
  const planMs = perf() - tPlan;
  deps.onEvent?.({ kind: 'plan', subgoals: plan.map((s) => s.text), cached: !!cachedPlan });

  const checkpoint = await CheckpointStore.create(runDir, {
    version: 1,
    runId,
    goal,
    dryRun: runOpts.dryRun || undefined,
    launch: runOpts.launch,
    status: 'running',
    subgoals: plan,
    current: 0,
    step: 0,
    maxSteps: runOpts.maxSteps,
    lastPageHash: cur.obs.pageHash,
    history: [],
    blacklist: {},
    usage: total,
    updatedAt: clock.now(),
  });
  const session: Session = {
    deps,
    perf,
    goal,
    secrets,
    maxSteps: runOpts.maxSteps,
    dryRun: !!runOpts.dryRun,
    runId,
    runDir,
    archive,
    checkpoint,
    plan,
    current: 0,
    total,
    result: emptyResult(runId, runDir, goal),
    invalidRun: 0,
    failRun: 0,
    replans: 0,
    cur,
    ...memoryParts(),
  };
  return drive(session, 1, { t0: tPlan, llmMs: planMs });
}

/** Steps from `first` until one ends the run or the budget is used up. */
export async function drive(s: Session, first: number, start: StepStart): Promise<RunResult> {
  for (let step = first; step <= s.maxSteps; step++) {
    const ended = await runStep(s, step, step === first ? start : { t0: s.perf(), llmMs: 0 });
    if (ended) return ended;
  }
  return finish(s, 'budget', { reason: `step budget of ${s.maxSteps} used up` });
}

export type { Checkpoint };
