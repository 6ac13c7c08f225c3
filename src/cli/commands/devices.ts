import type { Command } from 'commander';
import { type StfFlags, stfConfig } from '../../compose/pool/stf-pool.js';
import { errorMessage } from '../../core/errors.js';
import { stfAddable } from '../../device/protocol/stf.js';
import { matchesFilters } from '../../device/stf/lease.js';
import { stfOptions } from '../farm.js';
import { adbDevices, adbServer, adbServerFlags, probeBridge } from '../probe.js';

/**
 * `phone-agent devices`: what `--device` takes here — `sim` always, each helper bridge URL given
 * (checked with its token), the serials the adb server lists, with their state, and with
 * `--stf-url` an STF farm's devices (`stf:SERIAL`), free or not, that match the filters.
 */

interface DevicesFlags extends StfFlags {
  device?: string[];
  token?: string;
  adbHost?: string;
  adbPort?: string;
}

export async function listDevices(flags: DevicesFlags): Promise<string[]> {
  const rows: [string, string][] = [['sim', 'the built-in virtual phone (always there)']];
  const urls = [...(flags.device ?? []), ...(process.env.ANDROID_BRIDGE_URL ? [process.env.ANDROID_BRIDGE_URL] : [])];
  const token = flags.token ?? process.env.ANDROID_BRIDGE_TOKEN;
  for (const url of [...new Set(urls)].filter((u) => /^https?:\/\//.test(u))) {
    if (!token) {
      rows.push([url, 'helper bridge — needs --token T (or ANDROID_BRIDGE_TOKEN)']);
      continue;
    }
    const r = await probeBridge(url, token);
    rows.push([
      url,
      r.ok ? `helper bridge — answers · ${r.detail} (use with --token)` : `helper bridge — ${r.message}`,
    ]);
  }
  const server = adbServer(flags);
  const adb = await adbDevices(server);
  if (!adb.ok)
    rows.push(['(adb)', `no adb server at ${server.host}:${server.port} — \`adb start-server\` to list phones`]);
  else {
    for (const d of adb.devices) {
      const what =
        d.state !== 'device'
          ? `adb, ${d.state} — not usable yet (\`phone-agent doctor\` says why)`
          : `adb · ${d.model || 'Android'} · Android ${d.release || '?'} (API ${d.api || '?'}) · ${d.screen ?? '?'}`;
      rows.push([d.serial, what]);
    }
    if (!adb.devices.length) rows.push(['(adb)', `no device on the adb server at ${server.host}:${server.port}`]);
  }
  if (flags.stfUrl ?? process.env.STF_URL) rows.push(...(await farmRows(flags)));
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
}

/** The farm's devices that match the filters: free ones first, each with what it is. */
async function farmRows(flags: DevicesFlags): Promise<[string, string][]> {
  try {
    const config = stfConfig(flags);
    const all = await config.client.devices();
    const shown = all.filter((d) => matchesFilters(d, config.filters));
    const rows = shown
      .sort((a, b) => Number(stfAddable(b)) - Number(stfAddable(a)))
      .map((d): [string, string] => [
        `stf:${d.serial}`,
        `STF · ${stfAddable(d) ? 'free' : d.using || d.owner ? `in use${d.owner?.name ? ` by ${d.owner.name}` : ''}` : 'absent or not ready'} · ${d.marketName ?? d.model ?? '?'} · Android ${d.version ?? '?'} (API ${d.sdk ?? '?'})`,
      ]);
    if (shown.length < all.length) rows.push(['(stf)', `${all.length - shown.length} more not matching the filters`]);
    return rows.length ? rows : [['(stf)', `no device on the farm at ${config.client.url}`]];
  } catch (e) {
    return [['(stf)', errorMessage(e)]];
  }
}

export function register(program: Command): void {
  adbServerFlags(stfOptions(program.command('devices')))
    .description("List what --device takes: sim, helper bridge URLs (given here), adb serials, an STF farm's devices")
    .option('--device <URL...>', 'helper bridge URLs to check')
    .option('--token <token>', 'helper bridge token (env ANDROID_BRIDGE_TOKEN)')
    .action(async (flags: DevicesFlags) => {
      process.stdout.write(`${(await listDevices(flags)).join('\n')}\n`);
    });
}
