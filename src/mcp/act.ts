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
 * One direct action through the project's executor, under the call's interaction controls. The
 * verification is the executor's own (executor/verify.ts, the agent's): `none` claims delivery;
 * `light` reads until the first settled screen that satisfies the expectation; `full` also reads
 * before the action and wants the expectation on two identical settled reads. A guarded action
 * the user confirmed is verified in full whatever was asked, and the result says so.
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
      verification: mode,
      dispatchTimeoutMs: eff.dispatchMs,
      // Also the budget of a guarded action's full verification when the call asked for less.
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

  // What the executor verified: the mode it applied (full for an approved guarded action), or a
  // skill's check of its own result in any mode; `none` with no check claims delivery only.
  const applied = r.verification ?? mode;
  const checked = r.outcome !== undefined || applied !== 'none';
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
  const unreadable = (r.value as { value_unreadable?: string } | undefined)?.value_unreadable;
  if (!checked && req.readOnly && unreadable)
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
  if (!checked)
    return {
      ...base,
      ...value,
      success: true,
      lifecycle_state: req.readOnly ? 'verified' : 'pending_verification',
      verification: { mode: eff.verification, status: 'not_requested' },
      timing: timing(),
      debug: debug(),
    };

  // Checked: the executor validated, or could not read the screen after delivering.
  const revision = r.post ? s.keep(r.post) : undefined;
  const delta = revision !== undefined ? s.revisions.delta(req.base.revision, revision) : undefined;
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
      mode: applied,
      status,
      ...(r.outcome?.reason ? { reason: r.outcome.reason } : {}),
      ...(applied !== eff.verification ? { applied: fullBecause(eff.verification, r.guard?.categories) } : {}),
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
