import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import { runSuite } from '../../regression-tasks/suite-runner.js';
import { Logger } from '../../src/core/logger.js';
import { adbDeviceStates } from '../../src/device/adb/server.js';
import { StfClient, StfRefusal } from '../../src/device/stf/client.js';
import { NoFreeDeviceError, reserveStf } from '../../src/device/stf/lease.js';
import { type StandInStf, startStandInStf } from '../../src/testbed/stf/server.js';
import { cleanEnv } from '../cli/support.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * STF over the stand-in farm (src/testbed/stf, written from STF's api_v1.yaml): the client lists,
 * filters, reserves, remote-connects (`adb connect` on a private adb server) and releases in the
 * API's order; `phone-agent run --device stf:any` gives the device back when it is done, when it
 * fails and on Ctrl-C, and when it is SIGKILLed the farm takes it back once the lease runs out
 * idle; a farm with no free device is exit 5.
 */

const BIN = path.resolve(import.meta.dirname, '../../bin/phone-agent.js');
let adb: PrivateAdbServer;
let root: string;
let farm: StandInStf;

beforeAll(async () => {
  adb = await PrivateAdbServer.start();
  root = await mkdtemp(path.join(tmpdir(), 'pa-stf-'));
});
afterAll(async () => {
  await adb.kill();
  await rm(root, { recursive: true, force: true });
});
afterEach(async () => {
  await farm?.close();
});

async function standIn(opts: { groupTimeoutMs?: number } = {}): Promise<StandInStf> {
  farm = await startStandInStf({
    phones: [
      { serial: 'STF-PIXEL-7', model: 'Pixel 7', sdk: '34', name: 'panther', seed: 1 },
      { serial: 'STF-A51', model: 'Galaxy A51', manufacturer: 'samsung', sdk: '30', name: 'a51', seed: 2 },
    ],
    ...opts,
  });
  return farm;
}

const adbAddress = () => ({ host: '127.0.0.1', port: adb.port });
const client = (f: StandInStf, token = f.token) => new StfClient({ url: f.url, token });
/** The API calls after the listing, as `METHOD path`. */
const writes = (f: StandInStf) => f.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);

