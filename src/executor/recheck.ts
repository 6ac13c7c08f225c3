import { distance, type PxPoint, rectCenter } from '../core/geometry.js';
import type { Element, ErrorCode } from '../core/types.js';
import type { WireNode, WireSnapshot } from '../device/protocol/wire.js';

/**
 * Pre-injection re-check (DESIGN §5, article §6.1): right before injecting, re-read the target. If
 * it moved more than 20 px (the keyboard pushed the page up) or is gone, abort as STALE instead of
 * tapping the old spot — the caller re-perceives and re-decides.
 */

export const MAX_MOVE_PX = 20;

const DIGITS = /\d+/g;

/**
 * The identity of a node apart from its position (digits stripped, like the fingerprint). An edit
 * field's text is what was typed — or its hint while empty, which perception does not count as
 * text, and a password field's text is never exposed — so a field is known by its hint instead,
 * as its fingerprint is (perception/elements.ts fingerprintText).
 */
function sameIdentity(n: WireNode, e: Element): boolean {
  const text = (s: string) => s.replace(DIGITS, '#');
  const sameText = e.flags.editable
    ? n.flags.editable && (n.hint ?? '') === (e.hint ?? '')
    : text(n.text) === text(e.text);
  return n.className === e.className && n.resourceId === e.resourceId && sameText && text(n.desc) === text(e.desc);
}

function centre(n: WireNode): PxPoint {
  return rectCenter(n.bounds);
}

export type Recheck =
  | { ok: true; node: WireNode; seq: number; movedPx: number }
  | { ok: false; code: ErrorCode; message: string; movedPx?: number };

/** Find `e` in a fresh snapshot: the same identity, the candidate nearest to where it was. */
export function findNode(e: Element, snap: WireSnapshot): WireNode | undefined {
  const was = rectCenter(e.boundsPx);
  let best: WireNode | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of snap.nodes) {
    if (!n.flags.visible || !sameIdentity(n, e)) continue;
    const d = distance(centre(n), was);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

export function recheckTarget(e: Element, snap: WireSnapshot): Recheck {
  const n = findNode(e, snap);
  const label = e.label || e.text || e.desc || e.resourceId || e.role;
  if (!n)
    return {
      ok: false,
      code: 'STALE',
      message: `"${label}" is no longer on screen; re-read the page and decide again`,
    };
  const moved = distance(centre(n), rectCenter(e.boundsPx));
  if (moved > MAX_MOVE_PX)
    return {
      ok: false,
      code: 'STALE',
      movedPx: Math.round(moved),
      message: `"${label}" moved ${Math.round(moved)} px since the page was read (keyboard or layout change); re-read the page and decide again`,
    };
  if (!n.flags.enabled)
    return {
      ok: false,
      code: 'STALE',
      message: `"${label}" is disabled now; re-read the page`,
      movedPx: Math.round(moved),
    };
  return { ok: true, node: n, seq: snap.seq, movedPx: Math.round(moved) };
}

/** Whether a touch at `p` would land on a window above the target's (keyboard, dialog, overlay). */
export function occludingWindow(
  p: PxPoint,
  n: Pick<WireNode, 'window'>,
  snap: Pick<WireSnapshot, 'windows'>,
): string | undefined {
  const own = snap.windows.find((w) => w.id === n.window);
  if (!own) return undefined;
  for (const w of snap.windows) {
    if (w.id === own.id || w.layer <= own.layer || !w.touchable) continue;
    const b = w.bounds;
    if (p.x >= b.left && p.x < b.right && p.y >= b.top && p.y < b.bottom) return `${w.type} window "${w.title}"`;
  }
  return undefined;
}
