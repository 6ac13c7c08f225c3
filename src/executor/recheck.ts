import type { Element, ErrorCode } from '../core/types.js';
import { checkGuard, findGuarded, guardFor, MAX_MOVE_PX, occludingWindow } from '../device/protocol/guard.js';
import type { WireNode, WireSnapshot } from '../device/protocol/wire.js';

/**
 * Pre-injection re-check (DESIGN §5, article §6.1): right before injecting, re-read the target. If
 * it moved more than 20 px (the keyboard pushed the page up) or is gone, abort as STALE instead of
 * tapping the old spot — the caller re-perceives and re-decides. The rule is the guarded touch's
 * (device/protocol/guard.ts): a helper with `guarded_touch` applies it on the phone instead, so this
 * read is needed only where the device cannot (ADB).
 */

export { MAX_MOVE_PX, occludingWindow };

export type Recheck =
  | { ok: true; node: WireNode; seq: number; movedPx: number }
  | { ok: false; code: ErrorCode; message: string; movedPx?: number };

/** Find `e` in a fresh snapshot: the same identity, the candidate nearest to where it was. */
export function findNode(e: Element, snap: WireSnapshot): WireNode | undefined {
  return findGuarded(snap, guardFor(e));
}

export function recheckTarget(e: Element, snap: WireSnapshot): Recheck {
  const label = e.label || e.text || e.desc || e.resourceId || e.role;
  const r = checkGuard(snap, guardFor(e), { label });
  return r.ok ? { ok: true, node: r.node, seq: snap.seq, movedPx: r.movedPx } : r;
}
