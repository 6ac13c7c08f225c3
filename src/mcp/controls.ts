import { z } from 'zod';
import type { Receipt } from '../core/types.js';
import { VERIFICATION_MODES, type VerificationMode } from '../executor/verify.js';

export type { VerificationMode } from '../executor/verify.js';

/**
 * The interaction controls every MCP action carries (interaction-latency RFC §6): verification and
 * response modes, a dispatch and a verification budget (clamped, enforced under one deadline per
 * call), and the delivery fields every result reports.
 */

export const ControlsShape = {
  verificationMode: z
    .enum(VERIFICATION_MODES)
    .optional()
    .describe(
      "none: dispatch only, nothing read after; light: dispatch, then reads until the first settled screen on which the expectation holds (the state_delta against what you observed); full (default): a read right before, dispatch, then the expectation on two identical settled reads. The agent's own verification, the same code. A guarded action you confirmed is always verified in full: the result then says verification.mode full and verification.applied says why",
    ),
  responseMode: z
    .enum(['compact', 'debug'])
    .optional()
    .describe('compact: the result fields only; debug (default): receipt, timings, target and outcome signals'),
  actionTimeoutMs: z
    .number()
    .int()
    .optional()
    .describe('dispatch budget, clamped to 100–30000 ms (default 5000; launch_app 10000)'),
  verificationTimeoutMs: z
    .number()
    .int()
    .optional()
    .describe('verification budget, clamped to 100–60000 ms (default light 3000, full 6000)'),
};

export type ResponseMode = 'compact' | 'debug';

export interface Controls {
  verificationMode?: VerificationMode;
  responseMode?: ResponseMode;
  actionTimeoutMs?: number;
  verificationTimeoutMs?: number;
}

export interface Effective {
  verification: VerificationMode;
  response: ResponseMode;
  dispatchMs: number;
  verifyMs: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));

export function effectiveControls(c: Controls, defaults: { dispatchMs?: number } = {}): Effective {
  const verification = c.verificationMode ?? 'full';
  const verifyDefault = verification === 'light' ? 3_000 : 6_000;
  return {
    verification,
    response: c.responseMode ?? 'debug',
    dispatchMs: clamp(c.actionTimeoutMs ?? defaults.dispatchMs ?? 5_000, 100, 30_000),
    verifyMs: verification === 'none' ? 0 : clamp(c.verificationTimeoutMs ?? verifyDefault, 100, 60_000),
  };
}

export type VerificationStatus = 'not_requested' | 'verified' | 'unavailable' | 'failed';

/** RFC §6.2's compact result; debug adds `debug`. */
export interface ActionResult {
  action_id: string;
  action_type: string;
  success: boolean;
  lifecycle_state: 'pending_verification' | 'verified' | 'failed' | 'needs_confirmation';
  failure_code?: string;
  message?: string;
  retryable: boolean;
  delivery_status: 'delivered' | 'not_delivered' | 'unknown';
  dispatch_started: boolean;
  /** `applied`: why the mode differs from the one asked (a confirmed guarded action is verified in full). */
  verification: { mode: VerificationMode; status: VerificationStatus; reason?: string; applied?: string };
  snapshot_revision?: number;
  state_delta?: unknown;
  state_delta_available?: boolean;
  confirmation_id?: string;
  /** What a read found (read_control's control, wait_until's answer) or a skill reported (set_slider). */
  value?: unknown;
  /**
   * `paced_ms`: how much of `total_ms` was the pacing gap since the previous dispatch (a rate limit,
   * not this action's cost); `gesture_ms`: the touch's own duration as sent (a tap's hold, a swipe's
   * motion — the same in every mode), so `total_ms − paced_ms − gesture_ms` is what the call added.
   */
  timing: { total_ms: number; paced_ms?: number; gesture_ms?: number };
  debug?: Record<string, unknown>;
}

/**
 * Delivery facts of a receipt. A dispatch that may have reached the device (a timeout after the
 * request left) is `unknown` and never retryable: the client must observe first.
 */
export function delivery(r: Receipt): Pick<ActionResult, 'delivery_status' | 'dispatch_started' | 'retryable'> {
  const started = r.delivery !== 'not_delivered' || r.timings.dispatchedAt !== undefined;
  if (r.delivery === 'unknown' || r.status === 'unknown')
    return { delivery_status: 'unknown', dispatch_started: true, retryable: false };
  if (r.delivery === 'delivered') return { delivery_status: 'delivered', dispatch_started: true, retryable: false };
  // Not delivered: retrying is safe unless something was sent (a partial native sequence).
  return { delivery_status: 'not_delivered', dispatch_started: started, retryable: !started };
}

/** `failure_code` in the RFC's words where it names one (a timeout is ACTION_TIMEOUT). */
export function failureCode(code: string | undefined): string | undefined {
  if (code === 'TIMEOUT') return 'ACTION_TIMEOUT';
  return code;
}

let counter = 0;
export function newActionId(tool: string): string {
  counter = (counter + 1) % 1_000_000;
  return `${tool}-${Date.now().toString(36)}-${counter}`;
}

/** The result as the client sees it: compact drops `debug`. */
export function shape(r: ActionResult, mode: ResponseMode): ActionResult {
  if (mode === 'debug') return r;
  const { debug: _drop, ...rest } = r;
  return rest;
}
