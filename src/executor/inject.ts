import type { Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Action, Observation } from '../core/types.js';
import type { Device, DeviceCall } from '../device/device.js';
import { guardFor, guardForNode, type TouchGuard } from '../device/protocol/guard.js';
import type { ActionRequest, WireSnapshot } from '../device/protocol/index.js';
import { type Dispatched, dispatch, refuse } from './dispatch.js';
import { observeDevice, type Perceiver } from './observe.js';
import type { Pacer } from './pacing.js';
import { occludingWindow, recheckTarget } from './recheck.js';
import type { Aim } from './targets.js';
import type { ExecutorToolSpec, ToolTable } from './tool-spec.js';

/**
 * The executor's injection step:
 * one fresh read right before injecting (pre evidence + the target's re-check: moved > 20 px or
 * gone → STALE, covered → OCCLUDED), then the dispatch under the caller's deadline. On a helper
 * with `guarded_touch` the touch carries the re-check to the phone instead (the same rule, checked
 * where nothing can change between check and touch), so the read is made only when pre evidence
 * is wanted (full verification, and light for an expectation that compares the screens:
 * ./verify.ts `comparesScreens`); over ADB the read stays.
 */

export interface InjectCtx {
  device: Device;
  logger: Logger;
  pacer: Pacer;
  perceive: Perceiver;
  /** The action's tool: whether it is a touch to re-check, and its dispatch. */
  spec: ExecutorToolSpec;
  tools: ToolTable;
}

export type Injected =
  /** `seen`: the re-check read, when one was made: the screen as it is now (a banner came, the target moved). */
  | { ok: false; call: DeviceCall; reads: number; seen?: Observation }
  | { ok: true; out: Dispatched; pre: Observation; reads: number };

/**
 * Where to touch the target as the re-check found it: its centre for a touch aimed at the element
 * (an id, a snap), or the same offset inside it for a point the model placed there (a value on a
 * slider's track must not become the track's middle).
 */
export function followTarget(
  px: { x: number; y: number },
  was: { boundsPx: { left: number; top: number; right: number; bottom: number } },
  now: { left: number; top: number; right: number; bottom: number },
  keepOffset: boolean,
): { x: number; y: number } {
  if (!keepOffset) return { x: Math.round((now.left + now.right) / 2), y: Math.round((now.top + now.bottom) / 2) };
  return { x: Math.round(px.x + now.left - was.boundsPx.left), y: Math.round(px.y + now.top - was.boundsPx.top) };
}

type InjectOpts = { preRead: boolean; recheck: boolean; frames?: boolean; evidence: boolean };

export async function injectChecked(
  ctx: InjectCtx,
  a: Action,
  obs: Observation,
  aim: Extract<Aim, { ok: true }>,
  native: ActionRequest | undefined,
  d: Deadline,
  /**
   * `frames`: capture the screenshot too (an expectation only pixels can confirm). `evidence`: the
   * verification compares against the screen as it was right before the touch, so a re-check is a
   * read even where the phone also checks the guard.
   */
  opts: InjectOpts,
): Promise<Injected> {
  const checked = await checkBefore(ctx, obs, aim, d, opts);
  if (!checked.ok) return checked;
  let { reads } = checked;
  const { pre, px, guard } = checked;
  const read = async (dl: Deadline): Promise<WireSnapshot | undefined> => {
    reads++;
    const r = await ctx.device.snapshot({}, dl);
    return r.ok ? r.snapshot : undefined;
  };
  const out = await dispatch(
    { device: ctx.device, tools: ctx.tools, logger: ctx.logger, pacer: ctx.pacer, obs, read },
    ctx.spec,
    a,
    { element: aim.element, px, guard },
    native,
    d,
  );
  const code = out.call.ok ? undefined : out.call.code;
  if (guard && (code === 'STALE' || code === 'OCCLUDED'))
    ctx.logger.warn('the phone refused a guarded touch', { code, tool: a.tool });
  return { ok: true, out, pre, reads };
}

type Checked =
  | Extract<Injected, { ok: false }>
  | { ok: true; pre: Observation; px?: { x: number; y: number }; guard?: TouchGuard; reads: number };

/**
 * The re-check before the input: the fresh read (when wanted) on which the target must be where it
 * was and uncovered, the touch point following it; or, on this executor's own fresh read, only the
 * windows that may cover it. The guard the phone checks is built from the node just read.
 */
async function checkBefore(
  ctx: InjectCtx,
  obs: Observation,
  aim: Extract<Aim, { ok: true }>,
  d: Deadline,
  opts: InjectOpts,
): Promise<Checked> {
  let px = aim.px;
  // Only touches aimed at an element's position can land on the wrong spot; reads, text and native
  // control actions (re-resolved by selector on the phone) have nothing to re-check here.
  const touch = !!aim.element && !!ctx.spec.touch;
  // A helper with `guarded_touch` checks the target itself at the instant it touches (PROTOCOL §7):
  // every such touch carries the guard, and the re-check read is made only for pre evidence.
  const onPhone = touch && ctx.device.capabilities().ops.has('guarded_touch');
  let guard: TouchGuard | undefined = onPhone && aim.element ? guardFor(aim.element) : undefined;
  const recheck = opts.recheck && touch;
  const covered = (
    p: { x: number; y: number },
    node: Parameters<typeof occludingWindow>[1],
    on: Parameters<typeof occludingWindow>[2],
  ) => {
    const occ = occludingWindow(p, node, on);
    return occ ? refuse(d, 'OCCLUDED', `the touch point is covered by a ${occ}; close it or re-observe`) : undefined;
  };
  if (!(opts.preRead || (recheck && (!onPhone || opts.evidence)))) {
    // The observation is a fresh read of this executor's own: its windows still show what covers the target.
    const occ = aim.element && px && !guard ? covered(px, aim.element, obs) : undefined;
    return occ ? { ok: false, reads: 0, call: occ } : { ok: true, pre: obs, px, guard, reads: 0 };
  }
  const p = await observeDevice(ctx.device, ctx.perceive, obs, d, { screenshot: opts.frames });
  if (!p.ok) {
    const why = `could not re-read the screen right before injecting (${p.message}); observe again`;
    return { ok: false, reads: 1, call: refuse(d, 'READ_FAILED', why) };
  }
  if (recheck && aim.element) {
    const rc = recheckTarget(aim.element, p.snap);
    if (!rc.ok) {
      ctx.logger.warn('pre-injection re-check failed', { code: rc.code, moved: rc.movedPx });
      return { ok: false, reads: 1, seen: p.obs, call: refuse(d, rc.code, rc.message) };
    }
    const occ = px ? covered(px, rc.node, p.snap) : undefined;
    if (occ) return { ok: false, reads: 1, seen: p.obs, call: occ };
    if (px && aim.how !== 'raw') px = followTarget(px, aim.element, rc.node.bounds, aim.how === 'inside');
    // The phone then checks that nothing moved since this read.
    if (guard) guard = guardForNode(rc.node);
  }
  // The read may have failed over to adb, which cannot check a guard: this read's re-check stands.
  if (guard && !ctx.device.capabilities().ops.has('guarded_touch')) guard = undefined;
  return { ok: true, pre: p.obs, px, guard, reads: 1 };
}
