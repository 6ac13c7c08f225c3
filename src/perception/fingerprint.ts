import { createHash } from 'node:crypto';
import type { Rect } from '../core/geometry.js';

/**
 * Element fingerprints and the page hash (DESIGN §3). Digits are stripped from text so "3 分钟前"
 * and "¥129.00" keep their identity; normalized bounds are rounded to 10 so 1–2 px of jitter does
 * not change it. A previous observation lets an element whose bounds crossed a rounding edge keep
 * its old id (see `stickyIds`).
 */

export function hash8(s: string): string {
  return createHash('md5').update(s).digest('hex').slice(0, 8);
}

const DIGITS_RE = /\p{Nd}+/gu;

export function stripDigits(s: string): string {
  return s.replace(DIGITS_RE, '');
}

export function roundTo10(n: number): number {
  return Math.round(n / 10) * 10;
}

export function boundsKey(b: Rect): string {
  return `${roundTo10(b.left)},${roundTo10(b.top)},${roundTo10(b.right)},${roundTo10(b.bottom)}`;
}

export interface FingerprintParts {
  resourceId: string;
  role: string;
  text: string;
  desc: string;
  /** Normalized 0..1000 bounds. */
  bounds: Rect;
}

/** Everything but the bounds: two elements with the same content key are "the same thing". */
export function contentKey(p: FingerprintParts): string {
  return `${p.resourceId}|${p.role}|${stripDigits(p.text)}|${stripDigits(p.desc)}`;
}

export function fingerprint(p: FingerprintParts): string {
  return hash8(`${contentKey(p)}|${boundsKey(p.bounds)}`);
}

/**
 * Colliding fingerprints get a stable ordinal suffix in document order: `a1b2c3d4`, `a1b2c3d4~1`,
 * `a1b2c3d4~2`. Identical rows keep their ids as long as their order on screen stays the same.
 */
export function assignOrdinals(fps: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return fps.map((fp) => {
    const k = seen.get(fp) ?? 0;
    seen.set(fp, k + 1);
    return k === 0 ? fp : `${fp}~${k}`;
  });
}

export interface PriorElement {
  id: string;
  contentKey: string;
  bounds: Rect;
}

/**
 * Keep ids stable across a rounding edge: when a fresh id is not in the previous observation but a
 * previous element with the same content key sits within `tol` normalized units on every edge
 * (≈ 5 px on a 1080-wide screen), reuse that id. Each previous id is used at most once.
 */
export function stickyIds(
  fresh: readonly { id: string; contentKey: string; bounds: Rect }[],
  previous: readonly PriorElement[],
  tol = 5,
): string[] {
  const prevIds = new Set(previous.map((p) => p.id));
  const freshIds = new Set(fresh.map((f) => f.id));
  const used = new Set<string>();
  return fresh.map((f) => {
    if (prevIds.has(f.id)) return f.id;
    for (const p of previous) {
      if (used.has(p.id) || freshIds.has(p.id) || p.contentKey !== f.contentKey) continue;
      const b = p.bounds;
      if (
        Math.abs(b.left - f.bounds.left) <= tol &&
        Math.abs(b.top - f.bounds.top) <= tol &&
        Math.abs(b.right - f.bounds.right) <= tol &&
        Math.abs(b.bottom - f.bounds.bottom) <= tol
      ) {
        used.add(p.id);
        return p.id;
      }
    }
    return f.id;
  });
}

/** hash(package, activity or title, sorted element fingerprints). */
export function pageHash(pkg: string, activityOrTitle: string, ids: readonly string[]): string {
  const sorted = [...ids].sort();
  return hash8(`${pkg}|${activityOrTitle}|${sorted.join(',')}`);
}
