import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { RealClock } from '../../../src/core/clock.js';
import { type AdbDevice, startAdbDevice } from '../../../src/testbed/sim/adbd/index.js';
import { type BridgeServer, startBridgeServer } from '../../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './adb-server.js';

/**
 * The virtual phone as a phone the helper app can be put on: its bridge (which plays the helper once
 * the APK is installed and the service enabled), its adbd, and a private adb server connected to it —
 * on a real clock, as `phone-agent sim` runs it (the CLI under test is another process).
 */

export interface HelperPhone {
  phone: VirtualPhone;
  bridge: BridgeServer;
  device: AdbDevice;
  server: PrivateAdbServer;
  serial: string;
  close(): Promise<void>;
}

export async function startHelperPhone(seed: number): Promise<HelperPhone> {
  const phone = new VirtualPhone({ seed, clock: new RealClock() });
  const bridge = await startBridgeServer({ phone });
  const device = await startAdbDevice({ phone, helper: { bridgePort: bridge.port, token: bridge.token } });
  const serial = `127.0.0.1:${device.port}`;
  const server = await PrivateAdbServer.start();
  await server.connect(serial);
  return {
    phone,
    bridge,
    device,
    server,
    serial,
    close: async () => {
      await server.kill();
      await device.close();
      await bridge.close();
    },
  };
}

const run = promisify(execFile);

/**
 * `phone-agent ARGS` from the source checkout, its exit code and output. A variable given as
 * undefined in `env` is unset (execFile would pass the word "undefined").
 */
export async function phoneAgent(
  args: string[],
  opts: { env?: Record<string, string | undefined>; timeout?: number } = {},
): Promise<{ code: number; out: string; stdout: string }> {
  const env = Object.fromEntries(Object.entries({ ...process.env, ...opts.env }).filter(([, v]) => v !== undefined));
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      timeout: opts.timeout ?? 120_000,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, out: r.stdout + r.stderr, stdout: r.stdout };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof x.code === 'number' ? x.code : 1,
      out: `${x.stdout ?? ''}${x.stderr ?? ''}`,
      stdout: x.stdout ?? '',
    };
  }
}
