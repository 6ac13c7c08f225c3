import { z } from 'zod';
import { nativeRequest } from '../executor/dispatch.js';
import { fullOf } from '../planner/act-schema.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** Raw fingers on what is drawn: 1–5 fingers through 2–32 keyframes (≤ 10 s), normalized 0..1000. */

const Point = z.object({ x: z.number(), y: z.number() });
export const FrameArg = z.object({ at_ms: z.number(), points: z.array(Point).min(1).max(5) });

/** Its `frames` field: a plain array of objects in the compact schema (the shape is in the tool line; the parser checks it). */
export const FRAMES_FIELD = {
  zod: z.array(FrameArg).optional(),
  json: { type: 'array', items: { type: 'object' } },
  full: fullOf(z.array(FrameArg)),
};

export const touchGesture: Tool = {
  name: 'touch_gesture',
  help: says('touch_gesture(frames=[{at_ms,points:[{x,y},…]},…]) raw fingers, first at_ms 0, one point per finger'),
  fields: { frames: FRAMES_FIELD },
  needs: [['touch_gesture']],
  offeredOn: (t) => t.drawn,
  drawn: true,
  gesture: true,
  member: true,
  parse: (f) => {
    const frames = f.frames as z.infer<typeof FrameArg>[] | undefined;
    if (!frames || frames.length < 2)
      return {
        ok: false,
        error: 'touch_gesture needs frames: [{at_ms:0, points:[{x,y}…]}, {at_ms:300, points:[…]}] (≥ 2, 0..1000)',
      };
    return { ok: true, action: { args: { coord_space: 'normalized', frames } } };
  },
  fieldsOf: (a) => ({ frames: { frames: Array.isArray(a.args?.frames) ? a.args.frames.length : 0 } }),
  asMember: (m) => ({ action: 'touch_gesture', ...m.args }),
  prepare: (a, obs) => nativeRequest(a, obs),
  mcp: {
    title: 'Multi-touch gesture',
    description:
      '1–5 fingers held and moved through 2–32 keyframes ({at_ms, points:[{x,y}]}, at_ms from 0, strictly increasing, same finger count); ≤ 10 s.',
    fields: {
      frames: z.array(z.record(z.string(), z.unknown())),
      coord_space: z.enum(['normalized', 'pixel']).optional(),
    },
  },
};
