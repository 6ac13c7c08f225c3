import type { ActionRequest, ActionSequenceRequest, SequenceMember } from '../../../device/protocol/actions.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import { cancelled, type ExecContext, now } from './context.js';
import { runInput } from './input-actions.js';
import { controlAction, readControl, setText } from './native-actions.js';
import { scrollTo } from './scroll-to.js';
import { waitUntil } from './wait-actions.js';

/** Runs one validated request (schema and geometry already checked) and returns its receipt. */
export function execute(ctx: ExecContext, req: ActionRequest): Promise<ActionReceipt> {
  switch (req.action) {
    case 'read_control':
      return readControl(ctx, req);
    case 'control_action':
      return controlAction(ctx, req.request);
    case 'set_text':
      return setText(ctx, req);
    case 'wait_until':
      return waitUntil(ctx, req);
    case 'scroll_to':
      return scrollTo(ctx, req);
    case 'action_sequence':
      return runSequence(ctx, req);
    default:
      return runInput(ctx, req);
  }
}

function ok(r: ActionReceipt): boolean {
  return !r.error && (r.status === 'completed' || r.status === 'observed');
}

/**
 * Members run in order; the first failure stops the rest. The receipts of everything that ran —
 * completed and unknown alike — are kept, so the caller never resends the whole group.
 */
async function runSequence(ctx: ExecContext, req: ActionSequenceRequest): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  const members: ActionReceipt[] = [];
  let failed: ActionReceipt | undefined;
  let failedAt = -1;
  for (const [i, m] of req.actions.entries()) {
    const sub: ExecContext = { ...ctx, opId: `${ctx.opId}#${i}` };
    if (ctx.signal.aborted) {
      failed = cancelled(sub, m.action, now(ctx));
      failedAt = i;
      break;
    }
    const r = await execute(sub, m as SequenceMember);
    members.push(r);
    if (!ok(r)) {
      failed = r;
      failedAt = i;
      break;
    }
  }
  const delivered = members.some((r) => r.delivery === 'delivered');
  const unsure = members.some((r) => r.delivery === 'unknown');
  let status: ActionReceipt['status'] = 'completed';
  if (failed) {
    if (failed.status === 'cancelled') status = 'cancelled';
    else if (failed.status === 'unknown') status = 'unknown';
    else status = members.length > 1 || delivered ? 'partial' : 'not_started';
  }
  const dispatched = members.find((r) => r.timings.dispatched_at !== undefined)?.timings.dispatched_at;
  return {
    op_id: ctx.opId,
    action: 'action_sequence',
    status,
    delivery: delivered ? 'delivered' : unsure ? 'unknown' : 'not_delivered',
    timings: {
      received_at: ctx.receivedAt,
      started_at: startedAt,
      ...(dispatched !== undefined ? { dispatched_at: dispatched } : {}),
      ended_at: now(ctx),
    },
    members,
    ...(failed?.error
      ? { error: { code: failed.error.code, message: `actions[${failedAt}]: ${failed.error.message}` } }
      : {}),
  };
}
