import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/sim/adbd/index.js';
import { type BridgeServer, startBridgeServer } from '../../src/sim/bridge/index.js';
import { freePort, PrivateAdbServer } from './support/adb-server.js';
import { StandInPhone } from './support/stand-in.js';

let adb: PrivateAdbServer;
let device: AdbDevice;
let phone: StandInPhone;
let serial: string;
let bridge: BridgeServer;
/** The helper's port as the phone sees it; the device maps it to the bridge's real port. */
const HELPER_PORT = 7912;

beforeAll(async () => {
  phone = new StandInPhone();
  bridge = await startBridgeServer({ phone });
  device = await startAdbDevice({ phone, forwardPorts: { [HELPER_PORT]: bridge.port } });
  serial = `127.0.0.1:${device.port}`;
  adb = await PrivateAdbServer.start();
  await adb.connect(serial);
});

afterAll(async () => {
  await adb?.kill();
  await device?.close();
  await bridge?.close();
});

const sh = (...args: string[]) => adb.run(['-s', serial, 'shell', ...args]);

describe('real adb CLI against the virtual phone', () => {
  it('lists the device with its model', async () => {
    const r = await adb.run(['devices', '-l']);
    expect(r.stdout.toString()).toMatch(new RegExp(`${serial}\\s+device .*model:Pixel_7 .*device:panther`));
  });

  it('returns exit codes and separate stderr through shell v2', async () => {
    const ok = await sh('echo', 'hello');
    expect(ok.code).toBe(0);
    expect(ok.stdout.toString()).toBe('hello\n');
    const missing = await sh('frobnicate');
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('/system/bin/sh: frobnicate: not found');
    const chain = await sh('false || echo fallback; true && echo yes');
    expect(chain.stdout.toString()).toBe('fallback\nyes\n');
  });

  it('reads properties and screen metrics in Android format', async () => {
    expect((await sh('getprop', 'ro.build.version.sdk')).stdout.toString()).toBe('34\n');
    expect((await sh('getprop')).stdout.toString()).toMatch(/^\[ro\.product\.model\]: \[Pixel 7\]$/m);
    expect((await sh('wm', 'size')).stdout.toString()).toBe('Physical size: 1080x2400\n');
    expect((await sh('wm', 'density')).stdout.toString()).toBe('Physical density: 420\n');
  });

  it('taps and types through input', async () => {
    phone.log.length = 0;
    expect((await sh('input', 'tap', '540', '1200')).code).toBe(0);
    expect((await sh('input', 'text', 'hello%sworld')).code).toBe(0);
    expect(phone.log).toEqual(['tap 540 1200', 'text hello world']);
    const bad = await sh('input', 'text', '你好');
    expect(bad.code).not.toBe(0);
  });

  it('streams a binary-clean PNG through exec-out', async () => {
    const r = await adb.run(['-s', serial, 'exec-out', 'screencap', '-p']);
    expect(r.code).toBe(0);
    expect(r.stdout.equals((await phone.screenshot()).png)).toBe(true);
  });

  it('round-trips files with push and pull', async () => {
    const { mkdtemp, writeFile, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'adbd-'));
    const src = join(dir, 'in.bin');
    const body = Buffer.alloc(300_000);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 256;
    await writeFile(src, body);
    const push = await adb.run(['-s', serial, 'push', src, '/sdcard/x.bin']);
    expect(push.code).toBe(0);
    expect(phone.files.get('/sdcard/x.bin')?.equals(body)).toBe(true);
    const dst = join(dir, 'out.bin');
    const pull = await adb.run(['-s', serial, 'pull', '/sdcard/x.bin', dst]);
    expect(pull.code).toBe(0);
    expect((await readFile(dst)).equals(body)).toBe(true);
    const missing = await adb.run(['-s', serial, 'pull', '/sdcard/nope.bin', dst]);
    expect(missing.code).not.toBe(0);
  });

  it('forwards a local port to the helper bridge on the phone', async () => {
    const local = await freePort();
    const fwd = await adb.run(['-s', serial, 'forward', `tcp:${local}`, `tcp:${HELPER_PORT}`]);
    expect(fwd.code).toBe(0);
    const res = await fetch(`http://127.0.0.1:${local}/v3/hello`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const hello = (await res.json()) as { protocol: number; device: { model: string } };
    expect(hello.protocol).toBe(3);
    expect(hello.device.model).toBe('Pixel 7');
    await adb.run(['-s', serial, 'forward', '--remove', `tcp:${local}`]);
  });

  it('dumps the UI hierarchy to a file and to /dev/tty, and reports an empty tree like uiautomator', async () => {
    const file = await sh('uiautomator', 'dump');
    expect(file.stdout.toString()).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    expect(phone.files.get('/sdcard/window_dump.xml')?.toString()).toContain('<hierarchy');
    const tty = await adb.run(['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(tty.stdout.toString()).toMatch(/^<\?xml.*<\/hierarchy>UI hierchary dumped to: \/dev\/tty\n$/s);
    phone.faults.emptyTree = true;
    try {
      const empty = await sh('uiautomator', 'dump');
      expect(empty.stderr).toBe('ERROR: null root node returned by UiTestAutomationBridge.\n');
    } finally {
      phone.faults.emptyTree = false;
    }
  });
});
