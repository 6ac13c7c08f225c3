import { errorMessage } from '../core/errors.js';
import type { Action, Element, Expect } from '../core/types.js';
import type { Asker } from './consent.js';
import {
  type ActionResult,
  type Controls,
  delivery,
  effectiveControls,
  failureCode,
  newActionId,
  type VerificationMode,
  type VerificationStatus,
} from './controls.js';
import type { DeviceSession, Observed } from './session.js';

/**
 * One direct action through the project's executor, under the call's interaction controls:
 * - `none`: the executor dispatches (guard, aim, re-check when the observation is not its own
 *   fresh read) and reads nothing after;
 * - `light`: the same, then exactly one fresh observation, bounded by the verification budget; its
 *   delta against the newest kept revision is evidence, not a passed assertion;
 * - `full`: the executor's full path: pre read, re-check, dispatch, validation until settled.
 */

export interface CallConsent {
  ask?: Asker;
  confirmationId?: string;
}

export interface ActRequest {
  tool: string;
  action: Action;
  expect: Expect;
  base: Observed;
  element?: Element;
  controls: Controls;
  consent: CallConsent;
  /** launch_app has a 10 s dispatch default (RFC §6). */
  dispatchDefaultMs?: number;
  /** Read-only tools (read_control, wait_until): the value is the result, no post read. */
  readOnly?: boolean;
  /** `base` was read in this call (a selector resolved now): no decision time since, no re-check. */
  fresh?: boolean;
}

