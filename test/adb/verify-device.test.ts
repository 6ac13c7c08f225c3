import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APK_PATH } from '../../helper/android/tools/toolchain.js';
import { CONFORMANCE_CHECKS } from '../../helper/conformance/index.js';
import type { VerifyReport } from '../../src/cli/verify/report.js';
import { VERIFY_TASKS } from '../../src/cli/verify/tasks.js';
import { RealClock } from '../../src/core/clock.js';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { LATIN_IME } from '../../src/testbed/sim/engine/services.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * `phone-agent verify-device --device SERIAL` end to end against the virtual phone over the real adb
 * server: its adbd installs the APK and serves the helper once the service is enabled. The whole
 * kit runs — doctor, helper install, the conformance suite, the Settings tasks (the reference model
 * knows them), the tree against `uiautomator dump` — and leaves one masked report folder.
 */

const run = promisify(execFile);
let server: PrivateAdbServer;
let device: AdbDevice;
let phone: VirtualPhone;
let bridge: BridgeServer;
let serial: string;
let dir: string;

async function verify(args: string[], env: Record<string, string | undefined> = {}) {
  try {
    const r = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'verify-device',
        '--device',
        serial,
        '--adb-port',
        String(server.port),
        ...args,
      ],
      {
        timeout: 600_000,
        // A variable given as undefined is unset (execFile would pass the word "undefined").
        env: Object.fromEntries(
          Object.entries({ ...process.env, PHONE_AGENT_HELPER_STATE: join(dir, 'state'), ...env }).filter(
            ([, v]) => v !== undefined,
          ),
        ),
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : 1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
  }
}

async function report(out: string): Promise<{ json: VerifyReport; files: string }> {
  const json = await readFile(join(out, 'verify.json'), 'utf8');
  const html = await readFile(join(out, 'verify.html'), 'utf8');
  return { json: JSON.parse(json) as VerifyReport, files: json + html };
}

const step = (r: VerifyReport, name: string) => r.steps.find((s) => s.name === name);

beforeAll(async () => {
  await access(APK_PATH).catch(() => {
    throw new Error(`${APK_PATH} is missing: run \`npm run helper:build\` first`);
  });
  dir = await mkdtemp(join(tmpdir(), 'pa-verify-'));
  phone = new VirtualPhone({ seed: 7, clock: new RealClock() });
  bridge = await startBridgeServer({ phone });
  device = await startAdbDevice({ phone, helper: { bridgePort: bridge.port, token: bridge.token } });
  serial = `127.0.0.1:${device.port}`;
  server = await PrivateAdbServer.start();
  await server.connect(serial);
}, 120_000);

afterAll(async () => {
  await server?.kill();
  await device?.close();
  await bridge?.close();
});

describe('verify-device on the virtual phone over real adb', () => {
  it('installs the helper, passes conformance, the tasks and the tree check, and writes a masked report', async () => {
    const out = join(dir, 'first');
    const r = await verify(['--model', 'reference', '--out', out, '--runs-dir', join(dir, 'runs')]);
    expect(r.code, r.out).toBe(0);
    const { json, files } = await report(out);
    expect(step(json, 'helper')?.detail).toMatch(/^installed now: protocol 3/);
    expect(step(json, 'doctor')?.status).not.toBe('fail');
    const conf = step(json, 'conformance');
    expect(conf?.status, JSON.stringify(conf?.items?.filter((i) => i.status !== 'pass'))).toBe('pass');
    expect(conf?.items?.length).toBe(CONFORMANCE_CHECKS.length);
    const tasks = step(json, 'tasks');
    expect(tasks?.items?.map((i) => `${i.name} ${i.status}`)).toEqual(VERIFY_TASKS.map((t) => `${t.id} pass`));
    expect(step(json, 'tree')?.status, step(json, 'tree')?.detail).toBe('pass');
    expect(json.tree?.foreground).toBe('com.android.settings');
    expect(json.tree?.matched).toBeGreaterThan(5);
    // The dark theme is off again, and the user's keyboard is back.
    expect(phone.world.settings.darkMode).toBe(false);
    expect(phone.getSetting('secure', 'default_input_method')).toBe(LATIN_IME);
    expect(files).not.toContain(bridge.token);
    expect(r.out).not.toContain(bridge.token);
    expect(files).toContain(serial);
  }, 600_000);

  it('with the helper installed and no model: uses it, skips the tasks and says why', async () => {
    const out = join(dir, 'second');
    const r = await verify(['--no-install', '--out', out], {
      OPENAI_BASE_URL: undefined,
      PHONE_AGENT_MODEL: undefined,
      OPENAI_API_KEY: undefined,
    });
    expect(r.code, r.out).toBe(0);
    const { json } = await report(out);
    expect(step(json, 'helper')?.detail).toMatch(/^the installed helper/);
    expect(step(json, 'tasks')).toMatchObject({
      status: 'skip',
      detail: expect.stringContaining('no model configured'),
    });
    expect(step(json, 'conformance')?.status).toBe('pass');
    expect(r.out).toMatch(/wrote .*verify\.json/);
  }, 600_000);
});
