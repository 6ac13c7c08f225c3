import type { Clock } from '../core/clock.js';
import type { ErrorCode, Observation, Receipt } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { StepResult } from './executor.js';
import type { Perceiver } from './observe.js';
import type { Outcome } from './validator.js';

/**
 * A skill (a closed loop of gestures and reads, src/tools/) as one pipeline step: its report becomes the receipt
 * (delivered when any gesture was sent), the outcome (ok only when the skill read its own result
 * back) and the step's value (the report). A result it could not read is an error the model must
 * pass on, never a success. The act stage paces and re-checks it as any dispatch (./stage-act.ts),
 * and the verify stage audits what else it changed.
 */

/** A skill's step, before the stages add its guard, consent and target. */
export type SkillStepResult = Omit<StepResult, 'guard' | 'consent' | 'target'>;

/** What a skill hands back: its report, the last screen, its reads. */
export interface SkillResult<R> {
  report: R;
  post?: Observation;
  reads: number;
  /** Whether any input reached the phone. */
  dispatched: boolean;
}

export interface SkillDeps {
  device: Device;
  perceive: Perceiver;
  clock: Clock;
}

export interface SkillRun {
  ok: boolean;
  dispatched: boolean;
  post?: Observation;
  reads: number;
  value: unknown;
  /** Why not ok, with the code: READ_FAILED when the result could not be read, else NO_PROGRESS. */
  error?: { code: ErrorCode; message: string };
  signals: string[];
}

export async function skillStep(
  deps: SkillDeps,
  obs: Observation,
  run: () => Promise<SkillRun>,
): Promise<SkillStepResult> {
  const { clock, device } = deps;
  const startedAt = clock.now();
  const r = await run();
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

/** A skill's report as a run: ok when it reached its target; else uncertain → READ_FAILED, failed → NO_PROGRESS. */
export function reported(
  r: { report: { status: string }; dispatched: boolean; post?: Observation; reads: number },
  message: string,
  signals: string[],
): SkillRun {
  const ok = r.report.status === 'reached';
  return {
    ok,
    dispatched: r.dispatched,
    post: r.post,
    reads: r.reads,
    value: r.report,
    signals,
    ...(ok ? {} : { error: { code: r.report.status === 'uncertain' ? 'READ_FAILED' : 'NO_PROGRESS', message } }),
  };
}

/**
 * A skill tool's whole step: run the skill on the device, then its report as a run, its summary as the
 * message (the model must see what was read and what was not evidence), else "<name> <status>".
 */
export function reportedSkill<R extends { status: string }>(
  deps: SkillDeps,
  obs: Observation,
  skill: (io: { device: Device; perceive: Perceiver }) => Promise<SkillResult<R>>,
  describe: { name: string; summary: (report: R) => string | undefined; signals: string[] },
): Promise<SkillStepResult> {
  return skillStep(deps, obs, async () => {
    const r = await skill({ device: deps.device, perceive: deps.perceive });
    return reported(r, describe.summary(r.report) ?? `${describe.name} ${r.report.status}`, describe.signals);
  });
}
