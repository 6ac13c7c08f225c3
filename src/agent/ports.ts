import type { Decision, Element, Expect, Observation, Receipt } from '../core/types.js';

/**
 * What the loop needs from the layers below, as narrow ports. The composition root (CLI, tests,
 * benchmarks) builds them from a Device + perception + executor (see ./device-ports.ts); the loop
 * itself never sees a device, a transport or the virtual phone.
 */

export interface Perceived {
  obs: Observation;
  /** PNG of the screen, when one was captured (archived as steps/NNN.png). */
  png?: Buffer;
  /** Time spent on the device (ms, injected clock). */
  deviceMs: number;
}

export interface GuardCheck {
  needsConfirmation: boolean;
  mutating: boolean;
  categories: string[];
  reasons: string[];
  /** For the person: `tap "Pay ¥18.00" in com.foodshop` (never typed text). */
  summary: string;
}

export type ConfirmVerdict = 'approved' | 'denied' | 'deferred';

export interface Executed {
  receipt: Receipt;
  ok: boolean;
  /** Why the dispatch failed (grounding, stale target, unsupported, device error). */
  error?: string;
  /** The element acted on, when known. */
  target?: Element;
  deviceMs: number;
}

export interface Validated {
  ok: boolean;
  signals: string[];
  reason?: string;
  /** checkFinish only: stop and hand over to a person (ask_user with `reason`) instead of re-asking. */
  handOver?: boolean;
}

export interface AgentPorts {
  /** Tools the device supports (planner tool names). */
  tools: string[];
  observe(previous?: Observation, opts?: { screenshot?: boolean }): Promise<Perceived>;
  compact(obs: Observation): string;
  guard(decision: Decision, obs: Observation): GuardCheck;
  confirm(check: GuardCheck, obs: Observation): Promise<ConfirmVerdict>;
  execute(decision: Decision, obs: Observation): Promise<Executed>;
  validate(expect: Expect, pre: Observation, post: Observation, decision: Decision, target?: Element): Validated;
  /**
   * The completion check for a terminal decision (`done`, `ask_user`): whether what the run saw
   * supports ending now (no unintended change left undone, the last action did not fail, an answer
   * was on screen). A failed verdict is fed back to the planner instead of finishing.
   */
  checkFinish?(decision: Decision, obs: Observation): Validated;
  /** A data: URL of the screen (cropped around a target), for visual-first pages and `look`. */
  image?(obs: Observation, req: { target_id?: string; point?: { x: number; y: number } }): Promise<string | undefined>;
}
