import { randomUUID } from 'node:crypto';
import { type ActionRequest, READ_ONLY_ACTIONS } from '../../../device/protocol/actions.js';
import type { ActionReceipt, CancelResponse } from '../../../device/protocol/receipt.js';

/**
 * Operation bookkeeping: receipts by op id (a resent op id gets the stored receipt, never a second
 * dispatch), cancellation (a cancel that arrives before its op blocks it), and the input lock (one
 * input at a time; an input whose outcome is still open keeps the channel, later ones get BUSY).
 */

const KEEP = 512;

interface Op {
  action: string;
  result: Promise<ActionReceipt>;
  controller: AbortController;
  done: boolean;
}

export class OpRegistry {
  private readonly ops = new Map<string, Op>();
  private readonly preCancelled = new Set<string>();
  private inputOwner: string | undefined;

  newId(): string {
    return randomUUID();
  }

  /** The stored op with this id, if any (for replay). */
  get(opId: string): { action: string; result: Promise<ActionReceipt> } | undefined {
    return this.ops.get(opId);
  }

  /** Consumes a cancel recorded before the op arrived. */
  takeCancelled(opId: string): boolean {
    return this.preCancelled.delete(opId);
  }

  /** Whether `req` must wait for the input channel, and who holds it. */
  busyWith(req: ActionRequest): string | undefined {
    if (READ_ONLY_ACTIONS.has(req.action)) return undefined;
    return this.inputOwner;
  }

  start(
    opId: string,
    req: ActionRequest,
    run: (signal: AbortSignal) => Promise<ActionReceipt>,
  ): Promise<ActionReceipt> {
    const controller = new AbortController();
    const input = !READ_ONLY_ACTIONS.has(req.action);
    if (input) this.inputOwner = opId;
    const op: Op = { action: req.action, controller, done: false, result: Promise.resolve(undefined as never) };
    op.result = run(controller.signal).finally(() => {
      op.done = true;
      if (this.inputOwner === opId) this.inputOwner = undefined;
    });
    this.ops.set(opId, op);
    while (this.ops.size > KEEP) {
      const oldest = this.ops.keys().next().value;
      if (oldest === undefined) break;
      this.ops.delete(oldest);
    }
    return op.result;
  }

  /** Store a receipt decided without running (a cancel that came first), so resends replay it. */
  record(opId: string, action: string, receipt: ActionReceipt): void {
    this.ops.set(opId, { action, controller: new AbortController(), done: true, result: Promise.resolve(receipt) });
  }

  cancel(opId: string): CancelResponse {
    const op = this.ops.get(opId);
    if (!op) {
      this.preCancelled.add(opId);
      if (this.preCancelled.size > KEEP) {
        const oldest = this.preCancelled.values().next().value;
        if (oldest !== undefined) this.preCancelled.delete(oldest);
      }
      return { op_id: opId, state: 'pending' };
    }
    if (op.done) return { op_id: opId, state: 'done' };
    op.controller.abort(new Error('cancelled'));
    return { op_id: opId, state: 'running' };
  }

  abortAll(): void {
    for (const op of this.ops.values()) if (!op.done) op.controller.abort(new Error('server closing'));
  }
}
