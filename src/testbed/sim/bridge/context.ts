import type { ErrorCode } from '../../../core/types.js';
import type { ActionName } from '../../../device/protocol/actions.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import type { WireSnapshot } from '../../../device/protocol/wire.js';
import type { InputResult, PhoneSurface } from '../surface.js';

/** What one action execution needs: the phone, its op id, the cancel signal and the receipt clock. */
export interface ExecContext {
  phone: PhoneSurface;
  opId: string;
  signal: AbortSignal;
  receivedAt: number;
}

/** Codes a phone returns before it injects anything: the input certainly did not happen. */
const PRE_DISPATCH: ReadonlySet<ErrorCode> = new Set([
  'NOT_FOUND',
  'AMBIGUOUS',
  'STALE',
  'OCCLUDED',
  'UNSUPPORTED',
  'INVALID_ARGUMENT',
  'OUT_OF_RANGE',
  'NOT_EDITABLE',
  'NO_PROGRESS',
  'UNAVAILABLE',
  'READ_FAILED',
  'BUSY',
]);

export function now(ctx: ExecContext): number {
  return ctx.phone.clock.now();
}

export function base(ctx: ExecContext, action: ActionName, startedAt: number): ActionReceipt {
  return {
    op_id: ctx.opId,
    action,
    status: 'not_started',
    delivery: 'not_delivered',
    timings: { received_at: ctx.receivedAt, started_at: startedAt, ended_at: startedAt },
  };
}

/** A failure before any input: nothing happened, the caller may safely re-observe and retry. */
export function rejected(
  ctx: ExecContext,
  action: ActionName,
  startedAt: number,
  code: ErrorCode,
  message: string,
  extra: Partial<ActionReceipt> = {},
): ActionReceipt {
  const r = base(ctx, action, startedAt);
  return { ...r, ...extra, error: { code, message }, timings: { ...r.timings, ended_at: now(ctx) } };
}

/** The receipt of an input the phone was asked to inject. */
export function fromInput(
  ctx: ExecContext,
  action: ActionName,
  startedAt: number,
  dispatchedAt: number,
  result: InputResult,
  extra: Partial<ActionReceipt> = {},
): ActionReceipt {
  const timings = {
    received_at: ctx.receivedAt,
    started_at: startedAt,
    dispatched_at: dispatchedAt,
    ended_at: now(ctx),
  };
  if (result.ok)
    return {
      op_id: ctx.opId,
      action,
      status: 'completed',
      delivery: 'delivered',
      timings,
      ...extra,
      ...(result.detail ? { detail: result.detail } : {}),
    };
  const sure = PRE_DISPATCH.has(result.code);
  return {
    op_id: ctx.opId,
    action,
    status: sure ? 'not_started' : 'unknown',
    delivery: sure ? 'not_delivered' : 'unknown',
    error: { code: result.code, message: result.message },
    timings,
    ...extra,
  };
}

/** Run one phone input call; a thrown error means the outcome is unknown. */
export async function inject(call: () => Promise<InputResult>): Promise<InputResult> {
  try {
    return await call();
  } catch (e) {
    return { ok: false, code: 'INTERNAL', message: `input failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export type TreeRead = { ok: true; snap: WireSnapshot } | { ok: false; code: ErrorCode; message: string };

/** One tree read; an empty tree is a failed read, never evidence that a node is gone. */
export async function readTree(ctx: ExecContext): Promise<TreeRead> {
  try {
    const snap = await ctx.phone.readTree();
    if (snap.nodes.length === 0)
      return { ok: false, code: 'READ_FAILED', message: 'the tree read returned no nodes (window transition?)' };
    return { ok: true, snap };
  } catch (e) {
    return {
      ok: false,
      code: 'READ_FAILED',
      message: `tree read failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

export function cancelled(ctx: ExecContext, action: ActionName, startedAt: number, extra: Partial<ActionReceipt> = {}) {
  const r = rejected(ctx, action, startedAt, 'CANCELLED', 'the operation was cancelled', extra);
  return { ...r, status: 'cancelled' as const };
}

/** Sleep on the phone's clock; false when cancelled. */
export async function pause(ctx: ExecContext, ms: number): Promise<boolean> {
  try {
    await ctx.phone.clock.sleep(ms, ctx.signal);
    return true;
  } catch {
    return false;
  }
}
