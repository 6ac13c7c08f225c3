import path from 'node:path';
import { ActionableError, CancelledError, errorMessage, PhoneAgentError } from '../core/errors.js';
import type { RunMode } from '../core/run-mode.js';
import { emptyUsage } from '../planner/llm/client.js';
import type { Subgoal } from '../planner/prompt/types.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { newRunId, RunArchive } from '../store/run-archive.js';
import { cancellable, cancelledBy, controlled, type RunControl } from './cancel.js';
import { afterFlashStep, FLASH_FIRST_HINT } from './flash.js';
import type { Perceived } from './ports.js';
import { newState } from './run-state.js';
import { maskSecrets } from './secrets.js';
import { type AgentDeps, apply, checkCancelled, openSession, type Session } from './session.js';
import { finish, runStep, type StepStart } from './step.js';
import type { TaskSettings } from './task-settings.js';
import type { RunResult } from './types.js';

/**
 * The loop of DESIGN §1: one step at a time (./step.ts) until the run ends or its budget is used.
 * Every step is checkpointed (`apply`, ./session.ts) and archived, so `resumeAgent` (./resume.ts)
 * can pick a killed run up where it stopped — with the same `drive`. A broken device or model
 * mid-run, a cancel or the run's deadline end the run `interrupted` with the reason in the
 * checkpoint — resumable, never left `running`.
 */

export type { RunControl } from './cancel.js';
export type { AgentDeps } from './session.js';

export interface RunOptions extends RunControl {
  goal: string;
  maxSteps: number;
  runsDir: string;
  dryRun?: boolean;
  runId?: string;
  /** How the caller started the run (device, model — no secrets), kept for `resume`. */
  launch?: Record<string, string>;
  /** flash | pro (default) — explore has its own command; recorded so `resume` goes on in it. */
  mode?: RunMode;
  /** The task settings (agent/task-settings.ts); default: DEFAULT_TASK_SETTINGS. */
  settings?: TaskSettings;
}

export async function runAgent(deps: AgentDeps, runOpts: RunOptions): Promise<RunResult> {
  if (runOpts.mode === 'explore')
    throw new ActionableError(
      'USAGE',
      'explore learns an app without a task, it does not run one',
      'explore: use `phone-agent explore`; run a task with --mode flash or --mode pro',
    );
  const { planner, memory, clock } = deps;
  const perf = deps.perf ?? (() => performance.now());
  // Credentials in the goal become placeholders for everything but dispatch.
  const { goal, secrets } = maskSecrets(runOpts.goal);
  const runId = runOpts.runId ?? newRunId(clock.now());
  const runDir = path.join(runOpts.runsDir, runId);
  const archive = await RunArchive.create(runDir);
  return controlled(runOpts, async (signal) => {
    const cur = await cancellable(deps.ports.observe(), signal);
    const apps = await cancellable(deps.ports.apps?.() ?? Promise.resolve(undefined), signal);

    // The coarse plan: from page memory when this goal was planned before, else one model call —
    // in Flash none: its first decision carries the plan (./flash.ts).
    let plan: Subgoal[] = [];
    let usage = emptyUsage();
    const cachedPlan = memory.plan(goal);
    const flashPlans = runOpts.mode === 'flash' && !cachedPlan;
    const tPlan = perf();
    if (cachedPlan) plan = cachedPlan.map((text) => ({ text, done: false }));
    else if (!flashPlans) {
      const p = await planner.makePlan({ goal, screen: cur.compact, aspect: cur.obs.screen.aspect, apps }, signal);
      plan = p.plan;
      usage = p.usage;
    }
    const planMs = perf() - tPlan;
    if (!flashPlans) deps.onEvent?.({ kind: 'plan', subgoals: plan.map((s) => s.text), cached: !!cachedPlan });

    const state = newState({
      runId,
      goal,
      dryRun: !!runOpts.dryRun,
      launch: runOpts.launch,
      mode: runOpts.mode,
      settings: runOpts.settings,
      maxSteps: runOpts.maxSteps,
      plan,
      usage,
      at: clock.now(),
    });
    const store = await CheckpointStore.create(runDir);
    const s = openSession({ deps, run: { runId, runDir, secrets, apps, signal }, state, archive, store });
    await apply(s, { kind: 'observed', obs: cur.obs });
    if (flashPlans) await apply(s, { kind: 'hint', hint: FLASH_FIRST_HINT });
    return drive(s, 1, cur, { t0: tPlan, llmMs: planMs });
  });
}

/** Steps from `first`, on the screen `cur`, until one ends the run or the budget is used up. */
export async function drive(s: Session, first: number, cur: Perceived, start: StepStart): Promise<RunResult> {
  let seen = cur;
  try {
    for (let step = first; step <= s.state.maxSteps; step++) {
      checkCancelled(s);
      const r = await runStep(s, step, seen, step === first ? start : { t0: s.perf(), llmMs: 0 });
      if ('ended' in r) return r.ended;
      seen = r.next;
      const flashEnd = await afterFlashStep(s, seen);
      if (flashEnd) return flashEnd;
    }
  } catch (e) {
    // Something below broke (a dead device, a model that stopped answering) or the run was
    // cancelled: record why, keep the folder resumable, and let the caller print the message.
    const why = s.run.signal?.aborted ? cancelledBy(s.run.signal) : e;
    await apply(s, { kind: 'interrupted', reason: errorMessage(why), at: s.deps.clock.now() }).catch(() => undefined);
    if (why instanceof CancelledError) throw new CancelledError(`${why.message} (run folder: ${s.run.runDir})`);
    throw why instanceof PhoneAgentError ? why : new RunFailedError(s.run.runDir, why);
  }
  const max = s.state.maxSteps;
  return finish(
    s,
    'budget',
    { reason: `out of steps: the budget of ${max} step${max === 1 ? '' : 's'} is used up` },
    seen,
  );
}

/** A run broke on something unexpected; its folder keeps the reason and can be resumed. */
export class RunFailedError extends PhoneAgentError {
  override readonly name: string = 'RunFailedError';
  constructor(runDir: string, cause: unknown) {
    super('RUN_FAILED', `the run stopped on an error: ${errorMessage(cause)} (run folder: ${runDir})`, { cause });
  }
}

export type { Checkpoint };
