import { LIMITS, type WaitUntilRequest } from '../../../device/protocol/actions.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import type { WireSnapshot } from '../../../device/protocol/wire.js';
import { cancelled, type ExecContext, now, pause, readTree, rejected } from './context.js';
import { findAll, nodeState, nodeToken } from './selector.js';

/**
 * wait_until: read-only polling on the phone's clock (~120 ms). Only a reliable read can satisfy a
 * condition; a failed or empty read is remembered and polling goes on — it never proves absence.
 * Ambiguity and unsupported conditions return at once.
 */

type Eval =
  | { kind: 'met'; state?: ReturnType<typeof nodeState>; signature: string }
  | { kind: 'unmet'; signature: string }
  | { kind: 'error'; code: 'AMBIGUOUS' | 'UNSUPPORTED' | 'UNAVAILABLE'; message: string };

function evaluate(req: WaitUntilRequest, snap: WireSnapshot): Eval {
  if (!req.selector) {
    // `stable` over the whole screen: the screen revision must not change.
    return { kind: 'met', signature: String(snap.seq) };
  }
  const hits = findAll(snap, req.selector);
  if (!hits) return { kind: 'error', code: 'UNAVAILABLE', message: 'window information is incomplete' };
  if (hits.length > 1)
    return {
      kind: 'error',
      code: 'AMBIGUOUS',
      message: `${hits.length} nodes match ${JSON.stringify(req.selector)}; make the selector unique`,
    };
  const hit = hits[0];
  if (req.condition === 'disappears')
    return hit ? { kind: 'unmet', signature: 'present' } : { kind: 'met', signature: 'gone' };
  if (!hit) return { kind: 'unmet', signature: 'absent' };
  const n = hit.node;
  const state = nodeState(snap, n);
  const signature = `${nodeToken(n)}|${n.flags.enabled}|${n.flags.checked}|${n.flags.selected}|${n.range?.current ?? ''}`;
  const met = (ok: boolean): Eval => (ok ? { kind: 'met', state, signature } : { kind: 'unmet', signature });
  switch (req.condition) {
    case 'appears':
    case 'stable':
      return met(true);
    case 'enabled':
      return met(n.flags.enabled);
    case 'disabled':
      return met(!n.flags.enabled);
    case 'checked':
    case 'unchecked':
      if (!n.flags.checkable) return { kind: 'error', code: 'UNSUPPORTED', message: 'the node is not checkable' };
      return met(n.flags.checked === (req.condition === 'checked'));
    case 'selected':
      return met(n.flags.selected);
    case 'text_equals':
      if (n.flags.password) return { kind: 'error', code: 'UNSUPPORTED', message: 'password text cannot be compared' };
      return met(n.text === req.text);
    case 'value_equals':
      if (!n.range) return { kind: 'error', code: 'UNSUPPORTED', message: 'the node has no range value' };
      return met(n.range.current === req.value);
  }
}

export async function waitUntil(ctx: ExecContext, req: WaitUntilRequest): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  const deadline = startedAt + req.timeout_ms;
  const stableMs = req.stable_ms ?? (req.condition === 'stable' ? 500 : 0);
  let polls = 0;
  let lastError: string | undefined;
  let heldSince: number | undefined;
  let heldSignature: string | undefined;
  const extra = () => ({ polls, ...(lastError ? { last_read_error: lastError } : {}) });
  for (;;) {
    if (ctx.signal.aborted) return cancelled(ctx, 'wait_until', startedAt, extra());
    const read = await readTree(ctx);
    const t = now(ctx);
    if (!read.ok) {
      lastError = `${read.code}: ${read.message}`;
      heldSince = undefined; // the stable window restarts after an unreliable read
    } else {
      polls++;
      const e = evaluate(req, read.snap);
      if (e.kind === 'error') return rejected(ctx, 'wait_until', startedAt, e.code, e.message, extra());
      if (e.kind === 'met') {
        if (heldSince === undefined || heldSignature !== e.signature) {
          heldSince = t;
          heldSignature = e.signature;
        }
        if (t - heldSince >= stableMs)
          return {
            op_id: ctx.opId,
            action: 'wait_until',
            status: 'observed',
            delivery: 'not_delivered',
            timings: { received_at: ctx.receivedAt, started_at: startedAt, ended_at: t },
            ...(e.state ? { after: e.state } : {}),
            ...extra(),
          };
      } else heldSince = undefined;
    }
    const left = deadline - now(ctx);
    if (left <= 0)
      return rejected(
        ctx,
        'wait_until',
        startedAt,
        'TIMEOUT',
        `${req.condition} did not hold within ${req.timeout_ms} ms` +
          (lastError ? `; last read error: ${lastError}` : ''),
        extra(),
      );
    if (!(await pause(ctx, Math.min(LIMITS.pollMs, left)))) return cancelled(ctx, 'wait_until', startedAt, extra());
  }
}
