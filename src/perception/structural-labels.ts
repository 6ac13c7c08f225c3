import { humanizeRid } from './control-labels.js';
import { roleOf } from './roles.js';
import type { UiNode } from './tree.js';

/**
 * Names a control has by where it is, not by anything it says (issue 22), given only where the
 * structure is Android's own and exact: the image button a toolbar lays out first, at its start
 * edge, is the toolbar's navigation button (AppCompat's `Toolbar` adds it first, before the title;
 * Simple Mobile Tools' apps leave it without a description — 143 lines `ImageButton 72,114` over
 * DroidTask's states). Nothing is guessed from an icon's place alone.
 */

export const NAVIGATE_UP = 'Navigate up';

/** A toolbar by its class or, where a dump shows it as a plain ViewGroup, by its resource id. */
const TOOLBAR_RE = /Toolbar$/;
const TOOLBAR_ID_RE = /(?:^|[/_])(?:toolbar|action_bar)$/i;

/** Start edges this close (px) are one edge. */
const EDGE_PX = 8;

export function isToolbar(n: UiNode): boolean {
  return TOOLBAR_RE.test(n.className) || TOOLBAR_ID_RE.test(n.resourceId);
}

/** The structural name of a nameless control, or '' when its structure says nothing. */
export function structuralLabel(n: UiNode, nodes: readonly UiNode[]): string {
  if (roleOf(n.className) !== 'ImageButton' || humanizeRid(n.resourceId)) return '';
  const parent = nodes[n.parent];
  if (!parent || !isToolbar(parent) || parent.children[0] !== n.idx) return '';
  return Math.abs(n.boundsPx.left - parent.boundsPx.left) <= EDGE_PX ? NAVIGATE_UP : '';
}
