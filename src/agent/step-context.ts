import type { Approval } from '../executor/consent-scope.js';
import type { LlmUsage } from '../planner/llm/client.js';
import type { PendingBurst } from '../store/checkpoint.js';
import type { Perceived } from './ports.js';
import type { StepRecord } from './types.js';

/** One step in flight: what it decides on, what it has spent, and the record it will emit. */
export interface StepCtx {
  step: number;
  /** The perception this step decides on (the previous step's post-action read). */
  seen: Perceived;
  record: StepRecord;
  /** perf() when the step began (the first step of a new run includes planning). */
  t0: number;
  llmMs: number;
  deviceMs: number;
  usage: LlmUsage;
  /** A plan the model sent with `subgoal_done`: applied at commit, after the shown subgoal closed. */
  revisedPlan?: readonly string[];
  /** The earlier approval that covered this step's guarded tap (a confirmation dialog it opened). */
  covered?: Approval;
  /** What is left of this step's burst after its part (./flash-burst.ts): run state once the part ran. */
  burstRest?: PendingBurst;
  /** This step runs a later part of a burst (grounded from its rest, not remembered on its own). */
  burstNext?: boolean;
}
