import { z } from 'zod';
import {
  ACTION_NAMES,
  type ActionRequest,
  ActionRequestSchema,
  CancelRequestSchema,
} from '../../../device/protocol/actions.js';
import { checkActionGeometry } from '../../../device/protocol/gesture.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import type { PhoneSurface } from '../surface.js';
import type { ExecContext } from './context.js';
import { execute } from './dispatch.js';
import { quoteBrief } from './http.js';
import { OpRegistry } from './ops.js';
import { capabilities } from './snapshot.js';

/**
 * `POST /v3/action` and `POST /v3/cancel`: validation (schema, capabilities, screen geometry — all
 * before any input), op-id replay, pre-recorded cancels, the input lock, then execution.
 */

export interface Answer {
  status: number;
  body: unknown;
  /** For the log: action name, status and error code only. */
  summary: string;
}

function invalid(message: string): Answer {
  return { status: 400, body: { error: { code: 'INVALID_ARGUMENT', message } }, summary: 'invalid' };
}

function actionsOf(req: ActionRequest): string[] {
  return req.action === 'action_sequence' ? ['action_sequence', ...req.actions.map((m) => m.action)] : [req.action];
}

export class V3Handler {
  private readonly ops = new OpRegistry();

  constructor(
    private readonly phone: PhoneSurface,
    /** Capabilities this helper lacks (an older helper, in tests). */
    private readonly omit: readonly string[] = [],
  ) {}

  async action(body: unknown): Promise<Answer> {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return invalid('the body must be a JSON object { "action": …, …params }');
    const name = (body as { action?: unknown }).action;
    if (typeof name !== 'string' || !(ACTION_NAMES as readonly string[]).includes(name))
      return invalid(`unknown action ${quoteBrief(name)}; supported actions: ${ACTION_NAMES.join(', ')}`);
    const parsed = ActionRequestSchema.safeParse(body);
    if (!parsed.success) return invalid(`${name}: ${z.prettifyError(parsed.error)}`);
    const req = parsed.data;
    const geometry = checkActionGeometry(req, this.phone.screen());
    if (!geometry.ok) return invalid(geometry.message);

    const opId = req.op_id ?? this.ops.newId();
    const receivedAt = this.phone.clock.now();
    const reject = (code: 'UNSUPPORTED' | 'CANCELLED' | 'BUSY', message: string): Answer => {
      const receipt: ActionReceipt = {
        op_id: opId,
        action: req.action,
        status: code === 'CANCELLED' ? 'cancelled' : 'not_started',
        delivery: 'not_delivered',
        error: { code, message },
        timings: { received_at: receivedAt, started_at: receivedAt, ended_at: receivedAt },
      };
      return { status: 200, body: receipt, summary: `${req.action} ${code}` };
    };

    const caps = new Set(capabilities(this.phone, this.omit));
    const guarded = 'guard' in req && req.guard !== undefined ? ['guarded_touch'] : [];
    const missing = [...actionsOf(req), ...guarded].find((a) => !caps.has(a));
    if (missing) return reject('UNSUPPORTED', `this helper does not support ${missing} (see hello.capabilities)`);

    const seen = this.ops.get(opId);
    if (seen) {
      if (seen.action !== req.action) return invalid(`op_id ${opId} was already used for ${seen.action}`);
      const receipt = await seen.result;
      return { status: 200, body: { ...receipt, replayed: true }, summary: `${req.action} replayed` };
    }
    if (this.ops.takeCancelled(opId)) {
      const answer = reject('CANCELLED', 'this op_id was cancelled before it arrived');
      this.ops.record(opId, req.action, answer.body as ActionReceipt);
      return answer;
    }
    const owner = this.ops.busyWith(req);
    if (owner)
      return reject('BUSY', `another input (op ${owner}) is still in progress; wait for its receipt, then re-observe`);

    const receipt = await this.ops.start(opId, req, (signal) => {
      const ctx: ExecContext = { phone: this.phone, opId, signal, receivedAt };
      return execute(ctx, req);
    });
    return {
      status: 200,
      body: receipt,
      summary: `${req.action} ${receipt.status}${receipt.error ? ` ${receipt.error.code}` : ''}`,
    };
  }

  cancel(body: unknown): Answer {
    const parsed = CancelRequestSchema.safeParse(body);
    if (!parsed.success) return invalid(z.prettifyError(parsed.error));
    return { status: 200, body: this.ops.cancel(parsed.data.op_id), summary: 'cancel' };
  }

  abortAll(): void {
    this.ops.abortAll();
  }
}
