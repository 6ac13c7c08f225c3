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
  return placeId(contentKey(p), p.bounds);
}

/** The positional fingerprint of a content key at some bounds: "this thing, here". */
export function placeId(key: string, bounds: Rect): string {
  return hash8(`${key}|${boundsKey(bounds)}`);
}

export interface KeyedItem {
  /** The content key (contentKey). */
  key: string;
  /** The text that went into the key. */
  text: string;
  /** An actionable element without text of its own (an icon, named by its description at most). */
  icon: boolean;
  window: number;
  bounds: Rect;
}

/**
 * Content keys with row context: an icon without text of its own (the "⋮" of a file row) is told
 * apart by the text of its row — the smallest text element in its window whose vertical span holds
 * the icon's centre — so its id follows its row's content, not its position, and the same id never
 * names another row's menu: not when rows repeat, and not when a search leaves one row where
 * another row's menu was.
 */
export function keysWithRowContext(items: readonly KeyedItem[]): string[] {
  return items.map((it) => {
    if (!it.icon) return it.key;
    const cy = (it.bounds.top + it.bounds.bottom) / 2;
    let best: KeyedItem | undefined;
    let bestArea = Number.POSITIVE_INFINITY;
    for (const o of items) {
      if (o === it || o.icon || !o.text || o.window !== it.window || o.bounds.top > cy || o.bounds.bottom < cy)
        continue;
      const area = (o.bounds.right - o.bounds.left) * (o.bounds.bottom - o.bounds.top);
      if (area < bestArea) {
        best = o;
        bestArea = area;
      }
    }
    return best ? `${it.key}|row:${stripDigits(best.text)}` : it.key;
  });
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
  /** Its positional fingerprint (the id before content carried it over); the id when absent. */
  place?: string;
  contentKey: string;
  bounds: Rect;
  /** A control's resource id and class (`identityKey`), and its label: what `carryIds` falls back on. */
  ident?: string;
  label?: string;
}

/**
 * A control's identity apart from its words: its resource id and class (none without an id). Where
 * it is unique on two screens, the words may still differ by what the edge cut off: a settings row
 * cut at the list's bottom shows "Snooze time", in view "Snooze time — 10 minutes"; a floating button
 * keyed by the list row behind it (its row context) changes key with every scroll.
 */
export function identityKey(e: { actionable: boolean; resourceId: string; role: string }): string | undefined {
  return e.actionable && e.resourceId ? `${e.resourceId}|${e.role}` : undefined;
}

/**
 * Two labels of one control, one cut short of the other: its value cut off at the bottom edge, its
 * title at the top ("Medium" of "Font size — Medium"), a truncation's "…".
 */
function sameWords(a = '', b = ''): boolean {
  const x = a.replace(/…$/, '');
  const y = b.replace(/…$/, '');
  const [long, short] = x.length >= y.length ? [x, y] : [y, x];
  return long.startsWith(short) || long.endsWith(short);
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

/**
 * Ids that follow content (DESIGN §4): an element keeps its previous id when it sits where it was
 * (same place, same content), or when its content key is unique on both screens — the same row
 * after a scroll, a button pushed up by the keyboard — or when its resource id and class are unique on
 * both screens and its label there is the same or cut short (`identityKey`). Anything else gets its own id: its place, or
 * for a control named only by text clipped off screen (a row cut off by the list's edge) the place
 * with that text (`own`), so two cut-off rows in the same sliver never share an id, whichever screens
 * lie between them. Anything ambiguous (identical rows) keeps its own id, and no id is given twice.
 */
export function carryIds(
  fresh: readonly { place: string; own?: string; contentKey: string; ident?: string; label?: string }[],
  previous: readonly PriorElement[],
): string[] {
  const byPlace = new Map(previous.map((p) => [p.place ?? p.id, p]));
  const count = <T>(xs: readonly T[], f: (x: T) => string) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(f(x), (m.get(f(x)) ?? 0) + 1);
    return m;
  };
  const freshCount = count(fresh, (f) => f.contentKey);
  const prevCount = count(previous, (p) => p.contentKey);
  const prevByKey = new Map(previous.map((p) => [p.contentKey, p]));
  const freshIdents = count(fresh, (f) => f.ident ?? '');
  const prevIdents = count(previous, (p) => p.ident ?? '');
  const prevByIdent = new Map(previous.map((p) => [p.ident ?? '', p]));
  const ownOf = (f: (typeof fresh)[number]) => f.own ?? f.place;
  const used = new Set<string>();
  const wanted = fresh.map((f) => {
    const here = byPlace.get(f.place);
    if (here && here.contentKey === f.contentKey) return here.id;
    if (freshCount.get(f.contentKey) === 1 && prevCount.get(f.contentKey) === 1)
      return prevByKey.get(f.contentKey)?.id ?? ownOf(f);
    // The same control by its resource id and class, unique on both screens, its words cut or not.
    const same = f.ident && freshIdents.get(f.ident) === 1 && prevIdents.get(f.ident) === 1;
    const p = same ? prevByIdent.get(f.ident ?? '') : undefined;
    if (p && sameWords(p.label, f.label)) return p.id;
    return ownOf(f);
  });
  // Claimed ids first, so an element that moved never steals from one that stayed.
  const out: string[] = new Array(fresh.length);
  for (const [i, w] of wanted.entries())
    if (!used.has(w) && w !== ownOf(fresh[i] as (typeof fresh)[number])) {
      out[i] = w;
      used.add(w);
    }
  for (const [i, f] of fresh.entries()) {
    if (out[i] !== undefined) continue;
    const own = ownOf(f);
    let id = used.has(wanted[i] ?? own) ? own : (wanted[i] ?? own);
    for (let k = 1; used.has(id); k++) id = `${own.split('~')[0]}~${k}`;
    out[i] = id;
    used.add(id);
  }
  return out;
}

/** The own id of a control named by clipped text: its place salted with the content that names it. */
export function clippedOwnId(place: string, carryKey: string): string {
  return hash8(`${place}|${carryKey}`);
}

/** hash(package, activity or title, sorted element fingerprints). */
export function pageHash(pkg: string, activityOrTitle: string, ids: readonly string[]): string {
  const sorted = [...ids].sort();
  return hash8(`${pkg}|${activityOrTitle}|${sorted.join(',')}`);
}
