import type { Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Action, Element, Observation, Receipt } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { ActionRequest, ControlInfo, TouchGuard, WireSnapshot } from '../device/protocol/index.js';
import { readControlOnReads } from './control-reads.js';
import { launchOnReads } from './launch-reads.js';
import { buildNativeRequest, checkControlRequest, isNativeTool } from './native-validate.js';
import { LONG_PRESS_MS, type Pacer } from './pacing.js';
import { pinchArgs } from './pinch.js';
import { scrollOnReads } from './scroll-reads.js';
import { enterText, type TextResult } from './text-input.js';
import { waitOnReads } from './wait-reads.js';

/**
 * One tool → device calls, after grounding, the guard and the re-check have passed. Pixels appear
 * here and only here (the single normalized → pixel conversion). Native requests are validated in
 * full before the first call, so bad input never reaches a backend.
 */

const PACKAGE_RE = /^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/;

export interface DispatchCtx {
  device: Device;
  logger: Logger;
  pacer: Pacer;
  obs: Observation;
  read: (d: Deadline) => Promise<WireSnapshot | undefined>;
}

export interface Dispatched {
  call: DeviceCall;
  value?: unknown;
  text?: TextResult;
  /** A touch's own duration as sent (ms): the caller-chosen motion, not device or host time. */
  gestureMs?: number;
}

/** A validated native request, or why not — checked before any input. */
export function prepareNative(
  a: Action,
  obs: Observation,
): { ok: true; req: ActionRequest } | { ok: false; call: (clock: Deadline) => DeviceCall } {
  if (!isNativeTool(a.tool))
    return { ok: false, call: (d) => refuse(d, 'INVALID_ARGUMENT', `${a.tool} is not a native tool`) };
  if (a.tool === 'scroll_to' && !a.args?.container)
    return {
      ok: false,
      call: (d) =>
        refuse(
          d,
          'NOT_FOUND',
          'scroll_to: no scrollable list on this screen (none is marked scroll); swipe instead, or give the list as target_id',
        ),
    };
  // The planner's pinch names a scale and a target; the protocol wants finger distances.
  const p = a.tool === 'pinch' ? pinchArgs(a, obs) : { ok: true as const, args: a.args };
  if (!p.ok) return { ok: false, call: (d) => refuse(d, 'INVALID_ARGUMENT', p.message) };
  const r = buildNativeRequest(a.tool, p.args, { width: obs.screen.w, height: obs.screen.h });
  if (!r.ok) {
    const { code, message } = r;
    return { ok: false, call: (d) => refuse(d, code, message) };
  }
  return { ok: true, req: r.value };
}

export function refuse(d: Deadline, code: Parameters<CallRecorder['refused']>[0], message: string): DeviceCall {
  const rec = new CallRecorder(d.clock, 'bridge');
  const r = rec.refused(code, message);
  const receipt: Receipt = { ...r.receipt, method: 'none', backend: undefined, failover: undefined };
  return { ...r, receipt };
}

/** read_control through the device, for checks that need the live control. */
async function readControl(
  device: Device,
  selector: unknown,
  d: Deadline,
): Promise<{ ok: true; control: ControlInfo } | { ok: false; call: DeviceCall }> {
  const r = buildNativeRequest(
    'read_control',
    { selector: selector as Record<string, unknown> },
    { width: 1, height: 1 },
  );
  if (!r.ok) return { ok: false, call: refuse(d, r.code, r.message) };
  const call = await device.native(r.value, d);
  if (!call.ok || !call.device?.control) return { ok: false, call };
  return { ok: true, control: call.device.control };
}

/** Control requests that need the live control: range, selection, token, supported actions. */
async function checkedControl(
  ctx: DispatchCtx,
  req: Extract<ActionRequest, { action: 'control_action' }>,
  d: Deadline,
): Promise<{ ok: true; req: ActionRequest } | { ok: false; call: DeviceCall }> {
  const live = await readControl(ctx.device, req.request.selector, d);
  if (!live.ok) return live;
  const c = checkControlRequest(req.request, live.control);
  if (!c.ok) return { ok: false, call: refuse(d, c.code, c.message) };
  // Bind the write to the very control just checked.
  return {
    ok: true,
    req: { ...req, request: { ...req.request, expected_token: req.request.expected_token ?? live.control.token } },
  };
}

/** What finding an app's icon on the launcher takes: keys, reads, swipes and a tap. */
function canBrowse(dev: Device): boolean {
  const ops = dev.capabilities().ops;
  return (['key', 'snapshot', 'swipe', 'tap'] as const).every((op) => ops.has(op));
}

