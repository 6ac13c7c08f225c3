import type { ActionRequest, PinchRequest, TouchGestureRequest } from './actions.js';

/**
 * Screen-dependent checks and the single conversion of gesture coordinates to pixels. Points outside
 * the screen and fingers that touch or cross are rejected before any input — never clamped to the
 * edge — so a gesture is either dispatched as asked or not at all.
 */

export interface ScreenSize {
  width: number;
  height: number;
}

/** One finger's path in pixels, `t` in ms from the gesture start (the phone's `Stroke`). */
export interface PxStroke {
  points: { x: number; y: number; t: number }[];
}

export type GeometryCheck = { ok: true } | { ok: false; code: 'INVALID_ARGUMENT'; message: string };

type Space = 'normalized' | 'pixel';

/** Normalized 0..1000 → pixel; 1000 is the last pixel row/column (never one past the edge). */
export function toPx(p: { x: number; y: number }, space: Space, screen: ScreenSize): { x: number; y: number } {
  if (space === 'pixel') return { x: p.x, y: p.y };
  return {
    x: Math.min(screen.width - 1, Math.round((p.x / 1000) * screen.width)),
    y: Math.min(screen.height - 1, Math.round((p.y / 1000) * screen.height)),
  };
}

/** Two fingers closer than this merge into one touch on a real digitizer. */
export function minFingerSeparationPx(screen: ScreenSize): number {
  return Math.max(8, Math.round(0.02 * Math.min(screen.width, screen.height)));
}

function inside(p: { x: number; y: number }, s: ScreenSize): boolean {
  return p.x >= 0 && p.y >= 0 && p.x <= s.width - 1 && p.y <= s.height - 1;
}

function bad(message: string): GeometryCheck {
  return { ok: false, code: 'INVALID_ARGUMENT', message };
}

/** Smallest distance between two fingers moving linearly at the same time from a0→a1 and b0→b1. */
function minSegmentDistance(
  a0: { x: number; y: number },
  a1: { x: number; y: number },
  b0: { x: number; y: number },
  b1: { x: number; y: number },
): number {
  const dx0 = a0.x - b0.x;
  const dy0 = a0.y - b0.y;
  const vx = a1.x - a0.x - (b1.x - b0.x);
  const vy = a1.y - a0.y - (b1.y - b0.y);
  const vv = vx * vx + vy * vy;
  const t = vv === 0 ? 0 : Math.min(1, Math.max(0, -(dx0 * vx + dy0 * vy) / vv));
  return Math.hypot(dx0 + vx * t, dy0 + vy * t);
}

/** touch_gesture → one stroke per finger, in pixels. */
export function touchGestureStrokes(req: TouchGestureRequest, screen: ScreenSize): PxStroke[] {
  const fingers = req.frames[0]?.points.length ?? 0;
  const strokes: PxStroke[] = [];
  for (let i = 0; i < fingers; i++) {
    strokes.push({
      points: req.frames.map((f) => {
        const p = toPx(f.points[i] ?? { x: 0, y: 0 }, req.coord_space, screen);
        return { ...p, t: f.at_ms };
      }),
    });
  }
  return strokes;
}

/** pinch → two strokes, sampled every ~50 ms along the distance and rotation change. */
export function pinchStrokes(req: PinchRequest, screen: ScreenSize): PxStroke[] {
  const c = toPx({ x: req.x, y: req.y }, req.coord_space, screen);
  const unit = req.coord_space === 'normalized' ? Math.min(screen.width, screen.height) / 1000 : 1;
  const steps = Math.max(2, Math.min(32, Math.ceil(req.duration_ms / 50) + 1));
  const a: PxStroke = { points: [] };
  const b: PxStroke = { points: [] };
  for (let k = 0; k < steps; k++) {
    const f = k / (steps - 1);
    const d = (req.start_distance + (req.end_distance - req.start_distance) * f) * unit;
    const th = ((req.angle_degrees + req.rotation_degrees * f) * Math.PI) / 180;
    const ox = (Math.cos(th) * d) / 2;
    const oy = (Math.sin(th) * d) / 2;
    const t = Math.round(req.duration_ms * f);
    a.points.push({ x: Math.round(c.x + ox), y: Math.round(c.y + oy), t });
    b.points.push({ x: Math.round(c.x - ox), y: Math.round(c.y - oy), t });
  }
  return [a, b];
}

function checkStrokes(strokes: PxStroke[], screen: ScreenSize, what: string): GeometryCheck {
  for (const [i, s] of strokes.entries())
    for (const p of s.points)
      if (!inside(p, screen))
        return bad(
          `${what}: finger ${i} at (${p.x},${p.y}) px is outside the ${screen.width}x${screen.height} screen; nothing was dispatched`,
        );
  const sep = minFingerSeparationPx(screen);
  for (let i = 0; i < strokes.length; i++)
    for (let j = i + 1; j < strokes.length; j++) {
      const a = strokes[i]?.points ?? [];
      const b = strokes[j]?.points ?? [];
      for (let k = 0; k < a.length; k++) {
        const a0 = a[k];
        const b0 = b[k];
        if (!a0 || !b0) continue;
        const d = minSegmentDistance(a0, a[k + 1] ?? a0, b0, b[k + 1] ?? b0);
        if (d < sep)
          return bad(
            `${what}: fingers ${i} and ${j} come within ${d.toFixed(1)} px of each other (minimum ${sep} px) around ${a0.t} ms; touch points that merge or cross are rejected`,
          );
      }
    }
  return { ok: true };
}

/** The screen-dependent checks of one request (and of every member of a sequence). */
export function checkActionGeometry(req: ActionRequest, screen: ScreenSize): GeometryCheck {
  const pt = (p: { x: number; y: number }, space: Space, what: string): GeometryCheck => {
    const px = toPx(p, space, screen);
    return inside(px, screen)
      ? { ok: true }
      : bad(`${what}: (${p.x},${p.y}) is outside the ${screen.width}x${screen.height} screen; nothing was dispatched`);
  };
  switch (req.action) {
    case 'tap':
    case 'long_press':
      return pt(req, req.coord_space, req.action);
    case 'swipe': {
      const a = pt({ x: req.x1, y: req.y1 }, req.coord_space, 'swipe start');
      return a.ok ? pt({ x: req.x2, y: req.y2 }, req.coord_space, 'swipe end') : a;
    }
    case 'touch_gesture':
      return checkStrokes(touchGestureStrokes(req, screen), screen, 'touch_gesture');
    case 'pinch':
      return checkStrokes(pinchStrokes(req, screen), screen, 'pinch');
    case 'action_sequence':
      for (const [i, m] of req.actions.entries()) {
        const r = checkActionGeometry(m, screen);
        if (!r.ok) return bad(`actions[${i}]: ${r.message}`);
      }
      return { ok: true };
    default:
      return { ok: true };
  }
}
