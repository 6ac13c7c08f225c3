import type { Clock, Deadline } from '../core/clock.js';
import type { Action, Element, ErrorCode, Observation, Receipt } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { StepResult } from './executor.js';
import type { Perceiver } from './observe.js';
import type { ActionGap } from './pacing.js';
import { seekSummary, seekTimeline } from './seek-timeline.js';
import { setSlider, sliderSummary } from './set-slider.js';
import type { Outcome } from './validator.js';

/**
 * A skill (seek_timeline, set_slider) as one pipeline step: its report becomes the receipt
 * (delivered when any gesture was sent), the outcome (ok only when the skill read its own result
 * back) and the step's value (the report). A result it could not read is an error the model must
 * pass on, never a success. The pacing gap is waited out first and counts again from the skill's
 * end, as for any dispatch.
 */

export interface SkillDeps {
  device: Device;
  perceive: Perceiver;
  clock: Clock;
  gap: ActionGap;
}

interface SkillRun {
  ok: boolean;
  dispatched: boolean;
  post?: Observation;
  reads: number;
  value: unknown;
  /** Why not ok, with the code: READ_FAILED when the result could not be read, else NO_PROGRESS. */
  error?: { code: ErrorCode; message: string };
  signals: string[];
}

async function skillStep(
  deps: SkillDeps,
  obs: Observation,
  d: Deadline,
  run: () => Promise<SkillRun>,
): Promise<Omit<StepResult, 'guard' | 'consent' | 'target'>> {
  const { clock, device } = deps;
  await deps.gap.wait(d);
  const startedAt = clock.now();
  const r = await run();
  deps.gap.dispatched();
  const receipt: Receipt = {
    status: !r.dispatched ? 'observed' : r.ok ? 'completed' : 'partial',
    delivery: r.dispatched ? 'delivered' : 'not_delivered',
    method: device.capabilities().backend === 'adb' ? 'adb' : 'bridge',
    timings: { startedAt, endedAt: clock.now() },
    pre: { pageHash: obs.pageHash, seq: obs.seq, frameHash: obs.frameHash },
    post: r.post ? { pageHash: r.post.pageHash, seq: r.post.seq, frameHash: r.post.frameHash } : undefined,
    ...(r.error ? { error: r.error } : {}),
  };
  const outcome: Outcome = { ok: r.ok, signals: r.ok ? r.signals : [], reason: r.error?.message, unchanged: false };
  return {
    ok: r.ok,
    receipt,
    outcome,
    post: r.post,
    value: r.value,
    changes: [],
    reads: r.reads,
    error: r.error?.message,
  };
}

/** seek_timeline: the readout reached the target and agreed with the scale. */
export function seekStep(deps: SkillDeps, a: Action, obs: Observation, timeline: Element, d: Deadline) {
  return skillStep(deps, obs, d, async () => {
    const r = await seekTimeline(
      { device: deps.device, perceive: deps.perceive },
      { timeline, target: String(a.args?.time ?? a.text ?? ''), obs },
      d,
    );
    const rep = r.report;
    const ok = rep.status === 'reached';
    // The whole report on failure: the model must see what was read and what was not evidence.
    const message = seekSummary(rep) ?? `seek_timeline ${rep.status}`;
    return {
      ok,
      dispatched: r.dispatched,
      post: r.post,
      reads: r.reads,
      value: rep,
      signals: ['readout_stable', 'scale_consistent'],
      ...(ok ? {} : { error: { code: rep.status === 'uncertain' ? 'READ_FAILED' : 'NO_PROGRESS', message } }),
    };
  });
}

/** set_slider: the value read back (tree or frame) is within the tolerance of the one asked. */
export function sliderStep(deps: SkillDeps, a: Action, obs: Observation, slider: Element, d: Deadline) {
  return skillStep(deps, obs, d, async () => {
    const r = await setSlider(
      { device: deps.device, perceive: deps.perceive },
      { slider, percent: Number(a.args?.value), obs },
      d,
    );
    const rep = r.report;
    const ok = rep.status === 'reached';
    const message = sliderSummary(rep) ?? `set_slider ${rep.status}`;
    return {
      ok,
      dispatched: r.dispatched,
      post: r.post,
      reads: r.reads,
      value: rep,
      signals: ['value_read_back'],
      ...(ok ? {} : { error: { code: rep.status === 'uncertain' ? 'READ_FAILED' : 'NO_PROGRESS', message } }),
    };
  });
}
