import { type Rect, rect, rectArea, rectIntersect, rectWithin } from '../core/geometry.js';
import { takesTouchesBelow } from '../core/modal.js';
import type { WindowInfo } from '../core/types.js';
import type { UiTree } from './tree.js';

/**
 * Which part of each node a person can actually see and touch: bounds clipped to the screen, to
 * the node's window and to its scrolling ancestors, minus what higher windows (dialog, keyboard,
 * status bar) cover and what a later-drawn clickable cover in the same window (a dialog's scrim, a
 * bottom sheet's outside area) swallows. `undefined` = dropped, with the reason counted.
 */

export type DropReason = 'invisible' | 'zero_area' | 'off_screen' | 'occluded';

export interface Visibility {
  /** Visible, touchable part per node index (largest uncovered piece), or undefined when dropped. */
  rects: (Rect | undefined)[];
  reasons: (DropReason | undefined)[];
}

/** `a` minus `b` as up to four rectangles. */
export function subtractRect(a: Rect, b: Rect): Rect[] {
  const i = rectIntersect(a, b);
  if (!i) return [a];
  const out: Rect[] = [];
  if (i.top > a.top) out.push(rect(a.left, a.top, a.right, i.top));
  if (i.bottom < a.bottom) out.push(rect(a.left, i.bottom, a.right, a.bottom));
  if (i.left > a.left) out.push(rect(a.left, i.top, i.left, i.bottom));
  if (i.right < a.right) out.push(rect(i.right, i.top, a.right, i.bottom));
  return out;
}

/** The largest piece of `r` not covered by any of `covers`, or undefined when fully covered. */
export function uncoveredPart(r: Rect, covers: readonly Rect[]): Rect | undefined {
  let pieces = [r];
  for (const c of covers) {
    if (!rectIntersect(r, c)) continue;
    pieces = pieces.flatMap((p) => subtractRect(p, c));
    if (pieces.length === 0) return undefined;
  }
  let best: Rect | undefined;
  for (const p of pieces) if (!best || rectArea(p) > rectArea(best)) best = p;
  // A sliver (< 1/8 of the node) left over is not something to act on.
  return best && rectArea(best) * 8 >= rectArea(r) ? best : undefined;
}

/**
 * What covers window `w`'s content: every higher window but toasts and overlays (they take no
 * touches); the keyboard and system bars cover the app. A dialog is modal: touches outside it never
 * reach the windows below, so it covers the whole screen for them.
 */
export function windowCovers(
  w: WindowInfo,
  windows: readonly WindowInfo[],
  screen: Rect,
): { window: WindowInfo; rect: Rect }[] {
  return windows
    .filter((o) => o.id !== w.id && o.layer > w.layer && o.type !== 'toast' && o.type !== 'overlay')
    .map((o) => ({ window: o, rect: takesTouchesBelow(o, w) ? screen : o.bounds }));
}

/**
 * The window that hides `r` (pixels, content of window `w`) on a screen with these `windows`, by the
 * rule perception drops occluded nodes with: undefined when a usable part of `r` still shows. The
 * topmost cover over `r` is named (a dialog, not the status bar beside it).
 */
export function hiddenUnder(
  r: Rect,
  w: WindowInfo,
  windows: readonly WindowInfo[],
  screen: Rect,
): WindowInfo | undefined {
  const covers = windowCovers(w, windows, screen);
  const rects = covers.map((c) => c.rect);
  if (uncoveredPart(r, rects)) return undefined;
  const over = covers.filter((c) => rectIntersect(r, c.rect)).sort((a, b) => b.window.layer - a.window.layer);
  return (over.find((c) => takesTouchesBelow(c.window, w)) ?? over[0])?.window;
}

const SCROLL_CLASS_RE = /RecyclerView|ListView|ScrollView|GridView|ViewPager/;

