import { checkGuard, sameIdentity, type TouchGuard } from '../../../device/protocol/guard.js';
import type { WireSnapshot } from '../../../device/protocol/wire.js';
import { type NodeQuery, queryMatches } from '../node-query.js';
import type { Latency, TouchCheck } from '../surface.js';

/**
 * The virtual helper's guarded touch (helper/PROTOCOL.md §7), costed as the on-device helper does
 * it (`AndroidDevice.lookup`): Android's own queries find the candidates — by view id when the
 * guard has one, else by text (or description), substring and case-insensitive as
 * `findAccessibilityNodeInfosByText` is — at `nodeLookup`; a guard with neither, or a lookup that
 * finds nothing (digits changed, a hint-only field), walks the whole tree at `treeRead` before it
 * may answer "gone". The verdict is the shared rule (device/protocol/guard.ts).
 */

/** Android's lookup for a guard: by view id (complete: every node with that id), or by text (not complete). */
function lookup(g: TouchGuard): NodeQuery | undefined {
  if (g.resource_id) return { viewId: g.resource_id };
  const text = (g.editable ? '' : g.text) || g.desc;
  return text ? { text } : undefined;
}

export function guardCostMs(g: TouchGuard, snap: WireSnapshot, latency: Latency): number {
  const q = lookup(g);
  if (!q) return latency.treeRead;
  if ('viewId' in q) return latency.nodeLookup;
  // A text lookup that found no node of the guard's identity must walk the tree before saying "gone".
  const hit = queryMatches(q);
  const found = snap.nodes.some((n) => n.flags.visible && hit(n) && sameIdentity(n, g));
  return latency.nodeLookup + (found ? 0 : latency.treeRead);
}

export function touchCheck(g: TouchGuard, point: { x: number; y: number }): TouchCheck {
  return {
    costMs: (snap, latency) => guardCostMs(g, snap, latency),
    check(snap) {
      const r = checkGuard(snap, g, { point });
      return r.ok ? undefined : { ok: false, code: r.code, message: r.message };
    },
  };
}
