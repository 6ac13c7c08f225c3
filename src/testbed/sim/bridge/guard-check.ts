import { checkGuard, sameIdentity, type TouchGuard } from '../../../device/protocol/guard.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
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
function lookup(g: TouchGuard): { match: (n: WireNode) => boolean; complete: boolean } | undefined {
  if (g.resource_id) return { match: (n) => n.resourceId === g.resource_id, complete: true };
  const text = (g.editable ? '' : g.text) || g.desc;
  if (!text) return undefined;
  const low = text.toLowerCase();
  return { match: (n) => n.text.toLowerCase().includes(low) || n.desc.toLowerCase().includes(low), complete: false };
}

export function guardCostMs(g: TouchGuard, snap: WireSnapshot, latency: Latency): number {
  const l = lookup(g);
  if (!l) return latency.treeRead;
  if (l.complete) return latency.nodeLookup;
  // A text lookup that found no node of the guard's identity must walk the tree before saying "gone".
  const found = snap.nodes.some((n) => n.flags.visible && l.match(n) && sameIdentity(n, g));
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
