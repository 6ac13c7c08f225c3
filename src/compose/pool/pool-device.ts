import { type Clock, RealClock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { deviceLockKey } from '../../store/device-lock.js';
import type { VirtualPhone } from '../../testbed/sim/phone.js';
import { type DeviceSpec, openDevice } from '../device.js';

/**
 * One device of a pool: what it is called in progress lines and reports, the device lock it is held
 * under for a task, how an agent connects to it (the one factory's spec), whether it still answers,
 * and — for the virtual phones the pool owns — a fresh world for each task.
 */

export type PoolDeviceKind = 'sim' | 'sim-adb' | 'adb' | 'bridge' | 'stf';

/** A fresh world for the next task: the task's seed and language, on the clock its agent will use. */
export interface WorldReset {
  seed: number;
  locale: 'en' | 'zh';
  clock: Clock;
}

export type Probe = { ok: true } | { ok: false; reason: string };

export interface PoolDevice {
  /** Shown in progress lines and reports: `sim-2`, `sim-adb-1`, a serial, a bridge URL, `stf:SERIAL`. */
  readonly id: string;
  readonly kind: PoolDeviceKind;
  /** The device lock's key (store/device-lock.ts), held for the length of each task. */
  readonly lockKey: string;
  /**
   * Virtual phones the pool serves itself: it owns their world and gives every task a fresh one
   * (`reset`), whose state the suite's checks read. Any other phone's state the pool cannot reset.
   */
  readonly ownsWorld: boolean;
  /**
   * Its worlds live in real time: real phones, and virtual ones given a real phone's latencies (a
   * benchmark of waiting). Otherwise each task's world runs on a virtual clock, as the suite's do.
   */
  readonly realTime: boolean;
  /** Replace the world with a fresh one (only where `ownsWorld`); returns the phone for setup and checks. */
  reset?(w: WorldReset): VirtualPhone;
  /** How an agent connects to it. */
  spec(): DeviceSpec;
  /** Does it still answer over its own transport? A device that does not is quarantined. */
  probe(): Promise<Probe>;
  /** Stop serving it or give it back (virtual phones: their servers; STF: disconnect and release). */
  close(): Promise<void>;
}

/** Connect the way an agent would (no helper discovery, a short deadline), then let go. */
export async function probeSpec(spec: DeviceSpec): Promise<Probe> {
  const plain: DeviceSpec = spec.kind === 'adb' ? { ...spec, discoverHelper: false, helper: undefined } : spec;
  try {
    const opened = await openDevice(plain, { clock: new RealClock(), logger: Logger.silent() });
    await opened.close();
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: errorMessage(e) };
  }
}

export interface AdbServerFlags {
  host?: string;
  port?: number;
}

/** A phone the pool drives but does not serve: no world to reset, real time, nothing to close. */
function foreignDevice(id: string, kind: PoolDeviceKind, lockKey: string, spec: DeviceSpec): PoolDevice {
  return {
    id,
    kind,
    lockKey,
    ownsWorld: false,
    realTime: true,
    spec: () => spec,
    probe: () => probeSpec(spec),
    close: async () => {},
  };
}

/** A phone over adb (a real phone, an emulator). */
export function adbPoolDevice(serial: string, server: AdbServerFlags): PoolDevice {
  return foreignDevice(serial, 'adb', deviceLockKey(serial), {
    kind: 'adb',
    serial,
    host: server.host,
    port: server.port,
  });
}

/** A helper bridge by URL (a phone's helper, or `phone-agent sim --port`). */
export function bridgePoolDevice(url: string, token: string): PoolDevice {
  return foreignDevice(url, 'bridge', deviceLockKey(url), { kind: 'bridge', url, token });
}
