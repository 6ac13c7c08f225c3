import { type Rect, rect } from '../core/geometry.js';

/**
 * Coordinate-space resolution at the perception boundary (DESIGN §3): find the full physical screen
 * the bounds are relative to, and a transform that maps the tree's bounds into it when the tree was
 * written in another space (scaled, or rotated relative to the given screen).
 */

export interface ScreenHint {
  w: number;
  h: number;
  rotation?: number;
}

export interface SpaceTransform {
  scaleX: number;
  scaleY: number;
}

export interface ResolvedSpace {
  w: number;
  h: number;
  transform: SpaceTransform;
  source: 'device' | 'given' | 'inferred';
  notes: string[];
}

const IDENTITY: SpaceTransform = { scaleX: 1, scaleY: 1 };

export function unionRect(rs: readonly Rect[]): Rect | undefined {
  if (rs.length === 0) return undefined;
  let l = Number.POSITIVE_INFINITY;
  let t = Number.POSITIVE_INFINITY;
  let r = Number.NEGATIVE_INFINITY;
  let b = Number.NEGATIVE_INFINITY;
  for (const x of rs) {
    l = Math.min(l, x.left);
    t = Math.min(t, x.top);
    r = Math.max(r, x.right);
    b = Math.max(b, x.bottom);
  }
  return rect(l, t, r, b);
}

/**
 * Infer the screen from window-root bounds when nobody told us its size. Full-screen roots give it
 * directly. A window dumped alone (a dialog) is assumed centred horizontally (w = left + right);
 * vertically it is a bottom sheet when it spans the full width (h = bottom), otherwise centred.
 */
export function inferScreen(roots: readonly Rect[]): { w: number; h: number; note?: string } | undefined {
  const u = unionRect(roots);
  if (!u || u.right <= 0 || u.bottom <= 0) return undefined;
  if (u.left <= 0 && u.top <= 0) return { w: u.right, h: u.bottom };
  const w = u.left > 0 ? u.left + u.right : u.right;
  const h = u.top > 0 && u.left > 0 ? u.top + u.bottom : u.bottom;
  return {
    w,
    h,
    note: `screen ${w}x${h} inferred from a window at [${u.left},${u.top}][${u.right},${u.bottom}] (dumped alone); pass the real screen size to be exact`,
  };
}

function near(a: number, b: number, tol = 0.02): boolean {
  return Math.abs(a - b) <= tol * Math.max(a, b);
}

/**
 * Resolve the screen and the bounds transform. `hint` comes from the device (or the caller); the
 * root bounds tell us whether the tree shares that space. A tree whose roots are all a uniform
 * scale of the screen (e.g. dumped at half resolution or in dp) is rescaled; a tree in the other
 * orientation is taken as the truth about orientation.
 */
export function resolveSpace(
  roots: readonly Rect[],
  hint: ScreenHint | undefined,
  hintSource: 'device' | 'given' = 'given',
): ResolvedSpace | undefined {
  const u = unionRect(roots);
  if (!hint) {
    const inferred = inferScreen(roots);
    if (!inferred) return undefined;
    return {
      w: inferred.w,
      h: inferred.h,
      transform: IDENTITY,
      source: 'inferred',
      notes: inferred.note ? [inferred.note] : [],
    };
  }
  const notes: string[] = [];
  let { w, h } = hint;
  if (!u) return { w, h, transform: IDENTITY, source: hintSource, notes };
  const startsAtOrigin = u.left <= 0 && u.top <= 0;
  // The tree is in the other orientation than the hint: trust the tree's orientation.
  if (startsAtOrigin && near(u.right, h) && near(u.bottom, w) && !near(w, h)) {
    notes.push(`tree is ${u.right}x${u.bottom} but the screen was given as ${w}x${h}: using the tree's orientation`);
    [w, h] = [h, w];
  }
  if (startsAtOrigin && (u.right > w * 1.02 || u.bottom > h * 1.02 || (u.right < w * 0.98 && u.bottom < h * 0.98))) {
    const sx = w / u.right;
    const sy = h / u.bottom;
    if (near(sx, sy, 0.03)) {
      notes.push(`tree bounds ${u.right}x${u.bottom} rescaled to the ${w}x${h} screen (x${sx.toFixed(3)})`);
      return { w, h, transform: { scaleX: sx, scaleY: sy }, source: hintSource, notes };
    }
  }
  if (u.right > w * 1.02 || u.bottom > h * 1.02) {
    notes.push(`tree bounds reach ${u.right}x${u.bottom}, beyond the ${w}x${h} screen: parts off-screen are dropped`);
  }
  return { w, h, transform: IDENTITY, source: hintSource, notes };
}

export function applyTransform(r: Rect, t: SpaceTransform): Rect {
  if (t.scaleX === 1 && t.scaleY === 1) return r;
  return rect(
    Math.round(r.left * t.scaleX),
    Math.round(r.top * t.scaleY),
    Math.round(r.right * t.scaleX),
    Math.round(r.bottom * t.scaleY),
  );
}
