import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, cli } from '../cli/support.js';
import { freePort, PrivateAdbServer } from './support/adb-server.js';

/**
 * The README's commands exactly as a newcomer types them, over the two real ways to reach a phone:
 * a helper bridge URL with its token, and an adb serial behind a private adb server (the
 * `ANDROID_ADB_SERVER_PORT` every adb tool honours). The phone is `phone-agent sim --port P
 * --adb-port A` in its own process, as the README starts it, so nothing here shares memory with it.
 */

const BIN = path.resolve(import.meta.dirname, '../../bin/phone-agent.js');
const TOKEN = 'readme-token-1';

let sim: ChildProcess;
let adb: PrivateAdbServer;
let bridgeUrl: string;
let serial: string;
let dir: string;

function startSim(port: number, adbPort: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'sim', '--port', String(port), '--adb-port', String(adbPort), '--token', TOKEN],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => reject(new Error(`phone-agent sim did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      // The banner's last line is printed once both servers listen.
      if (/^screen\s/m.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`phone-agent sim exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  const port = await freePort();
  const adbPort = await freePort();
  sim = await startSim(port, adbPort);
  bridgeUrl = `http://127.0.0.1:${port}`;
  serial = `127.0.0.1:${adbPort}`;
  adb = await PrivateAdbServer.start();
  await adb.connect(serial);
  dir = await mkdtemp(path.join(tmpdir(), 'readme-cmds-'));
}, 60_000);

afterAll(async () => {
  await adb?.kill();
  sim?.kill('SIGTERM');
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The CLI as `npx phone-agent …`, with the private adb server in the environment. */
const run = (...args: string[]): Promise<CliRun> =>
  cli(args, { cwd: dir, env: { ANDROID_ADB_SERVER_PORT: String(adb.port) }, timeoutMs: 120_000 });

describe('README commands over an adb serial and a bridge URL', () => {
  it('devices lists sim, the bridge given and the adb serial with its model and API level', async () => {
    const r = await run('devices', '--device', bridgeUrl, '--token', TOKEN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^sim\s/m);
    expect(r.stdout).toMatch(
      new RegExp(`^${serial.replace(/\./g, '\\.')}\\s+adb · Pixel 7 · Android 14 \\(API 34\\)`, 'm'),
    );
  });

  it('doctor checks the private adb server, the device, the helper and its token', async () => {
    const r = await run('doctor', '--device', bridgeUrl, '--token', TOKEN);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ok\\s+adb server\\s+127\\.0\\.0\\.1:${adb.port}, 1 device`, 'm'));
    expect(r.stdout).toMatch(/^ok\s+device \S+\s+Pixel 7 · Android 14 \(API 34\) · screen 1080x2400/m);
    expect(r.stdout).toMatch(/^ok\s+helper http:\/\/127\.0\.0\.1:\d+\s+answers, token accepted/m);
    // a wrong token is a failure that names the fix, and the exit code says so
    const bad = await run('doctor', '--device', bridgeUrl, '--token', 'wrong');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^fail\s+helper .*refused the token.*\n\s+→ .*token/im);
  });

  it('observe --device SERIAL and --device URL --token show the same live screen', async () => {
    const overAdb = await run('observe', '--device', serial);
    expect(overAdb.code, overAdb.stderr).toBe(0);
    const overBridge = await run('observe', '--device', bridgeUrl, '--token', TOKEN);
    expect(overBridge.code, overBridge.stderr).toBe(0);
    // `app <package>/<activity>` (the bridge also knows the window title; adb does not)
    const activity = (s: string) => /^app (\S+)/m.exec(s)?.[1];
    expect(activity(overAdb.stdout)).toMatch(/^com\.android\.launcher3\//);
    expect(activity(overAdb.stdout)).toBe(activity(overBridge.stdout));
    expect(overAdb.stdout).toContain('"Settings"');
  });

  it('run "Turn Wi-Fi off" --model reference finishes over the adb serial, then "on" over the bridge URL', async () => {
    const overAdb = await run('run', 'Turn Wi-Fi off', '--model', 'reference', '--device', serial, '--json');
    expect(overAdb.code, overAdb.stderr).toBe(0);
    const a = JSON.parse(overAdb.stdout) as { status: string; runDir: string };
    expect(a.status).toBe('done');
    expect(await backends(a.runDir)).toEqual(['adb']);
    expect(await wifiLine()).toMatch(/"Wi-Fi" off/);
    const overBridge = await run(
      'run',
      'Turn Wi-Fi on',
      '--model',
      'reference',
      '--device',
      bridgeUrl,
      '--token',
      TOKEN,
      '--json',
    );
    expect(overBridge.code, overBridge.stderr).toBe(0);
    const b = JSON.parse(overBridge.stdout) as { status: string; runDir: string };
    expect(b.status).toBe('done');
    expect(await backends(b.runDir)).toEqual(['bridge']);
    // The same phone seen over adb agrees with what the bridge run did.
    expect(await wifiLine()).toMatch(/"Wi-Fi" on/);
  }, 240_000);
});

/** Which backends served the run's device calls (`steps/NNN.calls.jsonl`). */
async function backends(runDir: string): Promise<string[]> {
  const steps = path.join(runDir, 'steps');
  const seen = new Set<string>();
  for (const f of (await readdir(steps)).filter((n) => n.endsWith('.calls.jsonl'))) {
    for (const m of (await readFile(path.join(steps, f), 'utf8')).matchAll(/"backend":"(\w+)"/g))
      seen.add(m[1] as string);
  }
  return [...seen].sort();
}

async function wifiLine(): Promise<string | undefined> {
  const r = await run('observe', '--device', serial);
  return r.stdout.split('\n').find((l) => /Switch "Wi-Fi"/.test(l));
}
