import type { RunArchive } from '../store/run-archive.js';
import type { AgentDeps, RunListener } from './session.js';
import type { StepSummary } from './types.js';

/**
 * What hears the run: the archive writes each step, the progress listener tells the caller, the
 * step log collects the result's summary lines. They hear events (a step's record, the run's end),
 * never the run's state; the checkpoint is not a listener (./session.ts `apply` writes it).
 */

/** steps/NNN.json and the screen the step decided on (steps/NNN.png); final.png at the end. */
export function archiveListener(archive: RunArchive): RunListener {
  return async (e) => {
    if (e.kind === 'step') await archive.writeStep(e.record.step, e.record, e.png);
    else if (e.png) await archive.writeFinal(e.png);
  };
}

export function reportListener(deps: Pick<AgentDeps, 'logger' | 'onEvent'>): RunListener {
  return (e) => {
    if (e.kind === 'finish') {
      deps.onEvent?.({ kind: 'finish', result: e.result });
      return;
    }
    const summary = summaryOf(e.record);
    const { step, source, action, ok, note } = summary;
    deps.logger.info('step', { step, source, action, ok, note });
    deps.onEvent?.({ kind: 'step', max: e.max, summary });
  };
}

export function stepLogListener(log: StepSummary[]): RunListener {
  return (e) => {
    if (e.kind === 'step') log.push(summaryOf(e.record));
  };
}

function summaryOf(r: StepSummary): StepSummary {
  const { step, subgoal, source, action, ok, note, llm, timings } = r;
  return { step, subgoal, source, action, ok, note, llm, timings };
}
