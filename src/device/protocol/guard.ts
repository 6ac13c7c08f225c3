import { z } from 'zod';
import { distance, type PxPoint, type Rect, rectCenter } from '../../core/geometry.js';
import { takesTouchesBelow } from '../../core/modal.js';
import type { ErrorCode } from '../../core/types.js';
import { RectSchema } from '../../core/types.js';
import type { WireNode, WireSnapshot } from './wire.js';

/**
 * Guarded touches (helper/PROTOCOL.md §7, capability `guarded_touch`): a tap, long press, swipe or
 * one-finger touch_gesture may carry the identity and bounds of the element it was aimed at. The
 * helper checks them on its own current tree right before it injects, and answers `STALE` (or
 * `OCCLUDED`) instead of touching when they no longer hold — the pre-injection re-check of DESIGN
 * §5 done where no screen change can slip in between. This file is the rule, used by the client's
 * own re-check (executor/recheck.ts) and by the virtual phone's helper; the on-device helper has it
 * in Java (`Guards.java`), held to it by the conformance suite.
 */

/** A target moved further than this since it was read: the touch would not land where it was decided. */
export const MAX_MOVE_PX = 20;

export const TouchGuardSchema = z
  .object({
    /** The node as it was read: fully qualified class, resource id ("" for none), text, description. */
    class_name: z.string().max(512),
    resource_id: z.string().max(512),
    text: z.string().max(4096),
    desc: z.string().max(4096),
    /** An edit field is known by its hint (its text is what was typed; a password's is never exposed). */
    editable: z.boolean(),
    hint: z.string().max(4096).optional(),
    /** Its bounds in pixels when it was read. */
    bounds: RectSchema,
  })
  .strict();
export type TouchGuard = z.infer<typeof TouchGuardSchema>;

/** What a guard is made of: an element as perception saw it (or anything with the same fields). */
export interface GuardSource {
  className: string;
  resourceId: string;
  text: string;
  desc: string;
  hint?: string;
  flags: { editable: boolean };
  boundsPx: Rect;
  /** The node's own resource id and description when the element shows others (Element.identity). */
  identity?: { resourceId: string; desc: string };
}

export function guardFor(e: GuardSource): TouchGuard {
  return {
    class_name: e.className,
    resource_id: e.identity?.resourceId ?? e.resourceId,
    text: e.text,
    desc: e.identity?.desc ?? e.desc,
    editable: e.flags.editable,
    ...(e.hint ? { hint: e.hint } : {}),
    bounds: { ...e.boundsPx },
  };
}

/** The guard of a node just read (the client's own re-check): no further move since that read. */
export function guardForNode(n: WireNode): TouchGuard {
  return guardFor({ ...n, boundsPx: n.bounds });
}

const DIGITS = /\d+/g;
const stripDigits = (s: string) => s.replace(DIGITS, '#');

/**
 * The identity of a node apart from its position, digits stripped as in the fingerprint ("3 min
 * ago" stays itself). An edit field is known by its hint, as its fingerprint is.
 */
export function sameIdentity(n: WireNode, g: TouchGuard): boolean {
  const sameText = g.editable
    ? n.flags.editable && (n.hint ?? '') === (g.hint ?? '')
    : stripDigits(n.text) === stripDigits(g.text);
  return (
    n.className === g.class_name &&
    n.resourceId === g.resource_id &&
    sameText &&
    stripDigits(n.desc) === stripDigits(g.desc)
  );
}

/** The visible node with the guard's identity nearest to where it was. */
export function findGuarded(snap: Pick<WireSnapshot, 'nodes'>, g: TouchGuard): WireNode | undefined {
  const was = rectCenter(g.bounds);
  let best: WireNode | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of snap.nodes) {
    if (!n.flags.visible || !sameIdentity(n, g)) continue;
    const d = distance(rectCenter(n.bounds), was);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

/** Whether a touch at `p` would land on a window above the node's (keyboard, dialog, overlay, bar), or a modal one takes it. */
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
    const inside = p.x >= b.left && p.x < b.right && p.y >= b.top && p.y < b.bottom;
    if (inside || takesTouchesBelow(w, own)) return `${w.type} window "${w.title}"`;
  }
  return undefined;
}

export type GuardCheck =
  | { ok: true; node: WireNode; movedPx: number }
  | { ok: false; code: Extract<ErrorCode, 'STALE' | 'OCCLUDED'>; message: string; movedPx?: number };

/** How a guard's target is named in a message. */
export function guardLabel(g: TouchGuard): string {
  return g.text || g.desc || g.hint || g.resource_id || g.class_name.slice(g.class_name.lastIndexOf('.') + 1);
}

/**
 * The target is still there, within MAX_MOVE_PX of where it was, enabled; with `point`, the touch
 * also lands inside it and on no window above it. Anything else: do not touch.
 */
export function checkGuard(
  snap: Pick<WireSnapshot, 'nodes' | 'windows'>,
  g: TouchGuard,
  opts: { point?: PxPoint; label?: string } = {},
): GuardCheck {
  const label = opts.label ?? guardLabel(g);
  const n = findGuarded(snap, g);
  if (!n)
    return {
      ok: false,
      code: 'STALE',
      message: `"${label}" is no longer on screen; re-read the page and decide again`,
    };
  const movedPx = Math.round(distance(rectCenter(n.bounds), rectCenter(g.bounds)));
  if (movedPx > MAX_MOVE_PX)
    return {
      ok: false,
      code: 'STALE',
      movedPx,
      message: `"${label}" moved ${movedPx} px since the page was read (keyboard or layout change); re-read the page and decide again`,
    };
  if (!n.flags.enabled)
    return { ok: false, code: 'STALE', movedPx, message: `"${label}" is disabled now; re-read the page` };
  const p = opts.point;
  if (p) {
    const b = n.bounds;
    if (!(p.x >= b.left && p.x < b.right && p.y >= b.top && p.y < b.bottom))
      return {
        ok: false,
        code: 'STALE',
        movedPx,
        message: `the touch point (${p.x},${p.y}) is no longer on "${label}"; re-read the page and decide again`,
      };
    const occ = occludingWindow(p, n, snap);
    if (occ)
      return {
        ok: false,
        code: 'OCCLUDED',
        movedPx,
        message: `the touch point is covered by a ${occ}; close it or re-observe`,
      };
  }
  return { ok: true, node: n, movedPx };
}
