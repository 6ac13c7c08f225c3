/**
 * Coordinates (DESIGN §3): inside the program every position is normalized — integers 0..1000 on both
 * axes over the full physical screen, origin top-left. Pixels appear only at the boundaries: perception
 * normalizes once, dispatch converts back once.
 */

export const NORM = 1000;

export interface Size {
  width: number;
  height: number;
}

/** A point; `NPoint` values are normalized 0..1000, `PxPoint` values are pixels. */
export interface Point {
  x: number;
  y: number;
}
export type NPoint = Point;
export type PxPoint = Point;

/** Half-open rectangle [left, right) × [top, bottom), like Android's Rect. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function rect(left: number, top: number, right: number, bottom: number): Rect {
  return { left, top, right, bottom };
}

export function rectWidth(r: Rect): number {
  return Math.max(0, r.right - r.left);
}

export function rectHeight(r: Rect): number {
  return Math.max(0, r.bottom - r.top);
}

export function rectArea(r: Rect): number {
  return rectWidth(r) * rectHeight(r);
}

export function rectCenter(r: Rect): Point {
  return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
}

/** Whether `inner` lies wholly inside `outer` (edges may touch). */
export function rectWithin(inner: Rect, outer: Rect): boolean {
  return (
    inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom
  );
}

export function rectContains(r: Rect, p: Point): boolean {
  return p.x >= r.left && p.x < r.right && p.y >= r.top && p.y < r.bottom;
}

export function rectIntersect(a: Rect, b: Rect): Rect | undefined {
  const r = rect(
    Math.max(a.left, b.left),
    Math.max(a.top, b.top),
    Math.min(a.right, b.right),
    Math.min(a.bottom, b.bottom),
  );
  return r.right > r.left && r.bottom > r.top ? r : undefined;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Pixel → normalized. The single rounding on the way in. */
export function pxToNorm(p: PxPoint, screen: Size): NPoint {
  return {
    x: clampNorm(Math.round((p.x / screen.width) * NORM)),
    y: clampNorm(Math.round((p.y / screen.height) * NORM)),
  };
}

/** Normalized → pixel, `round(n/1000*w)`: the single rounding at dispatch. */
export function normToPx(p: NPoint, screen: Size): PxPoint {
  return { x: Math.round((p.x / NORM) * screen.width), y: Math.round((p.y / NORM) * screen.height) };
}

export function rectPxToNorm(r: Rect, screen: Size): Rect {
  const a = pxToNorm({ x: r.left, y: r.top }, screen);
  const b = pxToNorm({ x: r.right, y: r.bottom }, screen);
  return rect(a.x, a.y, b.x, b.y);
}

function clampNorm(n: number): number {
  return Math.min(NORM, Math.max(0, n));
}

/** Width / height rounded to two decimals, as the LLM sees it (0.45 for 1080×2400). */
export function aspectRatio(screen: Size): number {
  return Math.round((screen.width / screen.height) * 100) / 100;
}

/** `bounds="[x1,y1][x2,y2]"` as uiautomator writes it. */
export function formatBounds(r: Rect): string {
  return `[${r.left},${r.top}][${r.right},${r.bottom}]`;
}

const BOUNDS_RE = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

export function parseBounds(s: string): Rect | undefined {
  const m = BOUNDS_RE.exec(s.trim());
  if (!m) return undefined;
  return rect(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]));
}
