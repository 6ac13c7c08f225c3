import type { Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Action, Decision, Element, Observation, Receipt } from '../core/types.js';
import type { Device, DeviceCall } from '../device/device.js';
import type { ActionRequest, WireSnapshot } from '../device/protocol/index.js';
import { type Dispatched, dispatch, prepareNative, refuse } from './dispatch.js';
import { isNativeTool } from './native-validate.js';
import { defaultPerceiver, observeDevice, type Perceiver } from './observe.js';
import type { Pacer } from './pacing.js';
import { occludingWindow, recheckTarget } from './recheck.js';
import { type Aim, aimAt, withNativeSelector } from './targets.js';

/**
 * The injection step shared by the Executor and by loops that guard and validate themselves:
 * one fresh read right before injecting (pre evidence + the target's re-check: moved > 20 px or
 * gone → STALE, covered → OCCLUDED), then the dispatch under the caller's deadline.
 */

const TOUCHES = new Set(['tap', 'long_press', 'swipe']);

export interface InjectCtx {
  device: Device;
  logger: Logger;
  pacer: Pacer;
  perceive: Perceiver;
}

export type Injected =
  | { ok: false; call: DeviceCall; reads: number }
  | { ok: true; out: Dispatched; pre: Observation; reads: number };

export async function injectChecked(
  ctx: InjectCtx,
  a: Action,
  obs: Observation,
  aim: Extract<Aim, { ok: true }>,
  native: ActionRequest | undefined,
  d: Deadline,
  /** `frames`: capture the screenshot too (an expectation only pixels can confirm). */
  opts: { preRead: boolean; recheck: boolean; frames?: boolean },
): Promise<Injected> {
  let reads = 0;
  let pre = obs;
  let px = aim.px;
  // Only touches aimed at an element's position can land on the wrong spot; reads, text and native
  // control actions (re-resolved by selector on the phone) have nothing to re-check here.
  const recheck = opts.recheck && !!aim.element && TOUCHES.has(a.tool);
  if (opts.preRead || recheck) {
    reads++;
    const p = await observeDevice(ctx.device, ctx.perceive, obs, d, { screenshot: opts.frames });
    if (!p.ok)
      return {
        ok: false,
        reads,
        call: refuse(
          d,
          'READ_FAILED',
          `could not re-read the screen right before injecting (${p.message}); observe again`,
        ),
      };
    pre = p.obs;
    if (recheck && aim.element) {
      const rc = recheckTarget(aim.element, p.snap);
      if (!rc.ok) {
        ctx.logger.warn('pre-injection re-check failed', { code: rc.code, moved: rc.movedPx });
        return { ok: false, reads, call: refuse(d, rc.code, rc.message) };
      }
      const occ = px ? occludingWindow(px, rc.node, p.snap) : undefined;
      if (occ)
        return {
          ok: false,
          reads,
          call: refuse(d, 'OCCLUDED', `the touch point is covered by a ${occ}; close it or re-observe`),
        };
      if (px && aim.how !== 'raw')
        px = {
          x: Math.round((rc.node.bounds.left + rc.node.bounds.right) / 2),
          y: Math.round((rc.node.bounds.top + rc.node.bounds.bottom) / 2),
        };
    }
  } else if (aim.element && px) {
    // The observation is a fresh read of this executor's own: its windows still show what covers the target.
    const occ = occludingWindow(px, aim.element, obs);
    if (occ)
      return {
        ok: false,
        reads,
        call: refuse(d, 'OCCLUDED', `the touch point is covered by a ${occ}; close it or re-observe`),
      };
  }
  const read = async (dl: Deadline): Promise<WireSnapshot | undefined> => {
    reads++;
    const r = await ctx.device.snapshot({}, dl);
    return r.ok ? r.snapshot : undefined;
  };
  const out = await dispatch(
    { device: ctx.device, logger: ctx.logger, pacer: ctx.pacer, obs, read },
    a,
    { element: aim.element, px },
    native,
    d,
  );
  return { ok: true, out, pre, reads };
}

export interface ExecuteDeps {
  device: Device;
  logger: Logger;
  pacer: Pacer;
  perceive?: Perceiver;
}

export interface Executed {
  ok: boolean;
  receipt: Receipt;
  error?: string;
  target?: Element;
  /** The fresh read made right before injecting (pre evidence for validation). */
  pre?: Observation;
  value?: unknown;
  reads: number;
}

/**
 * One decision → grounding → native validation → re-check → dispatch (text ladder included), for a
 * loop that runs the guard and the validator itself. Native tools may name their target by
 * `target_id`; the selector is derived from that element. Pass `fresh: true` only when `obs` was
 * read immediately before (no decision time in between) to skip the re-check read.
 */
export async function executeDecision(
  deps: ExecuteDeps,
  decision: Decision,
  obs: Observation,
  d: Deadline,
  opts: { fresh?: boolean } = {},
): Promise<Executed> {
  const a = withNativeSelector(decision.action, obs);
  const fail = (call: DeviceCall, reads = 0, target?: Element): Executed => ({
    ok: false,
    receipt: call.receipt,
    error: call.ok ? undefined : `${call.code}: ${call.message}`,
    target,
    reads,
  });
  const aim = aimAt(a, obs);
  if (!aim.ok) return fail(refuse(d, aim.code, aim.message));
  let native: ActionRequest | undefined;
  if (isNativeTool(a.tool)) {
    const n = prepareNative(a, obs);
    if (!n.ok) return fail(n.call(d), 0, aim.element);
    native = n.req;
  }
  const ctx: InjectCtx = {
    device: deps.device,
    logger: deps.logger,
    pacer: deps.pacer,
    perceive: deps.perceive ?? defaultPerceiver,
  };
  const r = await injectChecked(ctx, a, obs, aim, native, d, { preRead: false, recheck: !opts.fresh });
  if (!r.ok) return fail(r.call, r.reads, aim.element);
  const call = r.out.call;
  return {
    ok: call.ok,
    receipt: call.receipt,
    error: call.ok ? undefined : `${call.code}: ${call.message}`,
    target: aim.element,
    pre: r.pre,
    value: r.out.value,
    reads: r.reads,
  };
}
