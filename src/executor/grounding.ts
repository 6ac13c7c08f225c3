import { distance, normToPx, type PxPoint, type Rect, rectCenter, rectContains } from '../core/geometry.js';
import type { Action, Element, ErrorCode, Observation } from '../core/types.js';
import { isDrawnSurface } from '../perception/quality.js';

/**
 * Grounding (DESIGN §5): a live `target_id` → that element's centre, unless a point inside that
 * element is given too: then the point (a slider's track, a spot on a map). Otherwise the model's
 * point: kept where it falls inside an actionable element, a range control or a drawn surface
 * (the point is what the model means there), else snapped to the nearest actionable element within
 * 6% of the screen width — except when the snap would move the touch into a different button of a
 * paired row (Cancel / Confirm): then keep the raw point and require a confirmation, because a
 * wrong snap there is the dangerous kind. A kept point keeps its offset inside its element when the
 * re-check finds the element moved (executor/inject.ts).
 */

export const SNAP_RADIUS_FRACTION = 0.06;

export type Grounding =
  | {
      ok: true;
      px: PxPoint;
      element?: Element;
      how: 'target_id' | 'snapped' | 'inside' | 'raw';
      /** Set when the point sits at a paired-button row and was deliberately not snapped. */
      needsConfirmation?: string;
    }
  | { ok: false; code: ErrorCode; message: string };

/** Distance from a point to a rectangle (0 inside). */
export function distanceToRect(p: PxPoint, r: Rect): number {
  const dx = Math.max(r.left - p.x, 0, p.x - r.right);
  const dy = Math.max(r.top - p.y, 0, p.y - r.bottom);
  return Math.hypot(dx, dy);
}

export function elementCenterPx(e: Element): PxPoint {
  const c = rectCenter(e.boundsPx);
  return { x: Math.round(c.x), y: Math.round(c.y) };
}

function overlapY(a: Rect, b: Rect): number {
  const o = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return o / Math.max(1, Math.min(a.bottom - a.top, b.bottom - b.top));
}

/** The other buttons sharing a row with `e`: same window, ≥ 60% vertical overlap, similar height. */
export function rowPartners(e: Element, elements: readonly Element[]): Element[] {
  const h = e.boundsPx.bottom - e.boundsPx.top;
  return elements.filter((o) => {
    if (o === e || !o.actionable || o.window !== e.window) return false;
    const oh = o.boundsPx.bottom - o.boundsPx.top;
    if (Math.abs(oh - h) > 0.5 * Math.max(h, oh)) return false;
    if (overlapY(e.boundsPx, o.boundsPx) < 0.6) return false;
    // Side by side, not nested.
    return o.boundsPx.right <= e.boundsPx.left + 2 || o.boundsPx.left >= e.boundsPx.right - 2;
  });
}

/** A paired-button row: two or three buttons side by side (Cancel / OK, 取消 / 确认). */
export function inPairedRow(e: Element, elements: readonly Element[]): boolean {
  if (!/button/i.test(e.role) && !/button/i.test(e.className)) return false;
  const partners = rowPartners(e, elements).filter((o) => /button/i.test(o.role) || /button/i.test(o.className));
  return partners.length >= 1 && partners.length <= 2;
}

function smallestContaining(p: PxPoint, elements: readonly Element[]): Element | undefined {
  let best: Element | undefined;
  let bestArea = Number.POSITIVE_INFINITY;
  for (const e of elements) {
    if (!e.actionable || !rectContains(e.boundsPx, p)) continue;
    const a = (e.boundsPx.right - e.boundsPx.left) * (e.boundsPx.bottom - e.boundsPx.top);
    if (a < bestArea) {
      best = e;
      bestArea = a;
    }
  }
  return best;
}

/** A point on these lands where it is: its position is the input (a value on a track, a place on a canvas). */
function positional(e: Element): boolean {
  return e.role === 'SeekBar' || e.range !== undefined || isDrawnSurface(e.className);
}

export function groundPoint(pointNorm: { x: number; y: number }, obs: Observation): Grounding {
  const screen = { width: obs.screen.w, height: obs.screen.h };
  if (pointNorm.x < 0 || pointNorm.x > 1000 || pointNorm.y < 0 || pointNorm.y > 1000)
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `point (${pointNorm.x},${pointNorm.y}) is outside the 0..1000 normalized screen; use normalized coordinates`,
    };
  const raw = normToPx(pointNorm, screen);
  const inside = smallestContaining(raw, obs.elements);
  if (inside) return { ok: true, px: raw, element: inside, how: 'inside' };
  const surface = obs.elements.find((e) => positional(e) && rectContains(e.boundsPx, raw));
  if (surface) return { ok: true, px: raw, element: surface, how: 'inside' };
  const radius = obs.screen.w * SNAP_RADIUS_FRACTION;
  let nearest: Element | undefined;
  let nearestD = Number.POSITIVE_INFINITY;
  for (const e of obs.elements) {
    if (!e.actionable || !e.flags.enabled) continue;
    const d = distanceToRect(raw, e.boundsPx);
    if (d <= radius && (d < nearestD || (d === nearestD && nearest && e.id < nearest.id))) {
      nearest = e;
      nearestD = d;
    }
  }
  if (!nearest) return { ok: true, px: raw, how: 'raw' };
  if (inPairedRow(nearest, obs.elements))
    return {
      ok: true,
      px: raw,
      how: 'raw',
      needsConfirmation: `the point (${pointNorm.x},${pointNorm.y}) is next to "${nearest.text || nearest.desc}" in a paired-button row; not snapping — confirm which button is meant`,
    };
  return { ok: true, px: elementCenterPx(nearest), element: nearest, how: 'snapped' };
}

/** Ground a tap-like action against the observation it was decided on. */
export function ground(action: Pick<Action, 'target_id' | 'point'>, obs: Observation): Grounding {
  if (action.target_id !== undefined) {
    const e = obs.elements.find((x) => x.id === action.target_id);
    if (e && action.point) {
      const p = normToPx(action.point, { width: obs.screen.w, height: obs.screen.h });
      if (rectContains(e.boundsPx, p)) return { ok: true, px: p, element: e, how: 'inside' };
    }
    if (e) return { ok: true, px: elementCenterPx(e), element: e, how: 'target_id' };
    if (!action.point)
      return {
        ok: false,
        code: 'NOT_FOUND',
        message: `element ${action.target_id} is not on the current page; re-read the page and pick a listed id`,
      };
  }
  if (action.point) return groundPoint(action.point, obs);
  return { ok: false, code: 'INVALID_ARGUMENT', message: 'the action needs a target_id or a point' };
}

/** Whether two pixel points are within `px` of each other. */
export function near(a: PxPoint, b: PxPoint, px: number): boolean {
  return distance(a, b) <= px;
}
