import { ActionableError, errorMessage } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { type PrivateAdbServer, startPrivateAdbServer } from '../../device/adb/server.js';
import { type DeviceLock, lockDevice } from '../../store/device-lock.js';
import type { PoolEntry } from './devices-arg.js';
import { type AdbServerFlags, adbPoolDevice, bridgePoolDevice, type PoolDevice } from './pool-device.js';
import { type SimDeviceOptions, simAdbDevice, simBridgeDevice } from './sim-devices.js';

/**
 * A set of devices that tasks are run on, one task per device at a time, each under the device lock
 * (store/device-lock.ts) for the length of the task. A device that stops answering is quarantined:
 * it is given no more work. The suite hands tasks out per device (regression-tasks/suite-pool.ts);
 * the MCP server takes any free one per task.
 */

/** What opening the devices of `--devices` needs besides the list. */
export interface PoolOptions {
  /** The helper bridges' token (`--token` / ANDROID_BRIDGE_TOKEN). */
  token?: string;
  /** The adb server that serials (and farm endpoints) are reached through. */
  adb?: AdbServerFlags;
  sim?: SimDeviceOptions;
  /** Devices from a farm (`stf[:N]`); see compose/stf-pool.ts. */
  farm?: (entry: Extract<PoolEntry, { kind: 'stf' }>) => Promise<PoolDevice[]>;
  logger?: Logger;
}

export interface HeldDevice {
  device: PoolDevice;
  lock: DeviceLock;
}

export class DevicePool {
  private readonly out = new Map<string, string>();

  constructor(
    readonly devices: readonly PoolDevice[],
    private readonly closers: readonly (() => Promise<void>)[] = [],
  ) {}

  get(id: string): PoolDevice | undefined {
    return this.devices.find((d) => d.id === id);
  }

  /** Give the device no more work; the reason goes into the report. */
  quarantine(device: PoolDevice, reason: string): void {
    if (!this.out.has(device.id)) this.out.set(device.id, reason);
  }

  quarantineReason(device: PoolDevice): string | undefined {
    return this.out.get(device.id);
  }

  quarantined(): { id: string; reason: string }[] {
    return [...this.out].map(([id, reason]) => ({ id, reason }));
  }

  usable(): PoolDevice[] {
    return this.devices.filter((d) => !this.out.has(d.id));
  }

  /**
   * The named device, or the first free one, under its device lock. BUSY (an ActionableError) when
   * it — or every usable device — is driven by someone else or quarantined.
   */
  async acquire(opts: { id?: string; command: string }): Promise<HeldDevice> {
    if (opts.id !== undefined) {
      const device = this.get(opts.id);
      if (!device)
        throw new ActionableError(
          'USAGE',
          `no device ${opts.id} in the pool`,
          `pick one of ${this.devices.map((d) => d.id).join(', ')}, or "any"`,
        );
      const why = this.out.get(device.id);
      if (why)
        throw new ActionableError('BUSY', `device ${device.id} is quarantined: ${why}`, 'pick another, or "any"');
      return { device, lock: await lockDevice(device.lockKey, { command: opts.command }) };
    }
    const busy: string[] = [];
    for (const device of this.usable()) {
      try {
        return { device, lock: await lockDevice(device.lockKey, { command: opts.command }) };
      } catch (e) {
        if (!(e instanceof ActionableError && e.code === 'BUSY')) throw e;
        busy.push(device.id);
      }
    }
    const out = this.quarantined();
    throw new ActionableError(
      'BUSY',
      `no free device in the pool: ${[
        busy.length ? `${busy.join(', ')} busy` : '',
        out.length ? `${out.map((q) => q.id).join(', ')} quarantined` : '',
      ]
        .filter(Boolean)
        .join('; ')}`,
      'wait for a task to finish and try again',
    );
  }

  /** Stop every device the pool serves or holds (a farm's are released), then its adb server. */
  async close(): Promise<void> {
    for (const d of this.devices) await d.close().catch(() => {});
    for (const c of this.closers) await c().catch(() => {});
  }
}

/**
 * Open every device `--devices` names: start the virtual phones (and, for `sim-adb`, one private adb
 * server they join), reserve the farm's, and take serials and bridges as given. A failure closes what
 * was opened and throws.
 */
export async function openPool(entries: readonly PoolEntry[], opts: PoolOptions = {}): Promise<DevicePool> {
  const logger = opts.logger ?? Logger.silent();
  const devices: PoolDevice[] = [];
  const closers: (() => Promise<void>)[] = [];
  let adb: PrivateAdbServer | undefined;
  try {
    for (const e of entries) {
      if (e.kind === 'sim') {
        const first = devices.filter((d) => d.kind === 'sim').length;
        for (let i = 1; i <= e.count; i++) devices.push(await simBridgeDevice(first + i, { ...opts.sim, logger }));
      } else if (e.kind === 'sim-adb') {
        if (!adb) {
          adb = await startPrivateAdbServer();
          closers.push(adb.kill);
        }
        for (let i = 1; i <= e.count; i++) devices.push(await simAdbDevice(i, adb, { ...opts.sim, logger }));
      } else if (e.kind === 'adb') devices.push(adbPoolDevice(e.serial, opts.adb ?? {}));
      else if (e.kind === 'bridge') {
        if (!opts.token)
          throw new ActionableError(
            'USAGE',
            `--devices ${e.url} is a helper bridge, which needs its token`,
            'pass --token T or set ANDROID_BRIDGE_TOKEN',
          );
        devices.push(bridgePoolDevice(e.url, opts.token));
      } else {
        if (!opts.farm)
          throw new ActionableError('USAGE', '--devices stf needs a farm', 'pass --stf-url URL --stf-token T');
        devices.push(...(await opts.farm(e)));
      }
    }
  } catch (e) {
    await new DevicePool(devices, closers).close();
    if (e instanceof ActionableError) throw e;
    throw new ActionableError(
      'DEVICE',
      `could not open the device pool: ${errorMessage(e)}`,
      'fix that device or leave it out of --devices',
      { cause: e },
    );
  }
  return new DevicePool(devices, closers);
}
