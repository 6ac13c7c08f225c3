import type { ErrorCode } from '../../../core/types.js';
import { LIMITS, type ScrollToRequest } from '../../../device/protocol/actions.js';
import type { ActionReceipt, ScrollLogEntry } from '../../../device/protocol/receipt.js';
import { labelOfNode, listEndNote } from '../../../device/protocol/scroll-target.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
import { type ExecContext, inject, now, pause, readTree } from './context.js';
import { findAll, nodeState, resolve, visibleParts } from './selector.js';

/**
 * scroll_to: native scrolls of one unique container until the target is visible inside it (matched
 * exactly, or by title: `target_match`). Each scroll waits for the content to move (≥ 500 ms for the
 * first) and then to hold still `settle_ms`, so a target passing through the viewport mid-animation
 * does not count. Stops on no progress (boundary), failure, cancellation, max_scrolls or timeout;
 * every scroll is logged. Found: `found` names the node's label; not found: `list_end` says whether
 * the list can go no further that way, and the message says so.
 */

function descendants(snap: WireSnapshot, root: WireNode): WireNode[] {
  const inside = new Set([root.id]);
  const out: WireNode[] = [];
  for (const n of snap.nodes)
    if (inside.has(n.parent)) {
      inside.add(n.id);
      out.push(n);
    }
  return out;
}

function contentSignature(snap: WireSnapshot, container: WireNode): string {
  return descendants(snap, container)
    .filter((n) => n.flags.visible)
    .map((n) => `${n.text}|${n.desc}|${n.bounds.top}|${n.bounds.left}`)
    .join('\n');
}

type Step = { snap: WireSnapshot; container: WireNode } | { error: ErrorCode; message: string };

async function observe(ctx: ExecContext, req: ScrollToRequest): Promise<Step> {
  const read = await readTree(ctx);
  if (!read.ok) return { error: read.code, message: read.message };
  const c = resolve(read.snap, req.container);
  if (!c.ok) return { error: c.code, message: `container: ${c.message}` };
  return { snap: read.snap, container: c.node };
}

/** The target in this read: several nodes (their labels), or one visible inside the container or not. */
type Sighting = { ambiguous: string[] } | { visible: boolean; node?: WireNode };

function targetVisible(snap: WireSnapshot, req: ScrollToRequest, container: WireNode): Sighting {
  const hits = findAll(snap, req.target, req.target_match) ?? [];
  if (hits.length > 1) return { ambiguous: hits.map((h) => labelOfNode(h.node)) };
  const hit = hits[0];
  if (!hit) return { visible: false };
  const parts = visibleParts(snap, hit.node, hit.window);
  const c = container.bounds;
  const cy = (hit.node.bounds.top + hit.node.bounds.bottom) / 2;
  const inContainer = cy >= c.top && cy < c.bottom && parts.length > 0;
  return { visible: inContainer, node: hit.node };
}

