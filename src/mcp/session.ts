import type { Clock } from '../core/clock.js';
import { ActionableError } from '../core/errors.js';
import type { Observation } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { Executor } from '../executor/executor.js';
import type { GuardConfig } from '../executor/guardrails/guard.js';
import { lockDevice } from '../store/device-lock.js';
import { McpConsent } from './consent.js';
import { Revisions } from './revisions.js';

/**
 * The server's hold on its one device: the executor composed for it (src/compose `composePorts`,
 * the agent's own configuration and perceiver) for every direct tool, with the MCP consent channel
 * per call; the snapshot revisions for deltas; and the device lock each driver takes for the length
 * of its call — a task run for the whole run, a direct tool for one action.
 */

export interface DeviceSessionDeps {
  device: Device;
  /** The device's executor, from its composed ports. */
  executor: Executor;
  /** The `--device` value the server was started with (shown to clients). */
  deviceId: string;
  /** The device lock's key (store/device-lock.ts `deviceLockKey`). */
  lockKey: string;
  clock: Clock;
  /** The guard the executor was composed with (observe marks the taps it holds). */
  guard?: GuardConfig;
}

export interface Observed {
  obs: Observation;
  revision: number;
  png?: Buffer;
}

export class DeviceSession {
  readonly executor: Executor;
  readonly consent = new McpConsent();
  readonly revisions: Revisions;
  /** The servers' list syncs (one per client connection), run after every device call. */
  private readonly listeners = new Set<() => void>();

  constructor(readonly deps: DeviceSessionDeps) {
    this.revisions = new Revisions(deps.clock);
    this.executor = deps.executor;
  }

  /** Call `fn` whenever the device may have changed what it can do; returns the unsubscribe. */
  onDeviceChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** After a call on the device: every listener checks the device's capabilities again. */
  checkDevice(): void {
    for (const fn of this.listeners) fn();
  }

  /** Run `fn` holding the device; a second driver (here or in another process) gets BUSY. */
  async locked<T>(command: string, fn: () => Promise<T>): Promise<T> {
    const lock = await lockDevice(this.deps.lockKey, { command });
    try {
      return await fn();
    } finally {
      await lock.release();
    }
  }

  /** A fresh observation, kept as a new revision. */
  async observe(opts: { screenshot?: boolean; timeoutMs?: number } = {}): Promise<Observed> {
    const prev = this.revisions.latest()?.obs;
    const r = await this.executor.observe(prev, opts);
    if (!r.ok)
      throw new ActionableError(
        r.code,
        `could not read the screen of ${this.deps.deviceId}: ${r.message}`,
        'check the device connection and call observe again',
      );
    return { obs: r.obs, revision: this.revisions.add(r.obs), png: r.screenshot?.png };
  }

  /** Keep an observation the executor made (its post-action read) as a revision. */
  keep(obs: Observation): number {
    return this.revisions.add(obs);
  }

  /** The newest observation, read now when there is none yet. */
  async current(): Promise<Observed> {
    const l = this.revisions.latest();
    return l ? { obs: l.obs, revision: l.revision } : this.observe();
  }
}
