import type { Stroke } from './surface.js';

/**
 * The one-finger strokes a phone's `tap` and `swipe` inject (as `input tap` / `input swipe` do): a
 * press held `durationMs` in place, and a straight line sampled at five points. Shared by the
 * virtual phone and the replay phone, which both take every touch as strokes.
 */

export function tapStroke(x: number, y: number, durationMs: number): Stroke {
  const d = Math.max(0, durationMs);
  return {
    points: [
      { x, y, t: 0 },
      { x, y, t: d },
    ],
  };
}

export function swipeStroke(x1: number, y1: number, x2: number, y2: number, durationMs: number): Stroke {
  const d = Math.max(1, durationMs);
  return {
    points: [0, 0.25, 0.5, 0.75, 1].map((f) => ({
      x: Math.round(x1 + (x2 - x1) * f),
      y: Math.round(y1 + (y2 - y1) * f),
      t: Math.round(d * f),
    })),
  };
}
