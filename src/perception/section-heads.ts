import type { Rect } from '../core/geometry.js';
import type { Element, Observation } from '../core/types.js';

/**
 * Section headers over a list's rows (issue 22): Android's settings pages title each group of rows
 * with a text of the list itself ("ALARM TAB", "TIMER TAB"), so two rows named "Max reminder
 * duration" were told apart only by a footer that listed the headers out of place. A header is a
 * free text of a scrolling list (not a row's own text) whose next element is a row of the same
 * list, placed over it (isOver); the listing writes it as a `section "…"` line above that row, not
 * in the footer.
 */

/** Edges this close (0..1000) are one edge. */
const TOL = 4;

/**
 * A header's place over its row: above it, ending within the row's width and starting near the
 * row's start (a settings label indented a little; a dialog's, its rows indented under it). A
 * text centred over a wide row (a tab's title over its page) or wider than the row under it (an
 * empty list's placeholder over its one button) heads nothing.
 */
function isOver(h: Rect, row: Rect): boolean {
  const w = row.right - row.left;
  return row.top >= h.bottom - TOL && h.right <= row.right + TOL && Math.abs(h.left - row.left) < w / 4;
}

/** The row each header heads → the header's text. */
export function sectionHeads(
  o: Pick<Observation, 'elements' | 'texts'>,
  listed: ReadonlySet<Element>,
): Map<Element, string> {
  const byId = new Map(o.elements.map((e) => [e.id, e]));
  const free = new Set(o.texts);
  const heads = new Map<Element, string>();
  let pending: { text: string; list: string; bounds: Rect } | undefined;
  for (const e of o.elements) {
    const owner = e.actionableAncestorId ? byId.get(e.actionableAncestorId) : undefined;
    const inList = owner?.flags.scrollable === true && owner.actionable;
    if (!e.actionable) {
      pending =
        inList && e.label && free.has(e.label) && owner
          ? { text: e.label, list: owner.id, bounds: e.bounds }
          : undefined;
      continue;
    }
    if (pending && listed.has(e) && owner?.id === pending.list && isOver(pending.bounds, e.bounds))
      heads.set(e, pending.text);
    pending = undefined;
  }
  return heads;
}
