import type { Command } from 'commander';
import { DEFAULT_STF_LEASE_S, type StfFlags, stfConfig } from '../compose/pool/stf-pool.js';
import { Logger } from '../core/logger.js';
import { reserveStf, type StfLease } from '../device/stf/lease.js';
import { adbServer } from './probe.js';

/**
 * `--device stf:SERIAL` / `stf:any` for one task (run, resume, mcp): the farm's options, and the
 * reservation a command holds while it drives the device — given back by the command on every way
 * out it sees (done, error, Ctrl-C, SIGTERM), and by the farm's lease when it is SIGKILLed.
 */

export const STF_ANY = 'stf:any';

/** `--stf-url`, `--stf-token`, the filters and the lease, on any command that takes a device. */
export function stfOptions(cmd: Command): Command {
  return cmd
    .option('--stf-url <url>', 'an STF (DeviceFarmer) farm for --device stf:SERIAL|stf:any (env STF_URL)')
    .option('--stf-token <token>', 'its access token (env STF_TOKEN)')
    .option('--stf-sdk <level>', 'farm devices with this API level only (34, or 30+ for 30 and up)')
    .option('--stf-model <text>', 'farm devices whose model or market name contains this')
    .option('--stf-name <text>', 'farm devices whose name, market name or serial contains this')
    .option(
      '--stf-lease <seconds>',
      `the farm takes a device back after this long without activity (a crashed run's lease; default ${DEFAULT_STF_LEASE_S})`,
    );
}

export function isFarmDevice(device: string): boolean {
  return device.startsWith('stf:');
}

/** Reserve `stf:SERIAL` or `stf:any` and connect it to the command's adb server. */
export async function reserveForCommand(
  device: string,
  flags: StfFlags & { adbHost?: string; adbPort?: string; verbose?: boolean },
): Promise<StfLease> {
  const config = stfConfig(flags);
  const serial = device === STF_ANY ? undefined : device.slice('stf:'.length);
  const [lease] = await reserveStf({
    client: config.client,
    serial,
    filters: serial === undefined ? config.filters : {},
    count: 1,
    leaseMs: config.leaseMs,
    adb: adbServer(flags),
    logger: new Logger('device', { level: flags.verbose ? 'info' : 'warn' }),
  });
  // reserveStf throws when it took none.
  return lease as StfLease;
}
