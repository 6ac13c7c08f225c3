import { ActionableError } from './errors.js';

/**
 * How a task run is driven (issue 25): three configurations of one loop over one action set.
 * - `flash`: short, familiar tasks — no separate plan call, page-memory replay first, bursts of
 *   certain actions; hands over to `pro` in the same run when it fails an expectation twice or loops.
 * - `pro`: the ordinary loop — a plan, then one verified step at a time.
 * - `explore`: learns an app without a task (its own command).
 * Guardrails are the same in every mode.
 */
export const RUN_MODES = ['flash', 'pro', 'explore'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** The modes that run a task (`run`, the suite, `mobile_run_task`); explore has its own entry. */
export const TASK_MODES = ['flash', 'pro'] as const satisfies readonly RunMode[];

/** What a run without a mode (an older checkpoint, a caller that names none) runs as. */
export const DEFAULT_RUN_MODE: RunMode = 'pro';

export function isRunMode(v: unknown): v is RunMode {
  return typeof v === 'string' && (RUN_MODES as readonly string[]).includes(v);
}

/** A mode from a flag or an argument (`where` names it), or an error listing the modes. */
export function parseRunMode(value: string | undefined, where: string): RunMode {
  if (value === undefined) return DEFAULT_RUN_MODE;
  if (isRunMode(value)) return value;
  throw new ActionableError('USAGE', `${where} "${value}" is not a mode`, `pass one of ${RUN_MODES.join(', ')}`);
}
