import type { DevicePool } from '../src/compose/pool/pool.js';
import type { PoolDevice, Probe } from '../src/compose/pool/pool-device.js';
import { ActionableError, errorMessage } from '../src/core/errors.js';
import { type DeviceLock, lockDevice } from '../src/store/device-lock.js';
import type { RunRecord } from './metrics.js';
import type { TaskDef } from './types.js';

/**
 * The suite over a device pool: one worker per device, each holding its device under the device lock
 * for one task at a time, tasks handed out in order. While a task runs, its device is probed now and
 * then over its own transport (a heartbeat): a device that stops answering — the run threw and the
 * probe fails, or the heartbeat misses twice while the run waits on a socket that never answers — is
 * quarantined, and its task retried once on another device and reported as retried. With no device
 * left, the tasks still waiting are recorded as errors: the suite always finishes.
 */

export interface Job {
  /** Position in the suite's order (tasks × seeds): the merged report keeps it. */
  index: number;
  task: TaskDef;
  seed: number;
  /** Set on the second attempt: the device the first one died on, and how. */
  retriedFrom?: { device: string; reason: string };
}

export interface DeviceUsage {
  id: string;
  kind: string;
  /** The pool owns its world (a virtual phone): every run there started fresh and was checked. */
  ownsWorld: boolean;
  runs: number;
  /** Real time it held a task (ms), and that over the suite's wall time. */
  busyMs: number;
  busyShare: number;
  quarantined?: string;
}

export interface Retry {
  task: string;
  seed: number;
  from: string;
  reason: string;
  /** The device the retry ran on (absent when none was left). */
  to?: string;
}

export interface PoolOutcome {
  records: RunRecord[];
  devices: DeviceUsage[];
  retries: Retry[];
}

export interface PoolRunOptions {
  /** Run one job on one device; a throw is the job's own error (the caller turns it into a record). */
  run: (job: Job, device: PoolDevice) => Promise<RunRecord>;
  /** The record of a job that never got to finish (its device died twice, or none was left). */
  lost: (job: Job, reason: string, wallMs: number) => RunRecord;
  progress?: (line: string) => void;
  /** The progress line of a finished run (default: its status). */
  describe?: (r: RunRecord) => string;
  /** How often a busy device is probed, how long a probe may take, how many misses make it dead. */
  heartbeat?: Heartbeat;
  /** The device lock's command line (who holds it). */
  command: string;
}

export interface Heartbeat {
  everyMs: number;
  timeoutMs: number;
  misses: number;
}

export const DEFAULT_HEARTBEAT: Heartbeat = { everyMs: 15_000, timeoutMs: 10_000, misses: 2 };

/** Wakes the workers waiting for a retry to be queued or the last job in flight to end. */
class Signal {
  private waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((ok) => this.waiters.push(ok));
  }
  notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const ok of w) ok();
  }
}

type Outcome = { kind: 'done'; record: RunRecord } | { kind: 'hung'; reason: string };

const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms).unref());