export function computeVisibility(tree: UiTree): Visibility {
  const { nodes } = tree;
  const screen = rect(0, 0, tree.screen.w, tree.screen.h);
  const rects: (Rect | undefined)[] = new Array(nodes.length);
  const reasons: (DropReason | undefined)[] = new Array(nodes.length);
  // Clip region inherited by descendants: window bounds ∩ screen ∩ scrolling ancestors.
  const clip: (Rect | undefined)[] = new Array(nodes.length);
  const hidden: boolean[] = new Array(nodes.length).fill(false);
  const windowById = new Map(tree.windows.map((w) => [w.id, w]));

  const coversByWindow = new Map<number, Rect[]>();
  for (const w of tree.windows)
    coversByWindow.set(
      w.id,
      windowCovers(w, tree.windows, screen).map((c) => c.rect),
    );

  for (const n of nodes) {
    const parentClip = n.parent >= 0 ? clip[n.parent] : undefined;
    let base: Rect | undefined;
    if (n.parent < 0) {
      const win = windowById.get(n.window);
      base = win ? rectIntersect(screen, win.bounds) : screen;
      if (win && !base) base = undefined;
    } else base = parentClip;
    const parentHidden = n.parent >= 0 && hidden[n.parent];
    if (parentHidden || !n.flags.visible) {
      hidden[n.idx] = true;
      reasons[n.idx] = 'invisible';
      clip[n.idx] = undefined;
      continue;
    }
    if (rectArea(n.boundsPx) === 0) {
      reasons[n.idx] = 'zero_area';
      clip[n.idx] = base;
      continue;
    }
    const vis = base ? rectIntersect(n.boundsPx, base) : undefined;
    clip[n.idx] = n.flags.scrollable || SCROLL_CLASS_RE.test(n.className) ? vis : base;
    if (!vis) {
      reasons[n.idx] = 'off_screen';
      continue;
    }
    rects[n.idx] = vis;
  }

  // Occlusion by higher windows.
  for (const n of nodes) {
    const r = rects[n.idx];
    if (!r) continue;
    const covers = coversByWindow.get(n.window);
    if (!covers || covers.length === 0) continue;
    const left = uncoveredPart(r, covers);
    if (!left) {
      rects[n.idx] = undefined;
      reasons[n.idx] = 'occluded';
    } else rects[n.idx] = left;
  }

  applyInWindowCovers(tree, rects, reasons);
  return { rects, reasons };
}

/**
 * A later-drawn clickable node that is not an ancestor and covers at least a quarter of its window
 * takes every touch on what lies fully beneath it (a dialog's dimmed backdrop, a sheet's outside).
 */
function applyInWindowCovers(tree: UiTree, rects: (Rect | undefined)[], reasons: (DropReason | undefined)[]): void {
  const { nodes } = tree;
  const screenArea = tree.screen.w * tree.screen.h;
  const coverIdx: number[] = [];
  for (const n of nodes) {
    const r = rects[n.idx];
    if (!r || !n.flags.clickable || n.text !== '' || n.children.length > 0) continue;
    if (rectArea(r) * 4 >= screenArea) coverIdx.push(n.idx);
  }
  if (coverIdx.length === 0) return;
  for (const ci of coverIdx) {
    const c = rects[ci];
    if (!c) continue;
    const cw = nodes[ci].window;
    for (let i = 0; i < nodes.length; i++) {
      const r = rects[i];
      if (!r || i === ci || nodes[i].window !== cw || isAncestor(tree, i, ci) || !drawnAfter(tree, ci, i)) continue;
      if (rectWithin(r, c)) {
        rects[i] = undefined;
        reasons[i] = 'occluded';
      }
    }
  }
}

/** Whether node `a` is drawn above node `b` (neither is the other's ancestor). */
export function drawnAfter(tree: UiTree, a: number, b: number): boolean {
  const { nodes } = tree;
  const pathA: number[] = [];
  for (let p = a; p >= 0; p = nodes[p].parent) pathA.push(p);
  const onA = new Set(pathA);
  let childB = b;
  let p = nodes[b].parent;
  while (p >= 0 && !onA.has(p)) {
    childB = p;
    p = nodes[p].parent;
  }
  if (p < 0) return a > b;
  const childA = pathA[pathA.indexOf(p) - 1];
  if (childA === undefined) return false;
  const oa = nodes[childA].drawingOrder;
  const ob = nodes[childB].drawingOrder;
  if (oa !== undefined && ob !== undefined && oa !== ob) return oa > ob;
  return childA > childB;
}

export function isAncestor(tree: UiTree, maybeAncestor: number, idx: number): boolean {
  let p = tree.nodes[idx].parent;
  while (p >= 0) {
    if (p === maybeAncestor) return true;
    p = tree.nodes[p].parent;
  }
  return false;
}
