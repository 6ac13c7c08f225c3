import { ActionableError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { type AdbServerAddress, adbConnect, adbDisconnect } from '../adb/server.js';
import { type StfDevice, stfAddable } from '../protocol/stf.js';
import { type StfClient, StfRefusal } from './client.js';

/**
 * A device taken from an STF farm for as long as phone-agent drives it: reserved (`POST
 * /user/devices` with a lease — the idle timeout after which the farm takes it back itself, which is
 * what releases it when this process is SIGKILLed), remote-connected and `adb connect`ed; `release()`
 * undoes all three in reverse order, once, whatever happened (done, error, Ctrl-C).
 */

/** Which of the farm's devices may be taken. */
export interface StfFilters {
  /** API level: `34` exactly, or `30+` at least. */
  sdk?: string;
  /** Part of the model or market name, any case (`pixel 7`). */
  model?: string;
  /** Part of the device's name, market name or serial, any case. */
  name?: string;
}

export interface StfReserveOptions {
  client: StfClient;
  /** A serial, or every free device that matches `filters` (at most `count`). */
  serial?: string;
  filters?: StfFilters;
  count?: number;
  /** ms the farm keeps a device that sees no activity (the API's `timeout`). */
  leaseMs: number;
  /** The adb server the remote endpoints join. */
  adb: AdbServerAddress;
  logger: Logger;
}

const SDK = /^(\d+)(\+)?$/;

/** A filter value that does not parse is the user's to fix, before the farm is asked. */
export function checkFilters(f: StfFilters): void {
  if (f.sdk !== undefined && !SDK.test(f.sdk))
    throw new ActionableError(
      'USAGE',
      `--stf-sdk "${f.sdk}" is not an API level`,
      'e.g. --stf-sdk 34, or 30+ for 30 and up',
    );
}

export function matchesFilters(d: StfDevice, f: StfFilters): boolean {
  const has = (want: string | undefined, ...values: (string | undefined)[]) =>
    want === undefined || values.some((v) => v?.toLowerCase().includes(want.toLowerCase()));
  const sdk = f.sdk === undefined ? undefined : SDK.exec(f.sdk);
  const level = Number(d.sdk);
  if (sdk && !(sdk[2] ? level >= Number(sdk[1]) : level === Number(sdk[1]))) return false;
  return has(f.model, d.model, d.marketName) && has(f.name, d.name, d.marketName, d.serial);
}

function describeFilters(f: StfFilters): string {
  const parts = [f.sdk && `sdk ${f.sdk}`, f.model && `model "${f.model}"`, f.name && `name "${f.name}"`].filter(
    Boolean,
  );
  return parts.length ? ` matching ${parts.join(', ')}` : '';
}

/** No device to be had: exit 5 in every command (README's exit codes). */
export class NoFreeDeviceError extends ActionableError {
  override readonly name: string = 'NoFreeDeviceError';
  constructor(problem: string, hint: string) {
    super('NO_DEVICE', problem, hint);
  }
}

export class StfLease {
  private released?: Promise<void>;

  constructor(
    private readonly opts: StfReserveOptions,
    readonly device: StfDevice,
    /** The remote ADB endpoint (`host:port`): the serial adb knows the device by. */
    readonly adbSerial: string,
  ) {}

  get serial(): string {
    return this.device.serial;
  }

  /**
   * Disconnect adb, close the remote endpoint, give the device back: each step tried, once. Every
   * caller (the command's end, a signal handler) waits for the same release.
   */
  release(): Promise<void> {
    this.released ??= this.giveBack();
    return this.released;
  }

  private async giveBack(): Promise<void> {
    const { client, logger } = this.opts;
    const steps: [string, () => Promise<unknown>][] = [
      [`adb disconnect ${this.adbSerial}`, () => adbDisconnect(this.opts.adb, this.adbSerial)],
      ['remote disconnect', () => client.remoteDisconnect(this.serial)],
      ['release', () => client.release(this.serial)],
    ];
    for (const [what, step] of steps)
      await step().catch((e: unknown) =>
        logger.warn(`STF ${what} of ${this.serial} failed: ${errorMessage(e)}`, { device: this.serial }),
      );
  }
}

/** Remote-connect a reserved device and join it to the adb server; released again on failure. */
async function connect(opts: StfReserveOptions, device: StfDevice): Promise<StfLease> {
  const lease = new StfLease(opts, device, '');
  try {
    const url = await opts.client.remoteConnect(device.serial);
    const joined = await adbConnect(opts.adb, url);
    if (!joined.ok)
      throw new ActionableError(
        'DEVICE',
        `${device.serial} from the STF farm at ${opts.client.url}: ${joined.message}`,
        "check that this machine reaches the farm's ADB ports (its remoteConnectUrl)",
      );
    return new StfLease(opts, device, url);
  } catch (e) {
    await lease.release();
    throw e;
  }
}

/**
 * Take devices from the farm: the one named, or the free ones that match (at most `count`, in the
 * farm's order). Another client may take a device between the list and the reservation (403): the
 * next candidate is tried. None to be had is a NoFreeDeviceError saying what the farm has.
 */
export async function reserveStf(opts: StfReserveOptions): Promise<StfLease[]> {
  const { client } = opts;
  checkFilters(opts.filters ?? {});
  const all = await client.devices();
  const wanted = opts.serial === undefined ? all : all.filter((d) => d.serial === opts.serial);
  if (opts.serial !== undefined && wanted.length === 0)
    throw new ActionableError(
      'USAGE',
      `the STF farm at ${client.url} has no device ${opts.serial}`,
      'use stf:any, or pick a serial `phone-agent devices --stf-url …` lists',
    );
  const filters = opts.filters ?? {};
  const candidates = wanted.filter((d) => stfAddable(d) && matchesFilters(d, filters));
  const count = opts.count ?? 1;
  const leases: StfLease[] = [];
  for (const d of candidates) {
    if (leases.length >= count) break;
    try {
      await client.reserve({ serial: d.serial, timeout: opts.leaseMs });
    } catch (e) {
      // Taken since the list was read: the next one.
      if (e instanceof StfRefusal && e.status === 403) continue;
      await Promise.all(leases.map((l) => l.release()));
      throw e;
    }
    try {
      leases.push(await connect(opts, d));
    } catch (e) {
      await Promise.all(leases.map((l) => l.release()));
      throw e;
    }
  }
  if (leases.length === 0) {
    const inUse = wanted.filter((d) => d.using || d.owner).length;
    const absent = wanted.filter((d) => !(d.present && d.ready)).length;
    throw new NoFreeDeviceError(
      opts.serial !== undefined
        ? `${opts.serial} on the STF farm at ${client.url} is not free (${inUse ? 'in use' : 'not present or not ready'})`
        : `the STF farm at ${client.url} has no free device${describeFilters(filters)} (${all.length} device(s): ${inUse} in use, ${absent} absent or not ready, ${Math.max(0, all.length - inUse - absent - candidates.length)} not matching)`,
      'try again when one is free, or loosen --stf-sdk / --stf-model / --stf-name',
    );
  }
  return leases;
}
