import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import adbkit from '@devicefarmer/adbkit';
import type { Command } from 'commander';
import { Deadline, RealClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { Logger } from '../core/logger.js';
import { parseWmSize, shellCommand } from '../device/adb/commands.js';
import { BASE64_IMES } from '../device/adb/device.js';
import { BridgeDevice } from '../device/bridge/device.js';

/**
 * Read-only looks at what `--device` can reach, shared by `doctor` and `devices`: the adb binary
 * and server, each adb device (API level, screen, input method), a helper bridge and its token.
 * Nothing here starts a server or changes a phone.
 */

type AdbClass = typeof import('@devicefarmer/adbkit').Adb;
const loaded = adbkit as unknown as AdbClass & { Adb?: AdbClass };
const Adb: AdbClass = loaded.Adb ?? loaded;

const run = promisify(execFile);
const SHELL_MS = 5000;

/** The adb server the agent uses: --adb-host/--adb-port, else ANDROID_ADB_SERVER_PORT, else 5037. */
export function adbServer(
  o: { adbHost?: string; adbPort?: string },
  env = process.env,
): { host: string; port: number } {
  return { host: o.adbHost ?? '127.0.0.1', port: Number(o.adbPort ?? env.ANDROID_ADB_SERVER_PORT ?? 5037) };
}

/**
 * The --adb-host / --adb-port flags, the same on every command that talks to an adb server; the
 * port defaults to ANDROID_ADB_SERVER_PORT as adb itself does. `withDefault` lets `run` leave a
 * default unset where a resumed run's checkpoint supplies the value.
 */
export function adbServerFlags(c: Command, withDefault = (v: string): string | undefined => v): Command {
  return c
    .option('--adb-host <host>', 'adb server host', withDefault('127.0.0.1'))
    .option(
      '--adb-port <port>',
      'adb server port (env ANDROID_ADB_SERVER_PORT, else 5037)',
      withDefault(process.env.ANDROID_ADB_SERVER_PORT ?? '5037'),
    );
}

export async function adbVersion(): Promise<{ ok: true; version: string } | { ok: false; message: string }> {
  try {
    const { stdout } = await run('adb', ['version'], { timeout: SHELL_MS });
    return { ok: true, version: stdout.split('\n')[0]?.trim() ?? 'adb' };
  } catch (e) {
    return { ok: false, message: errorMessage(e) };
  }
}

export interface AdbDeviceInfo {
  serial: string;
  state: string;
  api?: string;
  release?: string;
  model?: string;
  screen?: string;
  ime?: string;
  /** The input method accepts the agent's Unicode broadcast. */
  unicodeIme?: boolean;
  error?: string;
}

type Client = ReturnType<AdbClass['createClient']>;

async function shell(client: Client, serial: string, argv: string[]): Promise<string> {
  const work = (async () => {
    const s = await client.getDevice(serial).shell(shellCommand(argv));
    return (await Adb.util.readAll(s)).toString('utf8').trim();
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`\`${argv.join(' ')}\` took over ${SHELL_MS / 1000} s`)), SHELL_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The devices the adb server knows, each with what the agent needs to know about it. */
export async function adbDevices(server: {
  host: string;
  port: number;
}): Promise<{ ok: true; devices: AdbDeviceInfo[] } | { ok: false; message: string }> {
  const client = Adb.createClient(server);
  let list: { id: string; type: string }[];
  try {
    list = await client.listDevices();
  } catch (e) {
    return { ok: false, message: errorMessage(e) };
  }
  const devices = await Promise.all(
    list.map(async ({ id, type }): Promise<AdbDeviceInfo> => {
      if (type !== 'device') return { serial: id, state: type };
      try {
        const [api, release, model, size, ime] = await Promise.all([
          shell(client, id, ['getprop', 'ro.build.version.sdk']),
          shell(client, id, ['getprop', 'ro.build.version.release']),
          shell(client, id, ['getprop', 'ro.product.model']),
          shell(client, id, ['wm', 'size']),
          shell(client, id, ['settings', 'get', 'secure', 'default_input_method']),
        ]);
        const wh = parseWmSize(size);
        return {
          serial: id,
          state: type,
          api,
          release,
          model,
          screen: wh ? `${wh.width}x${wh.height}` : undefined,
          ime,
          unicodeIme: BASE64_IMES.includes(ime),
        };
      } catch (e) {
        return { serial: id, state: type, error: errorMessage(e) };
      }
    }),
  );
  return { ok: true, devices };
}

/** Whether a helper bridge answers with this token (one health call). */
export async function probeBridge(
  url: string,
  token: string,
): Promise<{ ok: true; detail: string } | { ok: false; message: string }> {
  const clock = new RealClock();
  const bridge = new BridgeDevice({ url, token, clock, logger: new Logger('device', { level: 'error' }) });
  try {
    const c = await bridge.connect(Deadline.after(clock, 5000));
    if (!c.ok) return { ok: false, message: c.message };
    const s = bridge.capabilities().screen;
    return { ok: true, detail: `${s.width}x${s.height}, ${bridge.capabilities().detail ?? 'helper bridge'}` };
  } finally {
    await bridge.close().catch(() => {});
  }
}
