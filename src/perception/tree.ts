import type { Rect } from '../core/geometry.js';
import type { WireNode } from '../core/snapshot.js';
import type { Range, WindowInfo } from '../core/types.js';

/**
 * The one internal node model both parsers (helper JSON, uiautomator XML) normalize into. Bounds
 * are pixels of the full physical screen (after any coordinate-space correction); nodes are in
 * pre-order, parents before children.
 */

/** Exactly the flags a helper snapshot carries (core/snapshot.ts). */
export type NodeFlags = WireNode['flags'];

export interface UiNode {
  /** Index in `UiTree.nodes` (pre-order). */
  idx: number;
  /** Parent index, -1 for a window root. */
  parent: number;
  children: number[];
  depth: number;
  /** Window id (wire: the helper's window id; XML: the index of the top-level node). */
  window: number;
  className: string;
  package: string;
  text: string;
  desc: string;
  resourceId: string;
  hint: string;
  boundsPx: Rect;
  flags: NodeFlags;
  range?: Range;
  /** Z-order among siblings when the dump says (uiautomator `drawing-order`); else child order. */
  drawingOrder?: number;
  /** The helper's node id (wire only), for native node actions. */
  sourceId?: number;
  /** Native actions (wire only). */
  actions?: string[];
}

export interface TreeScreen {
  w: number;
  h: number;
  rotation: number;
  /** How the size was obtained: given by the device/caller, or inferred from the bounds. */
  source: 'device' | 'given' | 'inferred';
}

export interface UiTree {
  source: 'wire' | 'xml';
  seq?: number;
  takenAt?: number;
  screen: TreeScreen;
  foreground?: { package: string; activity: string };
  /** Windows, lowest layer first. */
  windows: WindowInfo[];
  keyboard?: { shown: boolean; bounds?: Rect };
  nodes: UiNode[];
  /** Why the tree has no nodes, when it has none (e.g. uiautomator's null root node). */
  emptyReason?: string;
  /** Diagnostics worth showing to a person (screen inferred, space rescaled, …). */
  notes: string[];
}

/** Expected failures while reading a snapshot are values; `what` names the part that was wrong. */
export type ParseResult = { ok: true; tree: UiTree } | { ok: false; code: 'INVALID_ARGUMENT'; message: string };

/** `android.widget.Button` → `Button`; `com.foo.ui.ListView$Inner` → `ListView`. */
export function shortClassName(className: string): string {
  const dot = className.lastIndexOf('.');
  const tail = dot >= 0 ? className.slice(dot + 1) : className;
  const dollar = tail.indexOf('$');
  return dollar > 0 ? tail.slice(0, dollar) : tail;
}
