import type { AgentDeps } from '../agent/loop.js';
import type { AgentEvent } from '../agent/types.js';
import { type ComposeSpec, composeAgent } from '../compose/agent.js';
import type { ConfirmationChannel } from '../executor/guardrails/confirm.js';
import { lockDevice } from '../store/device-lock.js';

/**
 * What the task tools need from the composition root: how to compose an agent for a launch (the
 * server's own device, or another `--device` / a virtual phone in another language) through the
 * one factory (src/compose), the lock key of the device it drives, and the launch record kept in
 * the checkpoint for resume.
 */

export interface TaskLaunch {
  device?: string;
  locale?: string;
}

export interface TaskFactory {
  runsDir: string;
  lockKey(launch: TaskLaunch): string;
  record(launch: TaskLaunch): Record<string, string>;
  /** The factory's spec for this launch, without the run's own ports (consent, events). */
  spec(launch: TaskLaunch): Omit<ComposeSpec, 'confirm' | 'onEvent'>;
  /** After a run on the server's device: what the direct tools knew of the screen is stale. */
  afterRun?(launch: TaskLaunch): void;
}

/** Hold the launch's device for the whole run, compose, run `body`, keep what it learned, close. */
export async function withAgent<T>(
  factory: TaskFactory,
  opts: { launch: TaskLaunch; command: string; confirm: ConfirmationChannel; onEvent: (e: AgentEvent) => void },
  body: (deps: AgentDeps) => Promise<T>,
): Promise<T> {
  const lock = await lockDevice(factory.lockKey(opts.launch), { command: opts.command });
  try {
    const agent = await composeAgent({ ...factory.spec(opts.launch), confirm: opts.confirm, onEvent: opts.onEvent });
    try {
      const out = await body(agent.deps);
      await agent.saveMemory();
      return out;
    } finally {
      await agent.close();
      factory.afterRun?.(opts.launch);
    }
  } finally {
    await lock.release();
  }
}