export async function act(s: DeviceSession, req: ActRequest): Promise<ActionResult> {
  const t0 = performance.now();
  const eff = effectiveControls(req.controls, { dispatchMs: req.dispatchDefaultMs });
  const mode = req.readOnly ? 'none' : eff.verification;
  s.consent.begin(req.consent);
  let r: Awaited<ReturnType<typeof s.executor.run>>;
  try {
    r = await s.executor.run({ thought: `mcp ${req.tool}`, action: req.action, expect: req.expect }, req.base.obs, {
      confirm: s.consent,
      fresh: !!req.fresh,
      verification: mode === 'full' ? 'full' : 'none',
      dispatchTimeoutMs: eff.dispatchMs,
      // Also the budget of a guarded action's full verification when the call asked for light.
      verifyTimeoutMs: mode === 'none' ? undefined : eff.verifyMs,
    });
  } finally {
    s.consent.end();
  }
  const tDispatched = performance.now();
  const d = delivery(r.receipt);
  const base: Omit<ActionResult, 'success' | 'lifecycle_state' | 'verification' | 'timing'> = {
    action_id: newActionId(req.tool),
    action_type: req.tool,
    ...d,
  };
  // paced_ms: the part of total_ms spent waiting out the gap since the previous dispatch (DESIGN §5).
  const paced = r.pacedMs ? { paced_ms: Math.round(r.pacedMs) } : {};
  const gesture = r.gestureMs !== undefined ? { gesture_ms: Math.round(r.gestureMs) } : {};
  const timing = () => ({ total_ms: Math.round(performance.now() - t0), ...paced, ...gesture });
  const debug = (extra: Record<string, unknown> = {}) => ({
    receipt: r.receipt,
    effective: {
      verificationMode: eff.verification,
      actionTimeoutMs: eff.dispatchMs,
      verificationTimeoutMs: eff.verifyMs,
    },
    target: req.element
      ? { id: req.element.id, role: req.element.role, label: req.element.label, resource_id: req.element.resourceId }
      : undefined,
    guard: r.guard?.categories.length ? { categories: r.guard.categories, reasons: r.guard.reasons } : undefined,
    value: r.value,
    timing: { dispatch_ms: Math.round(tDispatched - t0), reads: r.reads },
    ...extra,
  });

  if (r.pendingConfirmation) {
    return {
      ...base,
      success: false,
      lifecycle_state: 'needs_confirmation',
      failure_code: 'NEEDS_CONFIRMATION',
      message: `${r.pendingConfirmation.summary} is a ${r.pendingConfirmation.categories.join('/')} action and was not sent: ask your user, then call ${req.tool} again with the same target and confirmation_id`,
      confirmation_id: s.consent.issued,
      retryable: true,
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };
  }
  const error = r.receipt.error;
  const delivered = d.delivery_status === 'delivered' || (r.receipt.status === 'observed' && !error);
  if (!delivered && (error || !r.ok)) {
    return {
      ...base,
      success: false,
      lifecycle_state: 'failed',
      failure_code: failureCode(error?.code) ?? 'FAILED',
      message:
        d.delivery_status === 'unknown'
          ? `${error?.message ?? 'no answer from the device'}; the device may have acted: observe before retrying`
          : (error?.message ?? 'the action was not delivered'),
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };
  }

  // What a read (or a skill) found is the result itself, in every response mode.
  const value = r.value !== undefined ? { value: r.value } : {};
  // Delivered but stopped short (a scroll_to that scrolled and did not find its row, a sequence
  // that stopped after some members): a failure, with the device's word on what happened.
  if (error && r.receipt.status === 'partial')
    return {
      ...base,
      ...value,
      success: false,
      lifecycle_state: 'failed',
      failure_code: failureCode(error.code) ?? 'FAILED',
      message: `${error.message} (it did act: observe before going on)`,
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };

  // A guarded action the user approved is verified in full by the executor, whatever the call
  // asked: its outcome is reported as such (a failed check is a failed action, never "pending").
  const verified = r.outcome !== undefined;
  const unreadable = (r.value as { value_unreadable?: string } | undefined)?.value_unreadable;
  if (mode === 'none' && !verified && req.readOnly && unreadable)
    // The control was found, but not its value: a read that says so, not a success with nothing in it.
    return {
      ...base,
      ...value,
      success: false,
      lifecycle_state: 'failed',
      failure_code: 'READ_FAILED',
      message: `the control's value cannot be read: ${unreadable}; take a screenshot to see it`,
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };
  if (mode === 'none' && !verified)
    return {
      ...base,
      ...value,
      success: true,
      lifecycle_state: req.readOnly ? 'verified' : 'pending_verification',
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };

  if (mode === 'light' && !verified) {
    // One fresh tree, no settling wait; failing to read is "unavailable", never a failed action.
    const from = s.revisions.latest()?.revision;
    try {
      // The dispatch's own read-back (typing) is that one fresh tree; otherwise read one now.
      const post = r.post ? { obs: r.post, revision: s.keep(r.post) } : await s.observe({ timeoutMs: eff.verifyMs });
      const delta = s.revisions.delta(from, post.revision);
      return {
        ...base,
        success: true,
        lifecycle_state: 'pending_verification',
        verification: { mode: 'light', status: 'observed' },
        snapshot_revision: post.revision,
        ...(delta.delta_available ? { state_delta: delta } : { state_delta_available: false }),
        timing: timing(),
        debug: debug(),
      };
    } catch (e) {
      return {
        ...base,
        success: true,
        lifecycle_state: 'pending_verification',
        verification: { mode: 'light', status: 'unavailable', reason: `${errorMessage(e)} (retryable: observe)` },
        timing: timing(),
        debug: debug(),
      };
    }
  }

  // Full (or guarded): the executor validated, or could not read the screen after delivering.
  const from = req.base.revision;
  const revision = r.post ? s.keep(r.post) : undefined;
  const delta = revision !== undefined ? s.revisions.delta(from, revision) : undefined;
  const status: VerificationStatus = !r.outcome ? 'unavailable' : r.ok ? 'verified' : 'failed';
  return {
    ...base,
    ...value,
    // Unavailable evidence is a delivered action with incomplete proof, not a failed one (RFC §6.1).
    success: r.ok || status === 'unavailable',
    lifecycle_state: r.ok ? 'verified' : status === 'unavailable' ? 'pending_verification' : 'failed',
    ...(r.ok ? {} : { failure_code: status === 'unavailable' ? 'READ_FAILED' : 'VERIFICATION_FAILED' }),
    ...(r.ok ? {} : { message: r.outcome?.reason ?? error?.message }),
    verification: {
      mode: 'full',
      status,
      ...(r.outcome?.reason ? { reason: r.outcome.reason } : {}),
      ...(eff.verification !== 'full' ? { applied: fullBecause(eff.verification, r.guard?.categories) } : {}),
    },
    ...(revision !== undefined ? { snapshot_revision: revision } : {}),
    ...(delta?.delta_available ? { state_delta: delta } : {}),
    timing: timing(),
    debug: debug({ signals: r.outcome?.signals }),
  };
}

/** Why a call that asked for less was verified in full: said, never silently upgraded. */
function fullBecause(asked: VerificationMode, categories: readonly string[] | undefined): string {
  const kind = categories?.length ? `a ${categories.join('/')} action` : 'a guarded action';
  return `verificationMode ${asked} was asked; full was applied because this is ${kind} you confirmed, whose outcome must be checked`;
}
