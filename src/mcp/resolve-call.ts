import type { Selector } from '../core/types.js';
import type { DeviceSession } from './session.js';
import { type Resolved, resolveTarget, type TargetInput } from './targets.js';
import { type ToolOutput, toolError } from './tool.js';

/** A tool's target arguments resolved, or the error answer that says why not. */

export type ResolvedOk = Extract<Resolved, { ok: true }>;

export async function resolveOrFail(
  s: DeviceSession,
  args: Record<string, unknown>,
  opts: { required: boolean },
): Promise<ResolvedOk | ToolOutput> {
  const t: TargetInput = {
    element_id: args.element_id as string | undefined,
    selector: args.selector as Selector | undefined,
    point: args.point as TargetInput['point'],
  };
  const r = await resolveTarget(s, t, opts);
  if (!r.ok)
    return toolError(r.code, r.message, {
      delivery_status: 'not_delivered',
      dispatch_started: false,
      retryable: r.code !== 'INVALID_ARGUMENT',
    });
  return r;
}