export async function scrollTo(ctx: ExecContext, req: ScrollToRequest): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  const deadline = startedAt + req.timeout_ms;
  const op = req.direction === 'forward' ? 'scroll_forward' : 'scroll_backward';
  const log: ScrollLogEntry[] = [];
  let dispatchedAt: number | undefined;
  const finish = (status: ActionReceipt['status'], error?: { code: ErrorCode; message: string }, extra = {}) => {
    // A refused scroll (the phone's own NO_PROGRESS, with a detail) delivered nothing.
    const delivered = log.some((e) => e.outcome === 'moved' || (e.outcome === 'no_progress' && !e.detail));
    const unsure = log.some((e) => e.outcome === 'unknown');
    const r: ActionReceipt = {
      op_id: ctx.opId,
      action: 'scroll_to',
      status: error && status === 'completed' ? 'partial' : status,
      delivery: delivered ? 'delivered' : unsure ? 'unknown' : 'not_delivered',
      timings: {
        received_at: ctx.receivedAt,
        started_at: startedAt,
        ...(dispatchedAt !== undefined ? { dispatched_at: dispatchedAt } : {}),
        ended_at: now(ctx),
      },
      scroll_log: log,
      ...(error ? { error } : {}),
      ...extra,
    };
    return r;
  };
  const failStatus = () => (log.length ? 'partial' : 'not_started');
  /** Out of scrolls or time: the list goes on when the container can still scroll this way. */
  const notReached = (code: 'NOT_FOUND' | 'TIMEOUT', what: string, container: WireNode) => {
    const end = !container.actions.includes(op);
    return finish(failStatus(), { code, message: `${what}; ${listEndNote(end)}` }, { list_end: end });
  };

  let step = await observe(ctx, req);
  for (;;) {
    if ('error' in step) return finish(failStatus(), { code: step.error, message: step.message });
    const { snap, container } = step;
    if (!container.actions.includes(op)) {
      const other = op === 'scroll_forward' ? 'scroll_backward' : 'scroll_forward';
      // Scrollable the other way only: the container is at its boundary in this direction.
      if (container.flags.scrollable && container.actions.includes(other)) {
        const t0 = targetVisible(snap, req, container);
        if (!('ambiguous' in t0) && !t0.visible)
          return finish(
            failStatus(),
            {
              code: 'NO_PROGRESS',
              message: `the container is at its end (${op} not possible); ${listEndNote(true)}`,
            },
            { list_end: true },
          );
      } else return finish(failStatus(), { code: 'UNSUPPORTED', message: `the container does not support ${op}` });
    }
    const t = targetVisible(snap, req, container);
    if ('ambiguous' in t)
      return finish(failStatus(), {
        code: 'AMBIGUOUS',
        message: `${t.ambiguous.length} nodes match the target (${t.ambiguous.map((l) => JSON.stringify(l)).join(', ')}); make it unique`,
      });
    if (t.visible && t.node) {
      // A password field's text is never in a receipt: its description names it, or nothing.
      const after = nodeState(snap, t.node);
      return finish(log.length ? 'completed' : 'observed', undefined, {
        after,
        found: labelOfNode({ text: after.text, desc: t.node.desc }),
      });
    }
    if (log.length >= req.max_scrolls)
      return notReached('NOT_FOUND', `target not visible after ${log.length} scrolls`, container);
    if (now(ctx) >= deadline) return notReached('TIMEOUT', `target not visible within ${req.timeout_ms} ms`, container);
    if (ctx.signal.aborted) return finish('cancelled', { code: 'CANCELLED', message: 'cancelled' });

    const before = contentSignature(snap, container);
    dispatchedAt ??= now(ctx);
    const res = await inject(() => ctx.phone.nodeAction(snap.seq, container.id, { action: op }));
    const entry: ScrollLogEntry = {
      index: log.length,
      action: op,
      at: now(ctx),
      outcome: 'moved',
      target_visible: false,
    };
    if (!res.ok && res.code === 'STALE') {
      step = await observe(ctx, req); // the screen moved on its own; nothing was scrolled
      continue;
    }
    if (!res.ok) {
      const outcome = res.code === 'NO_PROGRESS' ? 'no_progress' : res.code === 'INTERNAL' ? 'unknown' : 'failed';
      log.push({ ...entry, outcome, detail: res.message });
      return finish(
        failStatus(),
        { code: res.code, message: `scroll ${log.length} failed: ${res.message}` },
        res.code === 'NO_PROGRESS' ? { list_end: true } : {},
      );
    }
    // Wait for the content to move, then to hold still for settle_ms.
    const firstWindow = Math.max(500, req.settle_ms);
    const moveBy = Math.min(deadline, now(ctx) + firstWindow);
    let moved = false;
    let lastSig = before;
    let stillSince = now(ctx);
    let latest: Step = step;
    for (;;) {
      if (!(await pause(ctx, LIMITS.pollMs))) return finish('cancelled', { code: 'CANCELLED', message: 'cancelled' });
      const o = await observe(ctx, req);
      if ('error' in o) {
        latest = o;
        if (now(ctx) >= deadline) break;
        continue;
      }
      latest = o;
      const sig = contentSignature(o.snap, o.container);
      if (sig !== lastSig) {
        moved = moved || sig !== before;
        lastSig = sig;
        stillSince = now(ctx);
      }
      if (moved && now(ctx) - stillSince >= req.settle_ms) break;
      if (!moved && now(ctx) >= moveBy) break;
      if (now(ctx) >= deadline) break;
    }
    const seen = 'error' in latest ? undefined : targetVisible(latest.snap, req, latest.container);
    const visible = !!seen && 'visible' in seen && seen.visible;
    log.push({
      ...entry,
      outcome: moved ? 'moved' : 'no_progress',
      ...('error' in latest ? {} : { seq: latest.snap.seq }),
      target_visible: visible,
    });
    step = latest;
    if (!moved && !visible)
      return finish(
        failStatus(),
        {
          code: 'NO_PROGRESS',
          message: `the container did not move after scroll ${log.length} (boundary reached); ${listEndNote(true)}`,
        },
        { list_end: true },
      );
  }
}
