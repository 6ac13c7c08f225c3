import type { Command } from 'commander';
import { adbDevices, adbServer, probeBridge } from '../probe.js';

/**
 * `phone-agent devices`: what `--device` takes here — `sim` always, each helper bridge URL given
 * (checked with its token), and the serials the adb server lists, with their state.
 */

interface DevicesFlags {
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
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
}

export function register(program: Command): void {
  program
    .command('devices')
    .description('List what --device takes: sim, helper bridge URLs (given here), adb serials')
    .option('--device <URL...>', 'helper bridge URLs to check')
    .option('--token <token>', 'helper bridge token (env ANDROID_BRIDGE_TOKEN)')
    .option('--adb-host <host>', 'adb server host', '127.0.0.1')
    .option('--adb-port <port>', 'adb server port (env ANDROID_ADB_SERVER_PORT, else 5037)')
    .action(async (flags: DevicesFlags) => {
      process.stdout.write(`${(await listDevices(flags)).join('\n')}\n`);
    });
}