export async function dispatch(
  ctx: DispatchCtx,
  a: Action,
  /** `guard`: checked by the helper right before the touch (only when the device offers `guarded_touch`). */
  target: { element?: Element; px?: { x: number; y: number }; guard?: TouchGuard },
  native: ActionRequest | undefined,
  d: Deadline,
): Promise<Dispatched> {
  const dev = ctx.device;
  const screen = { w: ctx.obs.screen.w, h: ctx.obs.screen.h };
  switch (a.tool) {
    case 'tap': {
      if (!target.px) return { call: refuse(d, 'INVALID_ARGUMENT', 'tap has no point') };
      const ms = ctx.pacer.tapMs();
      return { call: await dev.tap(target.px, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
    }
    case 'long_press': {
      if (!target.px) return { call: refuse(d, 'INVALID_ARGUMENT', 'long_press has no point') };
      const ms = Math.max(LONG_PRESS_MS, a.ms ?? 0);
      return { call: await dev.longPress(target.px, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
    }
    case 'swipe': {
      const from = target.px ?? { x: Math.round(screen.w / 2), y: Math.round(screen.h / 2) };
      // A third of the screen, but never longer than 80% of the target: a swipe on a small element
      // (a notification banner, a carousel) must start on it, not in whatever lies below.
      const box = target.element?.boundsPx;
      const span = (full: number, size: number | undefined) => Math.min(0.3 * full, size ? 0.8 * size : full);
      const spanX = span(screen.w, box && box.right - box.left);
      const spanY = span(screen.h, box && box.bottom - box.top);
      const dx = { left: -spanX, right: spanX, up: 0, down: 0 }[a.direction ?? 'up'];
      const dy = { left: 0, right: 0, up: -spanY, down: spanY }[a.direction ?? 'up'];
      const clamp = (v: number, max: number) => Math.min(max - 2, Math.max(1, Math.round(v)));
      const start = { x: clamp(from.x - dx / 2, screen.w), y: clamp(from.y - dy / 2, screen.h) };
      const end = { x: clamp(from.x + dx / 2, screen.w), y: clamp(from.y + dy / 2, screen.h) };
      const path = ctx.pacer.curvedPath(start, end);
      const ms = ctx.pacer.swipeMs(start, end, a.ms);
      return { call: await dev.swipe(path, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
    }
    case 'back':
      return { call: await dev.key('back', d) };
    case 'home':
      return { call: await dev.key('home', d) };
    case 'launch_app': {
      const p = a.package ?? (typeof a.args?.package === 'string' ? a.args.package : undefined);
      const label = typeof a.args?.label === 'string' ? a.args.label : a.text;
      if (!p && !label) return { call: refuse(d, 'INVALID_ARGUMENT', 'launch_app needs package (or a label)') };
      // The model names apps as the launcher shows them ("Settings") or by package: a name with no
      // dots is a label, which each backend resolves (the helper by label, adb by the launcher list).
      const byLabel = p !== undefined && !PACKAGE_RE.test(p);
      const name = byLabel ? p : label;
      const call = await dev.launchApp(p && !byLabel ? { package: p } : { label: name }, d);
      // A name the device could not resolve (adb reads no labels) is looked for on the launcher.
      if (name && !call.ok && call.code === 'NOT_FOUND' && call.receipt.delivery === 'not_delivered' && canBrowse(dev))
        return { call: await launchOnReads(dev, ctx.pacer, name, d) };
      return { call };
    }
    case 'wait': {
      const ms = Math.min(Math.max(0, a.ms ?? 1000), 6_000);
      const rec = new CallRecorder(d.clock, 'bridge');
      await d.sleep(ms);
      return {
        call: {
          ok: true,
          receipt: { ...rec.receipt('completed', 'not_delivered'), method: 'none', backend: undefined },
        },
      };
    }
    case 'type': {
      if (!target.element || a.text === undefined)
        return { call: refuse(d, 'INVALID_ARGUMENT', 'type needs a field and text') };
      const text = await enterText(
        { device: dev, logger: ctx.logger, pacer: ctx.pacer, read: ctx.read },
        target.element,
        a.text,
        d,
      );
      const call: DeviceCall = text.ok
        ? { ok: true, receipt: text.receipt }
        : {
            ok: false,
            code: text.receipt.error?.code ?? 'UNSUPPORTED',
            message: text.message ?? 'text not entered',
            receipt: text.receipt,
          };
      return { call, text };
    }
    default: {
      if (!native) return { call: refuse(d, 'INVALID_ARGUMENT', `${a.tool} has no request`) };
      let req = native;
      if (req.action === 'control_action') {
        const c = await checkedControl(ctx, req, d);
        if (!c.ok) return { call: c.call };
        req = c.req;
      }
      if (req.action === 'action_sequence') {
        // Validate every member against its live control before the first one runs.
        const members = [...req.actions];
        // A control an earlier member acts on changes before a later member reaches it (set_text,
        // then ime_enter): only the first member on a control is bound to the token read now.
        const touched = new Set<string>();
        for (const [i, m] of members.entries()) {
          if (m.action !== 'control_action') continue;
          const c = await checkedControl(ctx, m, d);
          if (!c.ok) {
            const msg = `action_sequence member ${i}: ${c.call.ok ? '' : c.call.message}`;
            return { call: refuse(d, c.call.ok ? 'INTERNAL' : c.call.code, msg) };
          }
          const key = JSON.stringify(m.request.selector ?? null);
          members[i] = (touched.has(key) ? m : c.req) as typeof m;
          touched.add(key);
        }
        req = { ...req, actions: members };
      }
      if (req.action === 'wait_until' && !dev.capabilities().ops.has('wait_until'))
        return { call: await waitOnReads(dev, req, d) };
      if (req.action === 'read_control' && !dev.capabilities().ops.has('read_control')) {
        const call = await readControlOnReads(dev, req, d);
        return { call, value: call.device?.control };
      }
      if (req.action === 'scroll_to' && !dev.capabilities().ops.has('scroll_to'))
        return { call: await scrollOnReads(dev, ctx.pacer, req, d) };
      const call = await dev.native(req, d);
      return { call, value: call.device?.control ?? call.device?.members ?? call.device?.scroll_log };
    }
  }
}
