import { rectWithin } from '../core/geometry.js';
import type { UiNode } from './tree.js';
import type { DropReason } from './visibility.js';

/**
 * The check box of a settings row cut off at the list's edge (issue 22): the row shows, its
 * CheckBox child does not (DroidBot marks it invisible, or its rect falls off the screen), so the
 * row would read as a plain tap while the user sees a check box and the tree still says its state.
 * The one checkable node inside the row's own bounds, hidden only by clipping, lends the row its
 * class and state; a row with several (or none) says nothing — no guessing.
 */
export function clippedCheckable(
  row: UiNode,
  nodes: readonly UiNode[],
  reasons: readonly (DropReason | undefined)[],
): UiNode | undefined {
  let found: UiNode | undefined;
  const stack = [...row.children];
  while (stack.length > 0) {
    const n = nodes[stack.pop() as number];
    stack.push(...n.children);
    if (!n.flags.checkable) continue;
    const clipped = reasons[n.idx] === 'invisible' || reasons[n.idx] === 'off_screen';
    if (found || !clipped || !rectWithin(n.boundsPx, row.boundsPx)) return undefined;
    found = n;
  }
  return found;
}
