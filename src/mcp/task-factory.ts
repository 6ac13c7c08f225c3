import type { AgentDeps } from '../agent/loop.js';
import type { TaskSettings } from '../agent/task-settings.js';
import type { AgentEvent } from '../agent/types.js';
import { type ComposeSpec, composeAgent } from '../compose/agent.js';
import type { ConfirmationChannel } from '../executor/guardrails/confirm.js';

/**
 * What the task tools need from the composition root: a device for a launch — the server's own, a
 * free one of its pool (`any`), a pool device by id, or another `--device` / a virtual phone in
 * another language — held under its device lock for the run, with the factory's spec (src/compose)
 * to compose an agent on it and the launch record kept in the checkpoint for resume.
 */

export interface TaskLaunch {
  device?: string;
  locale?: string;
}

/** A device held for one run. */
export interface TakenDevice {
  /** What the run drives, for results and the launch record: `--device` value or pool id. */
  device: string;
  /** The factory's spec for this run, without the run's own ports (consent, events). */
  spec: Omit<ComposeSpec, 'confirm' | 'onEvent'>;
  record: Record<string, string>;
  /** Let go of the device lock (and nothing else: the pool or the server owns the device). */
  release(): Promise<void>;
}

export interface TaskFactory {
  runsDir: string;
  /** The knowledge store explore_app writes each app's entry into (none: `--no-knowledge`). */
  knowledgeDir?: string;
  /** The task settings of mobile_run_task's runs (default: DEFAULT_TASK_SETTINGS). */
  settings?: TaskSettings;
  /** Take the launch's device under its lock; BUSY when it (or every pool device) is driven now. */
  take(launch: TaskLaunch, command: string): Promise<TakenDevice>;
  /** After a run on the server's device: what the direct tools knew of the screen is stale. */
  afterRun?(launch: TaskLaunch): void;
}

/** Hold the launch's device for the whole run, compose, run `body`, keep what it learned, close. */
export async function withAgent<T>(
  factory: TaskFactory,
  opts: { launch: TaskLaunch; command: string; confirm: ConfirmationChannel; onEvent: (e: AgentEvent) => void },
  body: (deps: AgentDeps, taken: TakenDevice) => Promise<T>,
): Promise<T> {
  const taken = await factory.take(opts.launch, opts.command);
  try {
    const agent = await composeAgent({ ...taken.spec, confirm: opts.confirm, onEvent: opts.onEvent });
    try {
      const out = await body(agent.deps, taken);
      await agent.saveMemory();
      return out;
    } finally {
      await agent.close();
      factory.afterRun?.(opts.launch);
    }
  } finally {
    await taken.release();
  }
}
