import type { Rect } from '../../../core/geometry.js';
import type { WireNode } from '../../../core/snapshot.js';
import type { View } from '../kit/view.js';

/**
 * One laid-out node: the single source from which the JSON tree, the XML dump, the screenshot and
 * hit testing are all produced, so the four can never describe different screens.
 */
/** Exactly the flags a helper snapshot carries (core/snapshot.ts). */
export type NodeFlags = WireNode['flags'];

export interface LaidNode {
  /** The view this node was made from; undefined for synthetic nodes (window roots, spinners). */
  view?: View;
  className: string;
  pkg: string;
  resourceId: string;
  /** What accessibility reports: the hint for an empty edit, bullets for a password. */
  text: string;
  desc: string;
  hint?: string;
  /** Screen bounds clipped to the ancestors' visible area, as Android reports them. */
  bounds: Rect;
  /** Unclipped bounds (drawing, scroll-into-view). */
  full: Rect;
  /** The area children are clipped to (drawing and hit testing). */
  clip: Rect;
  flags: NodeFlags;
  range?: { min: number; max: number; current: number };
  selection?: { start: number; end: number };
  actions: string[];
  children: LaidNode[];
  /** Index among the parent's children. */
  index: number;
  /** Key of UI state kept by the engine for this node (edit focus, list scroll, webview zoom). */
  stateKey?: string;
  /** Extra drawing data (webview zoom and scroll). */
  draw?: { scale?: number; scrollY?: number };
}

export const CLASS_BY_KIND: Record<View['kind'], string> = {
  column: 'android.widget.LinearLayout',
  row: 'android.widget.LinearLayout',
  list: 'androidx.recyclerview.widget.RecyclerView',
  button: 'android.widget.Button',
  text: 'android.widget.TextView',
  edit: 'android.widget.EditText',
  switch: 'android.widget.Switch',
  checkbox: 'android.widget.CheckBox',
  seekbar: 'android.widget.SeekBar',
  image: 'android.widget.ImageView',
  webview: 'android.webkit.WebView',
  canvas: 'android.view.View',
};

export function emptyFlags(): NodeFlags {
  return {
    clickable: false,
    longClickable: false,
    editable: false,
    scrollable: false,
    checkable: false,
    checked: false,
    enabled: true,
    focusable: false,
    focused: false,
    selected: false,
    password: false,
    visible: true,
  };
}

/** Pre-order walk. */
export function walk(node: LaidNode, fn: (n: LaidNode, parent: LaidNode | undefined) => void, parent?: LaidNode): void {
  fn(node, parent);
  for (const c of node.children) walk(c, fn, node);
}