/** A probe that takes longer than `ms` is a miss. */
async function probeWithin(device: PoolDevice, ms: number): Promise<Probe> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Probe>((ok) => {
    timer = setTimeout(() => ok({ ok: false, reason: `no answer to a probe within ${ms / 1000} s` }), ms);
  });
  try {
    return await Promise.race([device.probe(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probe the device every `everyMs` while `running()`; resolves `hung` after `misses` probes in a row
 * failed, and never otherwise (the caller races it against the run and stops it with `running`).
 */
async function heartbeat(device: PoolDevice, hb: Heartbeat, running: () => boolean): Promise<Outcome> {
  let missed = 0;
  for (;;) {
    await sleep(hb.everyMs);
    if (!running()) return new Promise<Outcome>(() => {});
    const p = await probeWithin(device, hb.timeoutMs);
    missed = p.ok ? 0 : missed + 1;
    if (!p.ok && missed >= hb.misses) return { kind: 'hung', reason: p.reason };
  }
}

const label = (j: Job) => `${j.task.id}#${j.seed}`;

export class PoolScheduler {
  private readonly queue: Job[];
  private readonly records: (RunRecord | undefined)[];
  private readonly busyMs = new Map<string, number>();
  private readonly runs = new Map<string, number>();
  private readonly retries: Retry[] = [];
  private readonly changed = new Signal();
  private inFlight = 0;

  constructor(
    private readonly pool: DevicePool,
    jobs: readonly Job[],
    private readonly opts: PoolRunOptions,
  ) {
    this.queue = [...jobs];
    this.records = jobs.map(() => undefined);
  }

  async run(): Promise<PoolOutcome> {
    const t0 = performance.now();
    await Promise.all(this.pool.usable().map((d) => this.worker(d)));
    // Every device is quarantined: what still waits is lost, not hanging.
    for (const job of this.queue.splice(0)) this.lose(job, 'no device left in the pool to run it on');
    const wallMs = performance.now() - t0;
    return {
      records: this.records.filter((r): r is RunRecord => r !== undefined),
      devices: this.pool.devices.map((d) => {
        const busy = this.busyMs.get(d.id) ?? 0;
        return {
          id: d.id,
          kind: d.kind,
          ownsWorld: d.ownsWorld,
          runs: this.runs.get(d.id) ?? 0,
          busyMs: busy,
          busyShare: wallMs > 0 ? busy / wallMs : 0,
          ...(this.pool.quarantineReason(d) ? { quarantined: this.pool.quarantineReason(d) } : {}),
        };
      }),
      retries: this.retries,
    };
  }

  private say(device: PoolDevice, line: string): void {
    this.opts.progress?.(`[${device.id}] ${line}`);
  }

  private lose(job: Job, reason: string): void {
    this.records[job.index] = {
      ...this.opts.lost(job, reason, 0),
      ...(job.retriedFrom ? { retriedFrom: job.retriedFrom } : {}),
    };
  }

  /** The next job, or undefined once nothing is queued or in flight (a retry may still come). */
  private async next(device: PoolDevice): Promise<Job | undefined> {
    for (;;) {
      if (this.pool.quarantineReason(device)) return undefined;
      const job = this.queue.shift();
      if (job) {
        this.inFlight++;
        return job;
      }
      if (this.inFlight === 0) return undefined;
      await this.changed.wait();
    }
  }

  private async worker(device: PoolDevice): Promise<void> {
    for (;;) {
      const job = await this.next(device);
      if (!job) return;
      this.say(device, `${label(job)} started${job.retriedFrom ? ` (retry; ${job.retriedFrom.device} died)` : ''}`);
      try {
        const lock = await this.lock(device, job);
        if (!lock) return;
        await this.attempt(job, device, lock);
      } finally {
        this.inFlight--;
        this.changed.notify();
      }
    }
  }

  private async lock(device: PoolDevice, job: Job): Promise<DeviceLock | undefined> {
    try {
      return await lockDevice(device.lockKey, { command: `${this.opts.command} ${label(job)}` });
    } catch (e) {
      if (!(e instanceof ActionableError && e.code === 'BUSY')) throw e;
      // Someone else drives it now: it gets no more of the suite's work, the job goes to another.
      this.pool.quarantine(device, errorMessage(e));
      this.queue.unshift(job);
      this.say(device, `quarantined: ${errorMessage(e)}`);
      return undefined;
    }
  }

  private async attempt(job: Job, device: PoolDevice, lock: DeviceLock): Promise<void> {
    const t0 = performance.now();
    let running = true;
    let out: Outcome;
    try {
      const run = this.opts.run(job, device).then((record): Outcome => ({ kind: 'done', record }));
      // A run abandoned to a hung device must not surface as an unhandled rejection later.
      run.catch(() => {});
      out = await Promise.race([run, heartbeat(device, this.opts.heartbeat ?? DEFAULT_HEARTBEAT, () => running)]);
    } catch (e) {
      out = { kind: 'done', record: this.opts.lost(job, errorMessage(e), performance.now() - t0) };
    } finally {
      running = false;
      this.busyMs.set(device.id, (this.busyMs.get(device.id) ?? 0) + (performance.now() - t0));
      await lock.release();
    }
    const dead: Probe =
      out.kind === 'hung'
        ? { ok: false, reason: out.reason }
        : out.record.status === 'error'
          ? await device.probe()
          : { ok: true };
    if (!dead.ok) {
      this.pool.quarantine(device, dead.reason);
      this.say(device, `quarantined: ${dead.reason}`);
      await device.close().catch(() => {});
      if (!job.retriedFrom) {
        this.retries.push({ task: job.task.id, seed: job.seed, from: device.id, reason: dead.reason });
        // First in line: the next free device takes it.
        this.queue.unshift({ ...job, retriedFrom: { device: device.id, reason: dead.reason } });
        return;
      }
    }
    const record =
      out.kind === 'hung'
        ? this.opts.lost(job, `the device ${device.id} stopped answering: ${out.reason}`, performance.now() - t0)
        : out.record;
    if (job.retriedFrom) {
      const r = this.retries.find((x) => x.task === job.task.id && x.seed === job.seed && x.to === undefined);
      if (r) r.to = device.id;
    }
    this.runs.set(device.id, (this.runs.get(device.id) ?? 0) + 1);
    this.records[job.index] = {
      ...record,
      device: device.id,
      ...(job.retriedFrom ? { retriedFrom: job.retriedFrom } : {}),
    };
    this.say(device, `${label(job)}: ${this.opts.describe?.(record) ?? record.status}`);
  }
}
