import { aspectRatio } from '../core/geometry.js';
import type { Element, Observation } from '../core/types.js';
import { isRowIcon } from './element-ids.js';
import { fingerprintText } from './element-text.js';
import { type ExtractResult, extractElements } from './elements.js';
import { contentKey, identityKey, keysWithRowContext, type PriorElement, pageHash } from './fingerprint.js';
import { type PageKey, treeQuality, type VisualFirstRegistry } from './quality.js';
import type { UiTree } from './tree.js';

/**
 * UiTree → Observation without the screenshot channel (synchronous and pure). `perceive` in
 * ./perceive.ts adds the frame hash, the status-bar correction and the tree↔screenshot check.
 */

export interface TreeObserveOptions {
  /** The previous observation, to keep ids stable across rounding edges. */
  previous?: Observation;
  /** Pages known to be visual-first; read, and updated with this page's judgement. */
  registry?: VisualFirstRegistry;
  seq?: number;
  takenAt?: number;
}

export interface TreeObservation {
  observation: Observation;
  extract: ExtractResult;
}

const TITLE_RID_RE =
  /(^|[_/])(toolbar_title|action_bar_title|title_bar_title|title|header_title|page_title|nav_title)$/i;

/** A toolbar by its id, where the dump names only a generic class (DroidBot: `ViewGroup` #action_bar). */
const TOOLBAR_RID_RE = /(^|[_/])(toolbar|action_bar|actionbar|app_bar|appbar|main_toolbar)$/i;

/**
 * The page title: the focused window's title, else a title node near the top, else a toolbar's
 * text. A title inside a tappable row is an item's (a popup menu's rows are `android:id/title`),
 * not the page's.
 */
export function inferTitle(tree: UiTree, elements: readonly Element[]): string {
  // The page is the application's: a dialog on top does not rename it.
  const apps = tree.windows.filter((w) => w.type === 'application' && w.title);
  if (tree.source === 'wire' && apps.length > 0) return apps[apps.length - 1].title;
  const topLimit = 200; // normalized: the top fifth of the screen
  for (const e of elements) {
    if (e.actionable || !e.text || e.bounds.top > topLimit || e.actionableAncestorId) continue;
    if (TITLE_RID_RE.test(e.resourceId)) return e.text;
  }
  for (const n of tree.nodes) {
    if (!/Toolbar|ActionBar/.test(n.className) && !TOOLBAR_RID_RE.test(n.resourceId)) continue;
    for (const c of n.children) {
      const t = tree.nodes[c].text.trim();
      if (t && /TextView/.test(tree.nodes[c].className)) return t;
    }
  }
  return '';
}

export function priorElements(o: Observation | undefined): PriorElement[] {
  if (!o) return [];
  const base = o.elements.map((e) => {
    const text = fingerprintText({
      actionable: e.actionable,
      editable: e.flags.editable,
      text: e.text,
      label: e.label,
    });
    const key = contentKey({ resourceId: e.resourceId, role: e.role, text, desc: e.desc, bounds: e.bounds });
    const icon = isRowIcon({
      actionable: e.actionable,
      editable: e.flags.editable,
      scrollable: e.flags.scrollable,
      text: e.text,
      desc: e.desc,
      label: e.label,
      labelFromId: e.labelFromId,
    });
    return { key, text, icon, window: e.window, bounds: e.bounds };
  });
  // The same row context as on extraction, so an icon's key matches across screens.
  const keys = keysWithRowContext(base);
  return o.elements.map((e, i) => {
    const ident = identityKey(e);
    return {
      id: e.id,
      ...(e.place ? { place: e.place } : {}),
      bounds: e.bounds,
      contentKey: keys[i] ?? '',
      ...(ident ? { ident, label: e.label ?? '' } : {}),
    };
  });
}

export function observeTree(tree: UiTree, opts: TreeObserveOptions = {}): TreeObservation {
  const extract = extractElements(tree, priorElements(opts.previous));
  const { elements } = extract;
  // The clock, battery and signal of the system bars are noise on every step: they stay in
  // `elements` (as labels) but not on the text summary.
  const barWindows = new Set(
    tree.windows.filter((w) => w.type === 'status_bar' || w.type === 'navigation_bar').map((w) => w.id),
  );
  const texts = barWindows.size === 0 ? extract.texts : textsOutside(extract, barWindows);
  const pkg = tree.foreground?.package ?? '';
  const activity = tree.foreground?.activity ?? '';
  const title = inferTitle(tree, elements);
  const q = treeQuality(tree, elements);
  const key: PageKey = { package: pkg, activity, title };
  const remembered = opts.registry?.isVisualFirst(key) ?? false;
  opts.registry?.record(key, q.quality, q.reason);
  const notes = [...tree.notes];
  if (q.reason && q.quality !== 'ok') notes.push(`tree ${q.quality}: ${q.reason}`);
  if (tree.screen.source === 'inferred' && tree.screen.w === 0) notes.push('screen size unknown');
  const observation: Observation = {
    seq: opts.seq ?? tree.seq ?? 0,
    takenAt: opts.takenAt ?? tree.takenAt ?? 0,
    screen: {
      w: tree.screen.w,
      h: tree.screen.h,
      aspect: tree.screen.h > 0 ? aspectRatio({ width: tree.screen.w, height: tree.screen.h }) : 0,
      rotation: tree.screen.rotation,
    },
    app: { package: pkg, activity, title },
    windows: tree.windows,
    keyboard: tree.keyboard ?? { shown: false },
    elements,
    texts,
    pageHash: pageHash(
      pkg,
      activity || title,
      elements.map((e) => e.place ?? e.id),
    ),
    treeQuality: q.quality,
    visualFirst: q.quality !== 'ok' || remembered,
  };
  if (notes.length > 0) observation.notes = notes;
  return { observation, extract };
}

function textsOutside(extract: ExtractResult, windows: Set<number>): string[] {
  const inBars = new Set(
    extract.elements.filter((e) => !e.actionable && windows.has(e.window)).map((e) => e.label ?? e.text),
  );
  const barOnly = new Set(
    [...inBars].filter((t) => !extract.elements.some((e) => !windows.has(e.window) && (e.label ?? e.text) === t)),
  );
  return extract.texts.filter((t) => !barOnly.has(t));
}
