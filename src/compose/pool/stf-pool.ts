import { ActionableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { AdbServerAddress } from '../../device/adb/server.js';
import { StfClient } from '../../device/stf/client.js';
import { checkFilters, reserveStf, type StfFilters, type StfLease } from '../../device/stf/lease.js';
import { deviceLockKey } from '../../store/device-lock.js';
import type { DeviceSpec } from '../device.js';
import type { PoolEntry } from './devices-arg.js';
import { type PoolDevice, probeSpec } from './pool-device.js';

/**
 * STF for `--devices stf[:N]` and `--device stf:SERIAL|stf:any`: the farm's address, token, filters
 * and lease, from flags or the environment, and the farm's devices as pool devices — driven over
 * their remote ADB endpoint like any serial, released when the pool closes.
 */

export interface StfFlags {
  stfUrl?: string;
  stfToken?: string;
  stfSdk?: string;
  stfModel?: string;
  stfName?: string;
  /** Seconds of no activity after which the farm takes a device back by itself (default 600). */
  stfLease?: string;
}

export interface StfConfig {
  client: StfClient;
  filters: StfFilters;
  leaseMs: number;
}

export const DEFAULT_STF_LEASE_S = 600;

/** The farm from `--stf-url/--stf-token` (env STF_URL, STF_TOKEN); a usage error when one is missing. */
export function stfConfig(flags: StfFlags, env: Record<string, string | undefined> = process.env): StfConfig {
  const url = flags.stfUrl ?? env.STF_URL;
  const token = flags.stfToken ?? env.STF_TOKEN;
  if (!url || !token)
    throw new ActionableError(
      'USAGE',
      `an STF farm needs ${!url ? '--stf-url URL (env STF_URL)' : '--stf-token T (env STF_TOKEN)'}`,
      'pass the farm address and an access token from its Settings → Keys',
    );
  try {
    new URL(url);
  } catch {
    throw new ActionableError(
      'USAGE',
      `--stf-url "${url.slice(0, 60)}" is not a URL`,
      'e.g. --stf-url https://stf.example.org',
    );
  }
  const lease = Number(flags.stfLease ?? DEFAULT_STF_LEASE_S);
  if (!Number.isFinite(lease) || lease <= 0)
    throw new ActionableError(
      'USAGE',
      `--stf-lease "${flags.stfLease}" is not a number of seconds`,
      'e.g. --stf-lease 600',
    );
  const filters: StfFilters = { sdk: flags.stfSdk, model: flags.stfModel, name: flags.stfName };
  checkFilters(filters);
  return { client: new StfClient({ url, token }), filters, leaseMs: Math.round(lease * 1000) };
}

/** One reserved farm device as a pool device: dead when adb loses it or the farm took it back. */
export function stfPoolDevice(lease: StfLease, config: StfConfig, adb: AdbServerAddress): PoolDevice {
  const spec: DeviceSpec = { kind: 'adb', serial: lease.adbSerial, host: adb.host, port: adb.port };
  return {
    id: `stf:${lease.serial}`,
    kind: 'stf',
    lockKey: deviceLockKey(`stf:${lease.serial}`),
    ownsWorld: false,
    realTime: true,
    spec: () => spec,
    probe: async () => {
      const p = await probeSpec(spec);
      if (!p.ok) return p;
      const mine = await config.client.userDevices().catch(() => undefined);
      if (mine && !mine.some((d) => d.serial === lease.serial))
        return { ok: false, reason: `the STF farm took ${lease.serial} back (its lease ended)` };
      return p;
    },
    close: () => lease.release(),
  };
}

/** The pool's `farm` option: reserve the free matching devices of `stf` (all, or at most N). */
export function stfFarm(config: StfConfig, adb: AdbServerAddress, logger: Logger) {
  return async (entry: Extract<PoolEntry, { kind: 'stf' }>): Promise<PoolDevice[]> => {
    const leases = await reserveStf({
      client: config.client,
      filters: config.filters,
      count: entry.max ?? Number.POSITIVE_INFINITY,
      leaseMs: config.leaseMs,
      adb,
      logger,
    });
    return leases.map((l) => stfPoolDevice(l, config, adb));
  };
}
