import type { Rect } from '../core/geometry.js';
import { cleanText, fingerprintText } from './element-text.js';
import {
  assignOrdinals,
  carryIds,
  clippedOwnId,
  contentKey,
  identityKey,
  keysWithRowContext,
  type PriorElement,
  placeId,
  stickyIds,
} from './fingerprint.js';

/**
 * The ids of one screen's elements (DESIGN §3–4). Places are positional fingerprints — "what is
 * where", the page hash is built from them — kept across a rounding edge; ids are the places,
 * carried over from the previous screen by content. A control named only by text clipped off
 * screen has its own id made with that text: the place of a cut-off row is the same for every row
 * a scroll leaves in that sliver, and uiautomator (which omits clipped text) must place it alike.
 */

export interface IdItem {
  actionable: boolean;
  editable: boolean;
  scrollable: boolean;
  /** The node's own text. */
  text: string;
  desc: string;
  label: string;
  /** The label is a fallback (clipped text, the resource id in words). */
  fallback: boolean;
  /** The fallback is the resource id in words. */
  fromId: boolean;
  resourceId: string;
  role: string;
  window: number;
  /** Normalized 0..1000. */
  bounds: Rect;
}

/**
 * An icon of its row (fingerprint.ts's row context): a control with no words of its own — a glyph
 * ("⋮", "+", "›"), a description, a resource id or nothing names it. A row named by the text inside
 * it is told apart by that text already, and a list is no row's icon: keyed by the text at their
 * centre, both would change ids whenever the list scrolls.
 */
export function isRowIcon(e: {
  actionable: boolean;
  editable: boolean;
  scrollable: boolean;
  text: string;
  desc: string;
  label?: string;
  labelFromId?: boolean;
}): boolean {
  const own = cleanText(e.text);
  if (!e.actionable || e.editable || e.scrollable || /[\p{L}\p{N}]/u.test(own)) return false;
  const label = e.label ?? '';
  return !label || label === own || label === cleanText(e.desc) || e.labelFromId === true;
}

export function assignIds(
  items: readonly IdItem[],
  previous: readonly PriorElement[],
): { ids: string[]; places: string[] } {
  const prepared = items.map((it) => {
    const fp = { actionable: it.actionable, editable: it.editable, text: it.text };
    // Clipped text is not in every channel's dump (uiautomator omits it): places must not depend on it.
    const text = fingerprintText({ ...fp, label: it.fallback ? '' : it.label });
    const parts = { resourceId: it.resourceId, role: it.role, text, desc: it.desc, bounds: it.bounds };
    // The content an id is carried by includes a fallback label, as the listing shows it.
    const carryText = fingerprintText({ ...fp, label: it.label });
    return { it, text, contentKey: contentKey(parts), carryKey: contentKey({ ...parts, text: carryText }) };
  });
  const withRows = (keyOf: (p: (typeof prepared)[number]) => string) =>
    keysWithRowContext(
      prepared.map((p) => ({
        key: keyOf(p),
        text: p.text,
        icon: isRowIcon({ ...p.it, labelFromId: p.it.fromId }),
        window: p.it.window,
        bounds: p.it.bounds,
      })),
    );
  const keys = withRows((p) => p.contentKey);
  const carryKeys = prepared.some((p) => p.it.fallback) ? withRows((p) => p.carryKey) : keys;
  const withOrdinals = assignOrdinals(prepared.map((p, i) => placeId(keys[i] ?? p.contentKey, p.it.bounds)));
  const fresh = prepared.map((p, i) => ({ id: withOrdinals[i] ?? '', contentKey: keys[i] ?? '', bounds: p.it.bounds }));
  const places =
    previous.length > 0
      ? stickyIds(
          fresh,
          previous.map((p) => ({ ...p, id: p.place ?? p.id })),
        )
      : withOrdinals;
  const owns = prepared.map((p, i) => {
    const place = places[i] ?? '';
    return p.it.fallback && !p.it.fromId ? clippedOwnId(place, carryKeys[i] ?? '') : place;
  });
  const ids =
    previous.length > 0
      ? carryIds(
          fresh.map((f, i) => ({
            place: places[i] ?? f.id,
            own: owns[i],
            contentKey: carryKeys[i] ?? f.contentKey,
            ident: identityKey(items[i] as IdItem),
            label: items[i]?.label,
          })),
          previous,
        )
      : owns;
  return { ids, places };
}
