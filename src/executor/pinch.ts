import type { Action, Observation } from '../core/types.js';
import { hammingDistance, SAME_FRAME_MAX_DISTANCE } from '../perception/frame.js';

/**
 * The planner's pinch (`scale` around a target or point) → the helper protocol's pinch request:
 * two fingers on the target's longer axis, as far apart as fits inside it, start and end distance in
 * the ratio asked for. A pinch that already carries protocol fields is passed through unchanged.
 */

export type PinchArgs = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

const DURATION_MS = 400;
/** Share of the target's extent the spread fingers may use (margins to its edges). */
const SPREAD = 0.8;
/** Closer than this (per mille of the short side) a real digitizer merges the two touches. */
const MIN_DISTANCE = 40;

export function pinchArgs(a: Action, obs: Observation): PinchArgs {
  const scale = a.args?.scale;
  if (scale === undefined) return { ok: true, args: a.args ?? {} };
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0 || scale === 1)
    return { ok: false, message: `pinch scale must be a number > 0 and ≠ 1 (got ${String(scale)})` };
  const W = obs.screen.w;
  const H = obs.screen.h;
  const el = a.target_id ? obs.elements.find((e) => e.id === a.target_id) : undefined;
  if (a.target_id && !el) return { ok: false, message: `pinch target ${a.target_id} is not on the screen` };
  const box = el?.bounds ?? { left: 0, top: 0, right: 1000, bottom: 1000 };
  const c = el
    ? { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 }
    : a.point
      ? { x: a.point.x, y: a.point.y }
      : undefined;
  if (!c) return { ok: false, message: 'pinch needs target_id or a point' };
  // Room on each axis: twice the distance from the centre to the nearer edge of the target, in px.
  const roomX = (2 * Math.min(c.x - box.left, box.right - c.x) * W) / 1000;
  const roomY = (2 * Math.min(c.y - box.top, box.bottom - c.y) * H) / 1000;
  const vertical = roomY > roomX;
  const unit = Math.min(W, H) / 1000;
  const wide = Math.floor((SPREAD * Math.max(roomX, roomY)) / unit);
  const narrow = scale > 1 ? wide / scale : wide * scale;
  if (narrow < MIN_DISTANCE)
    return {
      ok: false,
      message: `the target is too small to pinch by ${scale} (fingers would touch); use a scale closer to 1 and pinch again`,
    };
  const [start, end] = scale > 1 ? [narrow, wide] : [wide, narrow];
  return {
    ok: true,
    args: {
      coord_space: 'normalized',
      x: Math.round(c.x),
      y: Math.round(c.y),
      start_distance: Math.round(start),
      end_distance: Math.round(end),
      angle_degrees: vertical ? 90 : 0,
      duration_ms: DURATION_MS,
    },
  };
}

const TOUCHES = new Set(['tap', 'long_press', 'swipe', 'touch_gesture']);

/**
 * Whether the executor captures frames around an action: for an expectation only a screenshot can
 * confirm, and for a touch on a screen with a slider whose value the tree does not carry (a
 * uiautomator dump has no progress) — there the frame is the evidence of what the touch did, and
 * "nothing changed" must never be said while its picture moved.
 */
export function needsFrames(kind: string, action?: Pick<Action, 'tool'>, obs?: Observation): boolean {
  if (kind === 'frame_changes') return true;
  if (!action || !obs || !TOUCHES.has(action.tool)) return false;
  return obs.elements.some((e) => e.role === 'SeekBar' && (!e.range || e.range.fromFrame === true));
}

/** Blockhash distance of two frames, or undefined when either side has none. */
export function frameDistance(pre: Observation, post: Observation): number | undefined {
  if (!pre.frameHash || !post.frameHash) return undefined;
  return hammingDistance(pre.frameHash, post.frameHash);
}

/** Whether the frame moved beyond capture noise (a caret blink, anti-aliasing). */
export function frameChanged(pre: Observation, post: Observation): boolean | undefined {
  const d = frameDistance(pre, post);
  return d === undefined ? undefined : d > SAME_FRAME_MAX_DISTANCE;
}
