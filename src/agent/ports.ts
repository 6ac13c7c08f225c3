import type { Progress } from '../core/progress.js';
import type { Decision, Element, Observation, Receipt } from '../core/types.js';
import type { Consent, ConsentScope } from '../executor/consent.js';
import type { ExecutorEvent } from '../executor/executor.js';
import type { ConfirmationChannel, ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { GuardPolicy } from '../executor/guardrails/explore-policy.js';
import type { StateChange } from '../executor/side-effects.js';
import type { VerificationMode } from '../executor/verify.js';

/**
 * What the loop needs from the layers below, as narrow ports. The factory (src/compose) builds them
 * from a Device + perception + the executor's one pipeline (./device-ports.ts); the loop itself
 * never sees a device, a transport or the virtual phone.
 */

export interface Perceived {
  obs: Observation;
  /** The compact view the model is shown (built once, by perception). */
  compact: string;
  /** PNG of the screen the tree describes, when one was captured (archived as steps/NNN.png). */
  png?: Buffer;
  /** Time spent on the device (ms, injected clock). */
  deviceMs: number;
}

export type ConfirmVerdict = 'approved' | 'denied' | 'deferred';
/** What a person is asked about a guarded action (never typed text). */
export type GuardCheck = ConfirmationRequest;

export interface ExecuteRequest {
  decision: Decision;
  obs: Observation;
  /** The run's confirmation port. */
  confirm: ConfirmationChannel;
  /** The run's approvals and done acts, which the executor's guard stage judges by. */
  consent?: ConsentScope;
  /** The executor's events: the `intent` is journaled before the action is sent (DESIGN §6). */
  events: (e: ExecutorEvent) => Promise<void>;
  dryRun: boolean;
  /** Explore's guard policy (refuses, never asks); default the task's. */
  policy?: GuardPolicy;
  /** This action's verification (default the executor's; a guarded one is verified in full whatever is asked). */
  verification?: VerificationMode;
  /** Nobody deliberated on `obs` (a rule, a replay, the wait gate): no re-check read is needed. */
  fresh: boolean;
  /** The run's Progress (its cancel): the executor ends the action in flight when the run is cancelled. */
  progress?: Progress;
}

export interface Executed {
  receipt: Receipt;
  /** Delivered and, when `checked`, its expectation verified (and not overruled by the audit). */
  ok: boolean;
  /** The expectation was checked on a read after the action (false: delivered is all `ok` says). */
  checked: boolean;
  /** Why not, for the model: the receipt's error or the verdict's reason, with undo hints. */
  error?: string;
  signals: string[];
  /** The element acted on, when known. */
  target?: Element;
  /** How the guard was answered; absent when the action never reached it. */
  consent?: Consent;
  dryRun?: boolean;
  /** What else the action changed on the page, for the completion check. */
  changes: StateChange[];
  /** What a read-only tool answered (read_control's control), for the model. */
  value?: unknown;
  /** The post-action observation (the next step's perception); absent when nothing was read. */
  post?: Perceived;
  deviceMs: number;
}

export interface AgentPorts {
  /** Tools the device supports now (planner tool names): read each step, as a failover changes them. */
  readonly tools: string[];
  observe(previous?: Observation, opts?: { screenshot?: boolean }): Promise<Perceived>;
  execute(req: ExecuteRequest): Promise<Executed>;
  /**
   * The launcher's app names, each one `launch_app` opens on this device; undefined when the device
   * cannot list them (an older helper). Read once per run, when it starts or resumes (RunInfo.apps).
   */
  apps?(): Promise<readonly string[] | undefined>;
  /** The controls whose tap the guard would hold on this screen: id → categories (./held-taps.ts). */
  held(obs: Observation): Record<string, string[]>;
  /** A data: URL of the screen (cropped around a target), for visual-first pages and `look`. */
  image?(seen: Perceived, req: { target_id?: string; point?: { x: number; y: number } }): Promise<string | undefined>;
}
