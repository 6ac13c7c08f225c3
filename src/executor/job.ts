import type { Clock } from '../core/clock.js';
import type { Progress } from '../core/progress.js';
import type { Decision, ErrorCode, Observation, Receipt } from '../core/types.js';
import type { ActionRequest } from '../device/protocol/index.js';
import type { Dispatched } from './dispatch.js';
import type { ExecutorDeps, RunHooks, StepResult } from './executor.js';
import type { FieldHints } from './field-hints.js';
import type { Perceiver } from './observe.js';
import type { ActionGap, Pacer } from './pacing.js';
import type { SkillStepResult } from './skill-step.js';
import type { Aim } from './targets.js';
import type { ExecutorToolSpec } from './tool-spec.js';
import type { PollMode, VerificationMode } from './verify.js';

/**
 * One action on its way through the executor's stages (DESIGN §5): prepare → guard → act → verify.
 * Each stage is a function of the executor's environment and the job so far; it hands the next
 * stage a job with what it added, or ends the action with its result. One Progress goes with the
 * job: the deadline and cancel signal every device call under it takes, and the log that ends up
 * in the error.
 */

/** What every stage may use: the deps, the pacing, the perceiver and this executor's last own read. */
export interface StageEnv {
  deps: ExecutorDeps;
  pacer: Pacer;
  gap: ActionGap;
  perceive: Perceiver;
  memory: PostMemory;
  /** The executor's default verification. */
  mode: PollMode;
  /** Where typing records what a field showed before (./field-hints.ts). */
  fields?: FieldHints;
}

/** A stage's answer: the job for the next stage, or the action's result. */
export type Staged<T> = { next: T } | { end: StepResult };

/** What the result carries from the stage that learnt it on, whatever happens next. */
export type Carried = Pick<StepResult, 'guard' | 'consent' | 'target' | 'pacedMs' | 'gestureMs'>;

/** After prepare: the decision grounded on its observation, its request validated, nothing sent. */
export interface Job {
  decision: Decision;
  spec: ExecutorToolSpec;
  /** The action bound to the observation (full selectors, protocol arguments). */
  action: Decision['action'];
  obs: Observation;
  hooks: RunHooks;
  /** The action's budget (ms) and, when the caller split it, the share of pacing, re-check and dispatch. */
  budget: { total: number; dispatch?: number };
  progress: Progress;
  aim: Extract<Aim, { ok: true }>;
  native?: ActionRequest;
  carried: Carried;
}

/** After guard: consent given (or none needed), the intent announced; the verification chosen. */
export interface Consented extends Job {
  mode: VerificationMode;
}

/** After act: the dispatch's answer (or the skill's result) and the screen right before it. */
export type Acted = Consented & { pre: Observation; reads: number } & (
    | { out: Dispatched; skilled?: undefined }
    | { skilled: SkillStepResult; out?: undefined }
  );

/** This executor's own newest settled read, and when: in light mode it can stand in for the re-check. */
export class PostMemory {
  private last?: Observation;
  private at = 0;
  constructor(private readonly clock: Clock) {}

  remember(obs: Observation): void {
    this.last = obs;
    this.at = this.clock.now();
  }

  forget(): void {
    this.last = undefined;
  }

  /** `obs` is that read, settled and made at most `withinMs` ago (no decision time in between). */
  isOwnFresh(obs: Observation, withinMs: number): boolean {
    return this.last === obs && !obs.unstable && this.clock.now() - this.at <= withinMs;
  }
}

/** A receipt for an action that sent nothing. */
export function noneReceipt(clock: Clock, status: Receipt['status'], code?: ErrorCode, message?: string): Receipt {
  const now = clock.now();
  return {
    status,
    delivery: 'not_delivered',
    method: 'none',
    timings: { startedAt: now, endedAt: now },
    ...(code && message ? { error: { code, message } } : {}),
  };
}

/** The result of an action that stopped at `receipt` (nothing verified). */
export function refused(receipt: Receipt, extra: Partial<StepResult> = {}): { end: StepResult } {
  const error = receipt.error ? `${receipt.error.code}: ${receipt.error.message}` : undefined;
  return { end: { ok: false, reads: 0, changes: [], receipt, error, ...extra } };
}
