import path from 'node:path';
import { errorMessage } from '../src/core/errors.js';
import { DEFAULT_RUN_MODE, type RunMode } from '../src/core/run-mode.js';
import { LlmEndpointError } from '../src/planner/llm/client.js';
import type { Interruption } from './interruptions.js';
import type { RunRecord } from './metrics.js';
import { ProgressLog } from './progress-log.js';
import type { SuiteModel } from './suite-runner.js';

/**
 * What lets a long suite (a relayed model takes minutes per call) stop and go on: every finished run
 * in `<out>/runs.jsonl` at once (progress-log.ts), and a halt when the model stops answering — its
 * retries used up on a deadline, a lost connection, 5xx or 429 — so the runs after it are not thrown
 * away on a model that is gone. A run that threw is no result: a resumed suite runs it again.
 */

export const RUNS_LOG = 'runs.jsonl';

export const runKey = (task: string, seed: number) => `${task}#${seed}`;

export function openRunLog(
  outDir: string,
  run: { model: SuiteModel; interrupt?: Interruption; mode?: RunMode; resume: boolean },
): Promise<ProgressLog<RunRecord>> {
  const model = run.model.kind === 'reference' ? `reference (noise ${run.model.noise})` : run.model.config.model;
  return ProgressLog.open<RunRecord>(
    path.join(outDir, RUNS_LOG),
    // A Pro suite's header is as before modes, so an unfinished one from then still resumes.
    {
      format: 'suite-progress/1',
      model,
      interrupt: run.interrupt ?? 'none',
      ...(run.mode && run.mode !== DEFAULT_RUN_MODE ? { mode: run.mode } : {}),
    },
    { resume: run.resume, key: (r) => runKey(r.task, r.seed), noun: 'finished run' },
  );
}

/** A run kept from the log: one that finished (a run that threw is run again). */
export function keptRun(r: RunRecord | undefined): RunRecord | undefined {
  return r && r.status !== 'error' ? r : undefined;
}

/** Why the model is gone, when this error says so (a refused request is the run's own failure). */
export function modelUnavailable(e: unknown): string | undefined {
  for (let c: unknown = e; c instanceof Error; c = c.cause) {
    if (!(c instanceof LlmEndpointError)) continue;
    const s = c.failure.status;
    if (s === undefined || s === 429 || s >= 500) return errorMessage(c);
  }
  return undefined;
}

/** The suite's halt: set once, by the first run the model failed; the runs after it are not started. */
export class Halt {
  reason: string | undefined;
  trip(e: unknown): void {
    this.reason ??= modelUnavailable(e);
  }
}
