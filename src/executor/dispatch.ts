import type { Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Action, Element, Observation, Receipt } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { ActionRequest, TouchGuard, WireSnapshot } from '../device/protocol/index.js';
import { checkNativeRequest } from './native-validate.js';
import type { Pacer } from './pacing.js';
import type { TextResult } from './text-input.js';
import type { ExecutorToolSpec, Prepared, ToolTable } from './tool-spec.js';

/**
 * One tool → device calls, after grounding, the guard and the re-check have passed: the tool's
 * own dispatch (its spec, src/tools/), or its validated native request sent as it is. Pixels
 * appear here and only here (the single normalized → pixel conversion, in the tools' dispatch).
 * Native requests are validated in full before the first call, so bad input never reaches a backend.
 */

export interface DispatchCtx {
  device: Device;
  /** Every tool the executor runs (a sequence checks its members by their own specs). */
  tools: ToolTable;
  logger: Logger;
  pacer: Pacer;
  obs: Observation;
  read: (d: Deadline) => Promise<WireSnapshot | undefined>;
}

/** Where a touch goes: the element, its pixel point, and the guard the phone checks right before it. */
export interface DispatchTarget {
  element?: Element;
  px?: { x: number; y: number };
  /** Checked by the helper right before the touch (only when the device offers `guarded_touch`). */
  guard?: TouchGuard;
}

export interface Dispatched {
  call: DeviceCall;
  value?: unknown;
  text?: TextResult;
  /** A touch's own duration as sent (ms): the caller-chosen motion, not device or host time. */
  gestureMs?: number;
}

/** A native tool's protocol request from its args: the tool's name is the request's action. */
export function nativeRequest(
  a: Action,
  obs: Observation,
  args: Record<string, unknown> | undefined = a.args,
): Prepared {
  const body = { ...(args ?? {}) };
  delete body.action;
  delete body.op_id;
  const r = checkNativeRequest({ ...body, action: a.tool }, { width: obs.screen.w, height: obs.screen.h });
  return r.ok ? { ok: true, req: r.value } : r;
}

/** A validated request, or why not — checked before any input. */
export function prepareRequest(
  spec: ExecutorToolSpec,
  a: Action,
  obs: Observation,
): { ok: true; req?: ActionRequest } | { ok: false; call: (clock: Deadline) => DeviceCall } {
  const p = spec.prepare?.(a, obs) ?? { ok: true };
  if (p.ok) return p;
  const { code, message } = p;
  return { ok: false, call: (d) => refuse(d, code, message) };
}

export function refuse(d: Deadline, code: Parameters<CallRecorder['refused']>[0], message: string): DeviceCall {
  const rec = new CallRecorder(d.clock, 'bridge');
  const r = rec.refused(code, message);
  const receipt: Receipt = { ...r.receipt, method: 'none', backend: undefined, failover: undefined };
  return { ...r, receipt };
}

/** A native request sent as it is; the value is what the device answers (a control, members, a scroll log). */
export async function sendNative(device: Device, req: ActionRequest, d: Deadline): Promise<Dispatched> {
  const call = await device.native(req, d);
  return { call, value: call.device?.control ?? call.device?.members ?? call.device?.scroll_log };
}

export async function dispatch(
  ctx: DispatchCtx,
  spec: ExecutorToolSpec,
  a: Action,
  target: DispatchTarget,
  req: ActionRequest | undefined,
  d: Deadline,
): Promise<Dispatched> {
  if (spec.dispatch) return spec.dispatch(ctx, a, target, req, d);
  if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', `${a.tool} has no request`) };
  return sendNative(ctx.device, req, d);
}
