import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { logger } from '@appium/support';
import { ADB } from 'appium-adb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANDROID_ALL, APK_PATH, mavenJar } from '../../helper/android/tools/toolchain.js';
import { AdbCli } from '../../src/device/helper-app/adb-cli.js';
import { discoverHelper } from '../../src/device/helper-app/helper-app.js';
import { writeImeRecord } from '../../src/device/helper-app/ime-state.js';
import { HELPER_IME, HELPER_PACKAGE, HELPER_SERVICE } from '../../src/device/protocol/transport.js';
import type { BridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { LATIN_IME } from '../../src/testbed/sim/engine/services.js';
import type { VirtualPhone } from '../../src/testbed/sim/index.js';
import type { PrivateAdbServer } from './support/adb-server.js';
import { type HelperPhone, phoneAgent, startHelperPhone } from './support/helper-phone.js';

/**
 * The helper app end to end over the real adb server: `adb install` of the built APK (`npm run
 * helper:build` runs before this suite in .ci/run), `phone-agent helper install`, a run on
 * `--device SERIAL` through the helper, `helper uninstall` — against the virtual phone, whose bridge
 * plays the helper once its APK is installed and its service enabled.
 */

const run = promisify(execFile);
let server: PrivateAdbServer;
let world: HelperPhone;
let phone: VirtualPhone;
let bridge: BridgeServer;
let serial: string;
let dir: string;
let inertApk: string;

function cli(args: string[], timeout = 120_000): Promise<{ code: number; out: string; stdout: string }> {
  return phoneAgent(args, { timeout, env: { PHONE_AGENT_HELPER_STATE: join(dir, 'state') } });
}

/** `run "Turn Wi-Fi off" --device SERIAL` with the reference model, each run in its own folder. */
function runWifiOff(): Promise<{ code: number; out: string; stdout: string }> {
  return cli([
    'run',
    'Turn Wi-Fi off',
    ...adbFlags(),
    '--model',
    'reference',
    '--json',
    '--runs-dir',
    join(dir, 'runs'),
    '--memory',
    join(dir, `memory-${Math.random()}.json`),
  ]);
}

/** The backends named by the receipts of a run (from its `--json` result's run folder). */
async function receiptBackends(stdout: string): Promise<Set<string>> {
  const result = JSON.parse(stdout) as { runDir: string };
  const steps = (await readdir(join(result.runDir, 'steps'))).filter((f) => f.endsWith('.json'));
  const texts = await Promise.all(steps.map((f) => readFile(join(result.runDir, 'steps', f), 'utf8')));
  const backends = texts.flatMap((t) => [...t.matchAll(/"backend": *"(\w+)"/g)].map((m) => m[1] ?? ''));
  expect(backends.length).toBeGreaterThan(0);
  return new Set(backends);
}

const adbFlags = () => ['--device', serial, '--adb-port', String(server.port)];

/** A tiny APK of another package, linked with Debian's aapt: it must install as an inert package. */
async function buildInertApk(): Promise<string> {
  const manifest = join(dir, 'AndroidManifest.xml');
  await writeFile(
    manifest,
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.inert"><application android:label="Inert"/></manifest>',
  );
  const out = join(dir, 'inert.apk');
  await run('aapt', ['package', '-f', '-M', manifest, '-I', await mavenJar(ANDROID_ALL), '-F', out]);
  return out;
}

beforeAll(async () => {
  await access(APK_PATH).catch(() => {
    throw new Error(`${APK_PATH} is missing: run \`npm run helper:build\` first`);
  });
  dir = await mkdtemp(join(tmpdir(), 'pa-helper-'));
  inertApk = await buildInertApk();
  world = await startHelperPhone(5);
  ({ phone, bridge, server, serial } = world);
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const sh = (...args: string[]) => server.run(['-s', serial, 'shell', ...args]);

describe('the helper app on the virtual phone over real adb', () => {
  it('is not usable before it is installed, and says why', async () => {
    const r = await discoverHelper(new AdbCli({ serial, port: server.port }), join(dir, 'state'));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.reason).toContain('not installed');
    expect((await sh('run-as', HELPER_PACKAGE, 'cat', 'files/token')).stderr).toContain('unknown package');
  });

  it('installs other APKs as inert packages (adb install and appium-adb), refuses non-APKs', async () => {
    const r = await server.run(['-s', serial, 'install', inertApk]);
    expect(r.stdout.toString()).toContain('Success');
    expect((await sh('pm', 'list', 'packages', 'com.example.inert')).stdout.toString()).toBe(
      'package:com.example.inert\n',
    );
    expect((await sh('pm', 'uninstall', 'com.example.inert')).stdout.toString()).toBe('Success\n');
    logger.getLogger('adb-test').level = 'warn';
    const appium = new ADB({
      adbPort: server.port,
      udid: serial,
      executable: { path: 'adb', defaultArgs: [] },
      adbExecTimeout: 30_000,
    });
    await appium.install(inertApk, { replace: true });
    expect(await appium.isAppInstalled('com.example.inert')).toBe(true);
    const junk = join(dir, 'junk.apk');
    await writeFile(junk, 'PK not an apk');
    const j = await server.run(['-s', serial, 'install', junk]);
    expect(j.stdout.toString() + j.stderr).toContain('INSTALL_PARSE_FAILED_NOT_APK');
  }, 60_000);

  it('run --device SERIAL without the helper falls back to adb, says why, and every receipt says adb', async () => {
    // Only the choice of backend is checked here: how far the task gets over plain adb is the adb
    // backend's business (test/adb/executor-adb.test.ts).
    const r = await runWifiOff();
    expect(r.code, r.out).not.toBe(2);
    expect(r.out).toContain('helper not used, continuing on adb: the helper app is not installed');
    expect(await receiptBackends(r.stdout)).toEqual(new Set(['adb']));
    phone.putSetting('global', 'wifi_on', '1');
  }, 180_000);

  it('helper install: installs, enables the service and the IME, forwards, reads the token, checks health', async () => {
    const r = await cli(['helper', 'install', ...adbFlags()]);
    expect(r.out, r.out).toMatch(/healthy: protocol 3/);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain(bridge.token);
    expect(phone.getSetting('secure', 'enabled_accessibility_services')).toBe(HELPER_SERVICE);
    expect(phone.imes().find((i) => i.id === HELPER_IME)?.enabled).toBe(true);
    const found = await discoverHelper(new AdbCli({ serial, port: server.port }), join(dir, 'state'));
    expect(found.ok && found.endpoint.hello.protocol).toBe(3);
  }, 120_000);

  it('run --device SERIAL goes through the helper, and gives the keyboard back at the end', async () => {
    expect(phone.getSetting('global', 'wifi_on')).toBe('1');
    const r = await runWifiOff();
    expect(r.code, r.out).toBe(0);
    expect(phone.getSetting('global', 'wifi_on')).toBe('0');
    expect(await receiptBackends(r.stdout)).toEqual(new Set(['bridge']));
    expect(phone.getSetting('secure', 'default_input_method')).toBe(LATIN_IME);
  }, 180_000);

  it('after a crash of the agent, the next start gives the keyboard back', async () => {
    await sh('ime', 'set', HELPER_IME);
    await writeImeRecord(join(dir, 'state'), {
      serial,
      previous: LATIN_IME,
      pid: 999_999,
      at: new Date().toISOString(),
    });
    const r = await cli(['helper', 'status', ...adbFlags()]);
    expect(r.out).toContain(`keyboard restored to ${LATIN_IME}`);
    expect(r.code, r.out).toBe(0);
    expect(phone.getSetting('secure', 'default_input_method')).toBe(LATIN_IME);
  }, 60_000);

  it('helper uninstall: keyboard back, service off, package gone', async () => {
    await sh('ime', 'set', HELPER_IME);
    const r = await cli(['helper', 'uninstall', ...adbFlags()]);
    expect(r.code, r.out).toBe(0);
    expect(phone.getSetting('secure', 'default_input_method')).toBe(LATIN_IME);
    expect(phone.getSetting('secure', 'enabled_accessibility_services') ?? '').not.toContain(HELPER_PACKAGE);
    expect((await sh('pm', 'list', 'packages', HELPER_PACKAGE)).stdout.toString()).toBe('');
  }, 60_000);
});
