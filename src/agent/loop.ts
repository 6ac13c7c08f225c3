import { errorMessage, PhoneAgentError } from '../core/errors.js';
import { addUsage, emptyUsage } from '../planner/llm/client.js';
import type { Subgoal } from '../planner/prompt/types.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { newRunId } from '../store/run-archive.js';
import { DEFAULT_LISTENERS, finish } from './listeners.js';
import { maskSecrets } from './secrets.js';
import { type AgentDeps, emptyResult, freshLoop, freshMemory, newSessionParts, type Session } from './session.js';
import { runStep, type StepStart } from './step.js';
import type { RunResult } from './types.js';

/**
 * The loop of DESIGN §1: one step at a time (./step.ts) until the run ends or its budget is used.
 * Every step is archived and the checkpoint saved after it (listeners), so `resumeAgent`
 * (./resume.ts) can pick a killed run up where it stopped. A broken device or model mid-run ends
 * the run `interrupted` with the reason in the checkpoint — resumable, never left `running`.
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
  const cur = await deps.ports.observe();
  const apps = await deps.ports.apps?.();

  // The coarse plan: from page memory when this goal was planned before, else one model call.
  let plan: Subgoal[];
  let total = emptyUsage();
  const cachedPlan = memory.plan(goal);
  const tPlan = perf();
  if (cachedPlan) plan = cachedPlan.map((text) => ({ text, done: false }));
  else {
    const p = await planner.makePlan({ goal, screen: cur.compact, aspect: cur.obs.screen.aspect, apps });
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
    run: { runId, runDir, goal, secrets, maxSteps: runOpts.maxSteps, dryRun: !!runOpts.dryRun, apps },
    plan,
    current: 0,
    mem: freshMemory(),
    loop: freshLoop(),
    cur,
    total,
    result: emptyResult(runId, runDir, goal),
    archive,
    checkpoint,
    listeners: DEFAULT_LISTENERS,
  };
  session.mem.completion.observe(cur.obs);
  return drive(session, 1, { t0: tPlan, llmMs: planMs });
}

/** Steps from `first` until one ends the run or the budget is used up. */
export async function drive(s: Session, first: number, start: StepStart): Promise<RunResult> {
  try {
    for (let step = first; step <= s.run.maxSteps; step++) {
      const ended = await runStep(s, step, step === first ? start : { t0: s.perf(), llmMs: 0 });
      if (ended) return ended;
    }
  } catch (e) {
    // Something below broke (a dead device, a model that stopped answering): record why, keep the
    // folder resumable, and let the caller print the actionable message.
    await s.checkpoint
      .save({ status: 'interrupted', reason: errorMessage(e), updatedAt: s.deps.clock.now() })
      .catch(() => undefined);
    throw e instanceof PhoneAgentError ? e : new RunFailedError(s.run.runDir, e);
  }
  return finish(s, 'budget', {
    reason: `out of steps: the budget of ${s.run.maxSteps} step${s.run.maxSteps === 1 ? '' : 's'} is used up`,
  });
}

/** A run broke on something unexpected; its folder keeps the reason and can be resumed. */
export class RunFailedError extends PhoneAgentError {
  override readonly name: string = 'RunFailedError';
  constructor(runDir: string, cause: unknown) {
    super('RUN_FAILED', `the run stopped on an error: ${errorMessage(cause)} (run folder: ${runDir})`, { cause });
  }
}

export type { Checkpoint };
