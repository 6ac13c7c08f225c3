import { counters, type Session, type StepListener } from './session.js';
import type { RunResult, RunStatus, StepRecord } from './types.js';

/**
 * What hears the run: the archive writes each step, the checkpoint keeps what a resume needs, the
 * progress listener tells the caller. The step itself only emits its record (../step.ts).
 */

/** steps/NNN.json and the screen the step decided on (steps/NNN.png). */
export const archiveStep: StepListener = async (s, record, png) => {
  await s.archive.writeStep(record.step, record, png);
};

/** The durable copy of the session after every step. */
export const checkpointStep: StepListener = async (s, record, png) => {
  await s.checkpoint.save({
    subgoals: s.plan,
    current: s.current,
    step: record.step,
    lastPageHash: s.cur.obs.pageHash,
    lastScreenshot: png ? s.archive.pngPath(record.step) : undefined,
    history: s.mem.history.all().slice(-20),
    blacklist: s.mem.blacklist.toJSON(),
    bannedAs: s.mem.blacklist.shownJSON(),
    completion: s.mem.completion.toJSON(),
    notes: s.mem.notes.length ? s.mem.notes : undefined,
    taskApps: s.mem.taskApps.size ? [...s.mem.taskApps] : undefined,
    approval: s.mem.approval,
    irreversibleDone: s.mem.alreadyDone.size ? [...s.mem.alreadyDone] : undefined,
    usage: s.total,
    counters: counters(s),
    // A journaled intent is cleared in the same write that records its result, so a kill can
    // never leave the result unrecorded and the intent gone.
    intent: undefined,
    updatedAt: s.deps.clock.now(),
  });
};

export const reportStep: StepListener = async (s, record) => {
  const { step, subgoal, source, action, ok, note, llm, timings } = record;
  s.deps.logger.info('step', { step, source, action, ok, note });
  s.deps.onEvent?.({
    kind: 'step',
    max: s.run.maxSteps,
    summary: { step, subgoal, source, action, ok, note, llm, timings },
  });
};

export const DEFAULT_LISTENERS: StepListener[] = [archiveStep, checkpointStep, reportStep];

export async function emitStep(s: Session, record: StepRecord, png: Buffer | undefined): Promise<void> {
  const { step, subgoal, source, action, ok, note, llm, timings } = record;
  s.result.stepLog.push({ step, subgoal, source, action, ok, note, llm, timings });
  for (const l of s.listeners) await l(s, record, png);
}

/** End the run: remember a plan that carried it through, close the plan, save the status, tell the listener. */
export async function finish(
  s: Session,
  status: RunStatus,
  extra: { answer?: string; reason?: string } = {},
): Promise<RunResult> {
  if (status === 'done') for (const p of s.plan) p.done = true;
  if ((status === 'done' || status === 'ask_user') && s.current >= s.plan.length - 1)
    s.deps.memory.rememberPlan(
      s.run.goal,
      s.plan.map((p) => p.text),
    );
  if (status === 'done') s.current = s.plan.length;
  Object.assign(s.result, { status, llm: s.total, ...extra });
  if (s.cur.png) await s.archive.writeFinal(s.cur.png);
  await s.checkpoint.save({
    status,
    answer: extra.answer,
    reason: extra.reason,
    subgoals: s.plan,
    current: s.current,
    usage: s.total,
    counters: counters(s),
    updatedAt: s.deps.clock.now(),
  });
  s.deps.onEvent?.({ kind: 'finish', result: s.result });
  return s.result;
}
