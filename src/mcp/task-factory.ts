import type { AgentDeps } from '../agent/loop.js';
import type { ConfirmVerdict, GuardCheck } from '../agent/ports.js';
import type { AgentEvent } from '../agent/types.js';
import { lockDevice } from '../store/device-lock.js';

/**
 * What the task tools need from the composition root: an agent composed for a launch (the
 * server's own device, or another `--device` / a virtual phone in another language), the lock key
 * of the device it drives, and the launch record kept in the checkpoint for resume.
 */

export interface TaskLaunch {
  device?: string;
  locale?: string;
}

export interface ComposedTask {
  deps: AgentDeps;
  saveMemory(): Promise<void>;
  close(): Promise<void>;
}

export interface TaskFactory {
  runsDir: string;
  lockKey(launch: TaskLaunch): string;
  record(launch: TaskLaunch): Record<string, string>;
  compose(
    launch: TaskLaunch,
    ports: { confirm: (c: GuardCheck) => Promise<ConfirmVerdict>; onEvent: (e: AgentEvent) => void },
  ): Promise<ComposedTask>;
}

/** Hold the launch's device for the whole run, compose, run `body`, keep what it learned, close. */
export async function withAgent<T>(
  factory: TaskFactory,
  opts: {
    launch: TaskLaunch;
    command: string;
    confirm: (c: GuardCheck) => Promise<ConfirmVerdict>;
    onEvent: (e: AgentEvent) => void;
  },
  body: (deps: AgentDeps) => Promise<T>,
): Promise<T> {
  const lock = await lockDevice(factory.lockKey(opts.launch), { command: opts.command });
  try {
    const agent = await factory.compose(opts.launch, { confirm: opts.confirm, onEvent: opts.onEvent });
    try {
      const out = await body(agent.deps);
      await agent.saveMemory();
      return out;
    } finally {
      await agent.close();
    }
  } finally {
    await lock.release();
  }
}