interface Proc {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function phoneAgent(args: string[]): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: cleanEnv({ PHONE_AGENT_LOCK_DIR: path.join(root, 'locks') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (ok) => child.on('close', (code, signal) => ok({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

const runArgs = (f: StandInStf, extra: string[] = []) => [
  'run',
  'Turn Wi-Fi off',
  '--device',
  'stf:any',
  '--stf-url',
  f.url,
  '--stf-token',
  f.token,
  '--adb-port',
  String(adb.port),
  '--model',
  'reference',
  '--runs-dir',
  path.join(root, 'runs'),
  '--memory',
  path.join(root, 'memory.json'),
  ...extra,
];

/** The suite's flags for a run on the stand-in farm. */
const suiteArgs = (f: StandInStf, tasks: string, devices: string, out: string) => [
  ...['--model', 'reference', '--seeds', '1', '--tasks', tasks, '--devices', devices],
  ...['--stf-url', f.url, '--stf-token', f.token, '--adb-port', String(adb.port), '--out', path.join(root, out)],
];

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Once the run's first action reached the farm's first phone, hold its next screen read for a
 * minute: whatever the machine's load, the run is now in the middle of the task.
 */
async function midRun(f: StandInStf): Promise<void> {
  const phone = f.devices[0]?.phone;
  await until('the first action', () => phone?.foreground().package !== 'com.android.launcher3');
  if (phone) phone.faults.slowTreeMs = 60_000;
}

describe('the STF client over the stand-in farm', () => {
  it("lists with the fields it asks for, and a wrong token is the farm's 401", async () => {
    const f = await standIn();
    const list = await client(f).devices();
    expect(list.map((d) => [d.serial, d.model, d.sdk, d.present, d.ready, d.using])).toEqual([
      ['STF-PIXEL-7', 'Pixel 7', '34', true, true, false],
      ['STF-A51', 'Galaxy A51', '30', true, true, false],
    ]);
    expect(f.calls[0]?.path).toBe('/api/v1/devices');
    const refused = await client(f, 'wrong')
      .devices()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StfRefusal);
    expect((refused as StfRefusal).status).toBe(401);
    expect((refused as Error).message).toMatch(/Bad Credentials — check --stf-token/);
  });

  it("reserves by filter, remote-connects through adb, and releases in the API's order", async () => {
    const f = await standIn();
    const [lease] = await reserveStf({
      client: client(f),
      filters: { sdk: '30+', model: 'galaxy' },
      leaseMs: 60_000,
      adb: adbAddress(),
      logger: Logger.silent(),
    });
    expect(lease?.serial).toBe('STF-A51');
    const dev = f.devices.find((d) => d.serial === 'STF-A51');
    expect(dev?.view()).toMatchObject({ using: true, owner: { email: 'tester@stand-in.stf' }, remoteConnect: true });
    expect(lease?.adbSerial).toBe(dev?.remoteConnectUrl);
    expect((await adbDeviceStates(adbAddress())).get(lease?.adbSerial ?? '')).toBe('device');
    // The endpoint reaches the phone: adb's shell runs on it.
    const size = await adb.run(['-s', lease?.adbSerial ?? '', 'shell', 'wm', 'size']);
    expect(size.stdout.toString()).toMatch(/Physical size: \d+x\d+/);
    await lease?.release();
    expect(writes(f)).toEqual([
      'POST /api/v1/user/devices',
      'POST /api/v1/user/devices/STF-A51/remoteConnect',
      'DELETE /api/v1/user/devices/STF-A51/remoteConnect',
      'DELETE /api/v1/user/devices/STF-A51',
    ]);
    expect(dev?.view()).toMatchObject({ using: false, owner: null, remoteConnect: false });
    expect(f.leaves).toEqual([{ serial: 'STF-A51', reason: 'ungroup_request' }]);
    expect((await adbDeviceStates(adbAddress())).has(lease?.adbSerial ?? '')).toBe(false);
  });

  it('a farm with nothing free is a NoFreeDeviceError saying what it has', async () => {
    const f = await standIn();
    const c = client(f);
    const taken = await reserveStf({
      client: c,
      count: 2,
      leaseMs: 60_000,
      adb: adbAddress(),
      logger: Logger.silent(),
    });
    expect(taken.map((l) => l.serial)).toEqual(['STF-PIXEL-7', 'STF-A51']);
    const none = await reserveStf({ client: c, leaseMs: 60_000, adb: adbAddress(), logger: Logger.silent() }).catch(
      (e: unknown) => e,
    );
    expect(none).toBeInstanceOf(NoFreeDeviceError);
    expect((none as Error).message).toMatch(/has no free device \(2 device\(s\): 2 in use/);
    const none34 = await reserveStf({
      client: c,
      filters: { sdk: '35' },
      leaseMs: 60_000,
      adb: adbAddress(),
      logger: Logger.silent(),
    }).catch((e: unknown) => e);
    expect((none34 as Error).message).toMatch(/no free device matching sdk 35/);
    for (const l of taken) await l.release();
  });
});

describe('phone-agent run --device stf:any over the stand-in farm', () => {
  it("runs the task on the farm's phone and gives it back when done", { timeout: 120_000 }, async () => {
    const f = await standIn();
    const r = await phoneAgent([...runArgs(f), '--json']).done;
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { status: string; runDir: string };
    expect(out.status).toBe('done');
    // The first free device, and its world changed: Wi-Fi is off on the farm's phone.
    const dev = f.devices[0];
    expect(dev?.phone.world.settings.wifi).toBe(false);
    expect(writes(f)).toEqual([
      'POST /api/v1/user/devices',
      'POST /api/v1/user/devices/STF-PIXEL-7/remoteConnect',
      'DELETE /api/v1/user/devices/STF-PIXEL-7/remoteConnect',
      'DELETE /api/v1/user/devices/STF-PIXEL-7',
    ]);
    expect(dev?.view().using).toBe(false);
    // The launch record names the farm device, so `resume` reserves the same one again.
    const cp = JSON.parse(await readFile(path.join(out.runDir, 'checkpoint.json'), 'utf8')) as {
      launch: Record<string, string>;
    };
    expect(cp.launch).toMatchObject({ device: 'stf:STF-PIXEL-7', stfUrl: f.url });
    expect(JSON.stringify(cp)).not.toContain(f.token);
  });

  it('gives it back when the run fails to start, and on Ctrl-C', { timeout: 120_000 }, async () => {
    const f = await standIn();
    // Its own page memory: a replay from the last test's would act on the phone before the model fails.
    const unreachable = [
      '--model',
      'nobody',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--memory',
      path.join(root, 'm2.json'),
    ];
    const bad = await phoneAgent(runArgs(f, unreachable)).done;
    expect(bad.code).toBe(2);
    expect(writes(f).filter((w) => w.startsWith('DELETE'))).toHaveLength(2);
    const p = phoneAgent(runArgs(f));
    await midRun(f);
    p.child.kill('SIGINT');
    const r = await p.done;
    expect(r.code, `${r.signal} ${r.stderr}`).toBe(130);
    expect(r.stderr).toMatch(/interrupted — continue with/);
    expect(writes(f).filter((w) => w.startsWith('DELETE'))).toHaveLength(4);
    expect(f.devices.every((d) => !d.view().using)).toBe(true);
  });

  it('SIGKILLed, it cannot give it back: the farm takes it back when the lease runs out idle', {
    timeout: 120_000,
  }, async () => {
    const f = await standIn();
    const p = phoneAgent(runArgs(f, ['--stf-lease', '2']));
    await until('the run to hold the phone', () => f.devices[0]?.remoteConnectUrl !== null);
    await midRun(f);
    p.child.kill('SIGKILL');
    const r = await p.done;
    expect(r.signal).toBe('SIGKILL');
    expect(writes(f).filter((w) => w.startsWith('DELETE'))).toEqual([]);
    expect(f.devices[0]?.view().using).toBe(true);
    await until('the lease to run out', () => f.leaves.length > 0, 20_000);
    expect(f.leaves).toEqual([{ serial: 'STF-PIXEL-7', reason: 'automatic_timeout' }]);
    expect(f.devices[0]?.view()).toMatchObject({ using: false, owner: null, remoteConnect: false });
    // Free again: the next run gets it.
    const phone = f.devices[0]?.phone;
    if (phone) phone.faults.slowTreeMs = 0;
    const again = await phoneAgent([...runArgs(f), '--json']).done;
    expect(again.code, again.stderr).toBe(0);
  });

  it('a farm with no free device: a clear error and exit 5, nothing reserved', { timeout: 120_000 }, async () => {
    const f = await standIn();
    const held = await reserveStf({
      client: client(f),
      count: 2,
      leaseMs: 60_000,
      adb: adbAddress(),
      logger: Logger.silent(),
    });
    const before = writes(f).length;
    const r = await phoneAgent(runArgs(f)).done;
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /phone-agent run: the STF farm at http:\/\/127\.0\.0\.1:\d+ has no free device \(2 device\(s\): 2 in use.* — try again when one is free/,
    );
    expect(writes(f).length).toBe(before);
    for (const l of held) await l.release();
  });
});

describe("the farm in the device list and as the suite's pool", () => {
  it("`devices --stf-url` lists the farm's devices that match the filters", { timeout: 60_000 }, async () => {
    const f = await standIn();
    const args = ['devices', '--stf-url', f.url, '--stf-token', f.token, '--adb-port', String(adb.port)];
    const r = await phoneAgent([...args, '--stf-sdk', '34']).done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/stf:STF-PIXEL-7\s+STF · free · Pixel 7 · Android 14 \(API 34\)/);
    expect(r.stdout).not.toContain('stf:STF-A51');
    expect(r.stdout).toMatch(/1 more not matching the filters/);
  });

  it('`--devices stf:2` reserves two phones, runs the tasks on both (unverified) and gives both back', {
    timeout: 180_000,
  }, async () => {
    const f = await standIn();
    const parsed = parseSuiteArgs(suiteArgs(f, 'SET-01,LAU-01', 'stf:2', 'suite'), {}, TASKS);
    if (!parsed.ok) throw new Error(parsed.message);
    const report = await runSuite({ ...parsed.args, catalogTasks: TASKS });
    expect(report.devices.map((d) => [d.id, d.kind, d.ownsWorld, d.runs])).toEqual([
      ['stf:STF-PIXEL-7', 'stf', false, 1],
      ['stf:STF-A51', 'stf', false, 1],
    ]);
    expect(report.overall.unverified).toBe(2);
    expect(report.runs.every((r) => r.verified === false && r.check.reason?.startsWith('not verified'))).toBe(true);
    expect(report.needsReset.map((n) => n.task)).toEqual(['SET-01']);
    expect(f.leaves.map((l) => l.reason).sort()).toEqual(['ungroup_request', 'ungroup_request']);
    expect(f.devices.every((d) => !d.view().using)).toBe(true);
  });

  it("a suite interrupted with Ctrl-C gives the farm's phones back", { timeout: 120_000 }, async () => {
    const f = await standIn();
    const suite = path.resolve(import.meta.dirname, '../../regression-tasks/suite.ts');
    // Node itself (tsx as a loader), not tsx's CLI, which runs the script in a child of its own.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', suite, ...suiteArgs(f, 'SET-01,SET-03', 'stf:1', 'cut')],
      // From the repository, where `--import tsx` resolves.
      {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: cleanEnv({ PHONE_AGENT_LOCK_DIR: path.join(root, 'locks') }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const done = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)));
    await midRun(f).catch((e: unknown) => {
      throw new Error(`${e}; the suite said: ${stderr}`);
    });
    child.kill('SIGINT');
    expect(await done).toBe(130);
    expect(stderr).toMatch(/suite interrupted: giving the devices back/);
    expect(f.leaves).toEqual([{ serial: 'STF-PIXEL-7', reason: 'ungroup_request' }]);
    expect(writes(f).slice(-2)).toEqual([
      'DELETE /api/v1/user/devices/STF-PIXEL-7/remoteConnect',
      'DELETE /api/v1/user/devices/STF-PIXEL-7',
    ]);
  });
});
