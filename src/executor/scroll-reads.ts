import type { Deadline } from '../core/clock.js';
import { rectWithin } from '../core/geometry.js';
import type { Selector } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { ActionReceipt } from '../device/protocol/index.js';
import {
  labelOfNode,
  listEndNote,
  type ScrollToRequest,
  targetHits,
  type WireNode,
  type WireSnapshot,
} from '../device/protocol/index.js';
import type { Pacer } from './pacing.js';
import { nodeMatches } from './wait-reads.js';

/**
 * scroll_to with swipes and plain reads, for backends without the helper's native scroll (ADB):
 * at most `max_scrolls` swipes within `timeout_ms` inside one unique scrollable container; stops
 * when the target is visible inside it (matched exactly, or by title as the request asks:
 * scroll-target.ts), when a swipe makes no progress (≥ 80 % of the visible items unchanged — the end
 * of the list), on a failed swipe or an unreadable screen. What it found, or whether the list
 * ended, is the outcome's (as the helper's receipt says it).
 */

const OVERLAP_END = 0.8;

function inside(n: WireNode, c: WireNode): boolean {
  const a = n.bounds;
  const b = c.bounds;
  return rectWithin(a, b) && a.bottom > a.top;
}

function visibleKeys(snap: WireSnapshot, c: WireNode): Set<string> {
  return new Set(
    snap.nodes
      .filter((n) => n.flags.visible && n !== c && inside(n, c) && (n.text || n.desc))
      .map((n) => `${n.className}|${n.text}|${n.desc}`),
  );
}

/** A node's text as a receipt may carry it (a password field's never) and its description. */
function publicFields(n: WireNode): { text: string; desc: string } {
  return { text: n.flags.password ? '' : n.text, desc: n.desc };
}

type Found =
  | { ok: true; container: WireNode; target?: WireNode }
  | { ok: false; code: 'NOT_FOUND' | 'AMBIGUOUS'; message: string };

function locate(snap: WireSnapshot, req: ScrollToRequest): Found {
  const cs = snap.nodes.filter((n) => n.flags.visible && nodeMatches(n, req.container as Selector));
  if (cs.length === 0) return { ok: false, code: 'NOT_FOUND', message: 'no container matches the selector' };
  if (cs.length > 1)
    return { ok: false, code: 'AMBIGUOUS', message: `${cs.length} containers match; make the selector exact` };
  const container = cs[0] as WireNode;
  const { hits } = targetHits(
    snap.nodes.filter((n) => n.flags.visible && inside(n, container)),
    req.target,
    { match: req.target_match, exact: nodeMatches, fields: (n) => ({ text: n.text, desc: n.desc }) },
  );
  return { ok: true, container, target: hits[0] };
}

/** One scroll's finger path inside the container: from 80 % to 25 % of its height (forward), or back. */
function scrollStroke(container: WireNode, direction: ScrollToRequest['direction']) {
  const b = container.bounds;
  const x = Math.round((b.left + b.right) / 2);
  const h = b.bottom - b.top;
  const lo = { x, y: Math.round(b.top + h * 0.8) };
  const hi = { x, y: Math.round(b.top + h * 0.25) };
  return direction === 'forward' ? [lo, hi] : [hi, lo];
}

/** What a scroll_to came to, whichever way it ran (the helper's receipt says the same: `found`, `list_end`). */
export interface ScrollOutcome {
  /** The label of the node it found. */
  found?: string;
  /** Not found: true when the list went no further, false when it still moved at the last scroll. */
  listEnd?: boolean;
  scrolls: number;
}

/** A helper's scroll_to receipt as an outcome. */
export function scrollOutcome(r: ActionReceipt | undefined): ScrollOutcome {
  return { found: r?.found, listEnd: r?.list_end, scrolls: r?.scroll_log?.length ?? 0 };
}

type ScrollEnd = { call: DeviceCall; outcome: ScrollOutcome };
type EndCode = 'NOT_FOUND' | 'AMBIGUOUS' | 'NO_PROGRESS' | 'TIMEOUT' | 'READ_FAILED' | 'UNAVAILABLE';

/**
 * How a scroll_to on reads ends after `swipes` swipes: refused before any, partial after; a
 * `listEnd` it knows is in the outcome and the message (the list ended, or it may go on).
 */
function endAfter(rec: CallRecorder, swipes: number, code: EndCode, what: string, listEnd?: boolean): ScrollEnd {
  const message = listEnd === undefined ? what : `${what}; ${listEndNote(listEnd)}`;
  const call: DeviceCall =
    swipes === 0
      ? rec.refused(code, message)
      : {
          ...rec.failed(code, `${message} (after ${swipes} scrolls)`, 'delivered'),
          receipt: { ...rec.receipt('partial', 'delivered'), error: { code, message } },
        };
  return { call, outcome: { ...(listEnd === undefined ? {} : { listEnd }), scrolls: swipes } };
}

export async function scrollOnReads(
  device: Device,
  pacer: Pacer,
  req: ScrollToRequest,
  d: Deadline,
): Promise<ScrollEnd> {
  const backend = device.capabilities().backend === 'bridge' ? 'bridge' : 'adb';
  const rec = new CallRecorder(d.clock, backend);
  const w = d.child(req.timeout_ms);
  let swipes = 0;
  const end = (code: EndCode, what: string, listEnd?: boolean) => endAfter(rec, swipes, code, what, listEnd);
  let prev: Set<string> | undefined;
  for (;;) {
    if (w.remaining() <= 0) return end('TIMEOUT', `the target did not appear within ${req.timeout_ms} ms`);
    const r = await device.snapshot({}, w);
    if (!r.ok || r.snapshot.nodes.length === 0)
      return end(
        'READ_FAILED',
        `the screen could not be read (${r.ok ? 'empty' : r.message}); observe before scrolling again`,
      );
    const f = locate(r.snapshot, req);
    if (!f.ok) return end(f.code, f.message);
    if (f.target) {
      const call: DeviceCall =
        swipes === 0
          ? { ok: true, receipt: { ...rec.receipt('observed', 'not_delivered'), method: backend } }
          : rec.ok();
      return { call, outcome: { found: labelOfNode(publicFields(f.target)), scrolls: swipes } };
    }
    const keys = visibleKeys(r.snapshot, f.container);
    if (prev) {
      const same = [...keys].filter((k) => prev?.has(k)).length;
      if (keys.size === 0 || same / keys.size >= OVERLAP_END)
        return end('NO_PROGRESS', 'the list stopped moving (its end)', true);
    }
    prev = keys;
    // Out of scrolls or time right after a swipe that moved the list: it may go on.
    if (swipes >= req.max_scrolls)
      return end('NOT_FOUND', `the target did not appear within ${req.max_scrolls} scrolls`, false);
    if (w.remaining() <= 0) return end('TIMEOUT', `the target did not appear within ${req.timeout_ms} ms`, false);
    const [from, to] = scrollStroke(f.container, req.direction);
    const s = await device.swipe(pacer.curvedPath(from, to), { durationMs: pacer.swipeMs(from, to) }, w);
    if (!s.ok)
      return swipes === 0 ? { call: s, outcome: { scrolls: 0 } } : end('UNAVAILABLE', `a scroll failed: ${s.message}`);
    swipes++;
    rec.markDispatched();
    // Let the list settle before judging progress (a fling still moving is not an end).
    await w.sleep(Math.min(req.settle_ms, w.remaining()));
  }
}
