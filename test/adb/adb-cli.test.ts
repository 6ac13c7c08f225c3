import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { freePort, PrivateAdbServer } from './support/adb-server.js';
import { centre, findNode, settle } from './support/phone.js';

let adb: PrivateAdbServer;
let device: AdbDevice;
let phone: VirtualPhone;
let serial: string;
let bridge: BridgeServer;
/** The helper's port as the phone sees it; the device maps it to the bridge's real port. */
const HELPER_PORT = 7912;

beforeAll(async () => {
  phone = new VirtualPhone({ seed: 3 });
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

async function bridgePost(path: string, body: unknown, port = bridge.port): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

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
    expect((await sh('ls', '/nope')).code).toBe(1);
    const chain = await sh('false || echo fallback; true && echo yes');
    expect(chain.stdout.toString()).toBe('fallback\nyes\n');
  });

  it('reads properties and screen metrics in Android format', async () => {
    expect((await sh('getprop', 'ro.build.version.sdk')).stdout.toString()).toBe('34\n');
    expect((await sh('getprop')).stdout.toString()).toMatch(/^\[ro\.product\.model\]: \[Pixel 7\]$/m);
    expect((await sh('wm', 'size')).stdout.toString()).toBe('Physical size: 1080x2400\n');
    expect((await sh('wm', 'density')).stdout.toString()).toBe('Physical density: 420\n');
  });

  it('launches Settings, and a tap on the Wi-Fi row toggles Wi-Fi', async () => {
    const before = phone.world.settings.wifi;
    const start = await sh('am', 'start', '-W', '-n', 'com.android.settings/.InternetSettings');
    expect(start.stdout.toString()).toContain('Status: ok');
    await settle(phone);
    const focus = await sh('dumpsys', 'window', 'displays');
    expect(focus.stdout.toString()).toMatch(
      /mCurrentFocus=Window\{\w+ u0 com\.android\.settings\/com\.android\.settings\.InternetSettings\}/,
    );
    const wifi = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/wifi_switch')));
    expect((await sh('input', 'tap', String(wifi.x), String(wifi.y))).code).toBe(0);
    expect(phone.world.settings.wifi).toBe(!before);
    expect((await sh('settings', 'get', 'global', 'wifi_on')).stdout.toString()).toBe(before ? '0\n' : '1\n');
  });

  it('types ASCII with input text and refuses non-ASCII like a phone', async () => {
    await sh('monkey', '-p', 'com.acme.bank', '-c', 'android.intent.category.LAUNCHER', '1');
    await settle(phone);
    const email = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/email')));
    await sh('input', 'tap', String(email.x), String(email.y));
    expect((await sh('input', 'text', 'ann%s@x.io')).code).toBe(0);
    expect((await findNode(phone, (n) => n.resourceId.endsWith(':id/email'))).text).toBe('ann @x.io');
    const bad = await sh('input', 'text', '你好');
    expect(bad.code).not.toBe(0);
    expect((await findNode(phone, (n) => n.resourceId.endsWith(':id/email'))).text).toBe('ann @x.io');
  });

  it('commits Unicode through the agent IME broadcast only once that IME is current', async () => {
    const field = () => findNode(phone, (n) => n.resourceId.endsWith(':id/email'));
    const b64 = Buffer.from(' 你好').toString('base64');
    await sh('am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg', b64);
    expect((await field()).text).toBe('ann @x.io'); // nobody received it
    expect((await sh('ime', 'enable', 'com.phoneagent.ime/.AgentIme')).stdout.toString()).toContain('now enabled');
    expect((await sh('ime', 'set', 'com.phoneagent.ime/.AgentIme')).code).toBe(0);
    expect((await sh('ime', 'list', '-s')).stdout.toString()).toContain('com.phoneagent.ime/.AgentIme\n');
    const r = await sh('am', 'broadcast', '-a', 'ADB_INPUT_B64', '--es', 'msg', b64);
    expect(r.stdout.toString()).toContain('Broadcast completed: result=0');
    expect((await field()).text).toBe('ann @x.io 你好');
  });

  it('streams a PNG through exec-out identical to the bridge screenshot', async () => {
    const r = await adb.run(['-s', serial, 'exec-out', 'screencap', '-p']);
    expect(r.code).toBe(0);
    expect(r.stdout.subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    const snap = (await (await bridgePost('/v3/snapshot', { screenshot: { format: 'png' } })).json()) as {
      screenshot: { base64: string };
    };
    expect(r.stdout.equals(Buffer.from(snap.screenshot.base64, 'base64'))).toBe(true);
  });

  it('round-trips files with push and pull, and refuses read-only places', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'adbd-'));
    const src = join(dir, 'in.bin');
    const body = Buffer.alloc(300_000);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) % 256;
    await writeFile(src, body);
    expect((await adb.run(['-s', serial, 'push', src, '/sdcard/Download/x.bin'])).code).toBe(0);
    expect(phone.world.files.get('/sdcard/Download/x.bin')?.equals(body)).toBe(true);
    const dst = join(dir, 'out.bin');
    expect((await adb.run(['-s', serial, 'pull', '/sdcard/Download/x.bin', dst])).code).toBe(0);
    expect((await readFile(dst)).equals(body)).toBe(true);
    expect((await adb.run(['-s', serial, 'pull', '/sdcard/nope.bin', dst])).code).not.toBe(0);
    const ro = await adb.run(['-s', serial, 'push', src, '/system/x.bin']);
    expect(ro.code).not.toBe(0);
    // adb 1.0.41 prints push failures on stdout.
    expect(ro.stdout.toString() + ro.stderr).toContain('Read-only file system');
    expect((await sh('ls', '/sdcard/Download')).stdout.toString()).toContain('x.bin\n');
  });

  it('forwards a local port to the helper bridge on the phone', async () => {
    const local = await freePort();
    const fwd = await adb.run(['-s', serial, 'forward', `tcp:${local}`, `tcp:${HELPER_PORT}`]);
    expect(fwd.code).toBe(0);
    const res = await bridgePost('/v3/hello', {}, local);
    expect(res.status).toBe(200);
    const hello = (await res.json()) as { protocol: number; device: { model: string } };
    expect(hello.protocol).toBe(3);
    expect(hello.device.model).toBe('Pixel 7');
    await adb.run(['-s', serial, 'forward', '--remove', `tcp:${local}`]);
  });

  it('dumps the UI hierarchy to a file and to /dev/tty, and reports an empty tree like uiautomator', async () => {
    const file = await sh('uiautomator', 'dump');
    expect(file.stdout.toString()).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    expect(phone.world.files.get('/sdcard/window_dump.xml')?.toString()).toContain('<hierarchy');
    const tty = await adb.run(['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(tty.stdout.toString()).toMatch(/^<\?xml.*<\/hierarchy>\s*UI hierchary dumped to: \/dev\/tty\n$/s);
    phone.faults.emptyTree = true;
    try {
      const empty = await sh('uiautomator', 'dump');
      expect(empty.stderr).toBe('ERROR: null root node returned by UiTestAutomationBridge.\n');
    } finally {
      phone.faults.emptyTree = false;
    }
  });

  it('runs an interactive shell from stdin and feeds piped input to commands', async () => {
    const session = await adb.run(['-s', serial, 'shell'], { input: 'echo hi\ngetprop ro.product.model\nexit 3\n' });
    expect(session.stdout.toString()).toBe('hi\nPixel 7\n');
    expect(session.code).toBe(3);
    const piped = await adb.run(['-s', serial, 'shell', 'cat > /sdcard/Documents/piped.txt'], { input: 'via stdin\n' });
    expect(piped.code).toBe(0);
    expect(phone.world.files.get('/sdcard/Documents/piped.txt')?.toString()).toBe('via stdin\n');
  });
});
