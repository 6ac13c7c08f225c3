import { z } from 'zod';
import type { Action, Observation } from '../core/types.js';
import { nativeRequest } from '../executor/dispatch.js';
import type { Prepared } from '../executor/tool-spec.js';
import { FIELD } from '../planner/act-schema.js';
import type { ActArgs } from '../planner/tool-spec.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/**
 * Two fingers zoom what is drawn (a map, a photo). The planner's pinch (`scale` around a target or
 * point) → the helper protocol's pinch request: two fingers on the target's longer axis, as far
 * apart as fits inside it, start and end distance in the ratio asked for. A pinch that already
 * carries protocol fields (an MCP client's) is passed through unchanged.
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

/** How far one pinch may zoom: beyond 4× the fingers would not fit on the screen. */
export const PINCH_SCALE = { min: 0.25, max: 4 } as const;

/** A pinch needs where (target_id or point) and how much (`scale`, >1 zooms in); `value` is accepted as the scale. */
function checkScale(a: ActArgs): string | undefined {
  if (!a.target_id && !a.point) return 'pinch needs target_id (the map or image to zoom) or a point as its centre';
  const s = typeof a.scale === 'number' ? a.scale : typeof a.value === 'number' ? a.value : undefined;
  if (s === undefined) return `pinch needs scale (${PINCH_SCALE.min}..${PINCH_SCALE.max}; >1 zooms in, <1 zooms out)`;
  if (!Number.isFinite(s) || s < PINCH_SCALE.min || s > PINCH_SCALE.max || s === 1)
    return `pinch scale ${s} is out of range: use ${PINCH_SCALE.min}..${PINCH_SCALE.max}, not 1 (>1 zooms in, <1 zooms out); pinch again for more`;
  return undefined;
}

/** The protocol request of a pinch by `scale` (a skill zooming a timeline uses it too). */
export function pinchRequest(a: Action, obs: Observation): Prepared {
  const p = pinchArgs(a, obs);
  if (!p.ok) return { ok: false, code: 'INVALID_ARGUMENT', message: p.message };
  return nativeRequest({ ...a, tool: pinch.name }, obs, p.args);
}

/** A zoom by `scale` around an element: the request a skill sends. */
export function zoomRequest(targetId: string, scale: number, obs: Observation): Prepared {
  return pinchRequest({ tool: pinch.name, target_id: targetId, args: { scale } }, obs);
}

export const pinch: Tool = {
  name: 'pinch',
  help: says('pinch(target_id|point, scale=0.25..4, >1 zooms in)'),
  fields: { value: FIELD.number, scale: FIELD.number },
  needs: [['pinch']],
  offeredOn: (t) => t.drawn,
  drawn: true,
  parse: (a) => {
    const err = checkScale(a);
    if (err) return { ok: false, error: err };
    // The executor turns scale + centre into the protocol's finger distances (pinchArgs).
    return { ok: true, action: { args: { scale: typeof a.scale === 'number' ? a.scale : a.value } } };
  },
  fieldsOf: (a) => ({ scale: typeof a.args?.scale === 'number' ? a.args.scale : undefined }),
  prepare: pinchRequest,
  mcp: {
    title: 'Pinch',
    description:
      'Two-finger pinch/zoom (and rotation) around x,y; coord_space normalized (0..1000, distances per mille of the short side) or pixel; ≤ 10 s.',
    fields: {
      x: z.number(),
      y: z.number(),
      start_distance: z.number(),
      end_distance: z.number(),
      coord_space: z.enum(['normalized', 'pixel']).optional(),
      angle_degrees: z.number().optional(),
      rotation_degrees: z.number().optional(),
      duration_ms: z.number().int().optional(),
    },
  },
};
