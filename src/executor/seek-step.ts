import type { Clock, Deadline } from '../core/clock.js';
import type { Action, Element, Observation, Receipt } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { StepResult } from './executor.js';
import type { Perceiver } from './observe.js';
import type { ActionGap } from './pacing.js';
import { seekSummary, seekTimeline } from './seek-timeline.js';
import type { Outcome } from './validator.js';

/**
 * seek_timeline as one pipeline step: the skill's report becomes the receipt (delivered when any
 * gesture was sent), the outcome (ok only when the readout reached the target and agreed with the
 * scale) and the step's value (the report: residual, evidence, what was not evidence). An
 * uncertain result is an error the model must pass on, never a success. The pacing gap is waited
 * out first and counts again from the skill's end, as for any dispatch.
 */
export async function seekStep(
  deps: { device: Device; perceive: Perceiver; clock: Clock; gap: ActionGap },
  a: Action,
  obs: Observation,
  timeline: Element,
  d: Deadline,
): Promise<Omit<StepResult, 'guard' | 'consent' | 'target'>> {
  const { clock, device } = deps;
  await deps.gap.wait(d);
  const startedAt = clock.now();
  const r = await seekTimeline(
    { device, perceive: deps.perceive },
    { timeline, target: String(a.args?.time ?? a.text ?? ''), obs },
    d,
  );
  deps.gap.dispatched();
  const rep = r.report;
  const ok = rep.status === 'reached';
  // The whole report on failure: the model must see what was read and what was not evidence.
  const error = ok ? undefined : (seekSummary(rep) ?? `seek_timeline ${rep.status}`);
  const receipt: Receipt = {
    status: !r.dispatched ? 'observed' : ok ? 'completed' : 'partial',
    delivery: r.dispatched ? 'delivered' : 'not_delivered',
    method: device.capabilities().backend === 'adb' ? 'adb' : 'bridge',
    timings: { startedAt, endedAt: clock.now() },
    pre: { pageHash: obs.pageHash, seq: obs.seq, frameHash: obs.frameHash },
    post: r.post ? { pageHash: r.post.pageHash, seq: r.post.seq, frameHash: r.post.frameHash } : undefined,
    ...(error ? { error: { code: rep.status === 'uncertain' ? 'READ_FAILED' : 'NO_PROGRESS', message: error } } : {}),
  };
  const outcome: Outcome = {
    ok,
    signals: ok ? ['readout_stable', 'scale_consistent'] : [],
    reason: error,
    unchanged: false,
  };
  return { ok, receipt, outcome, post: r.post, value: rep, changes: [], reads: r.reads, error };
}
