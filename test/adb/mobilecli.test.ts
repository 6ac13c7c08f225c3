import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';
import { IsolatedNetwork } from './support/isolated.js';
import { centre, findNode, settle } from './support/phone.js';

/**
 * A third-party client, unchanged: mobilecli (the Go binary behind mobile-mcp, npm `mobilecli`),
 * which drives a phone with the `adb` binary. Its binary has no telemetry we could find, but a binary
 * proves nothing, so it runs in a network namespace of its own that reaches only our adb server.
 */

// The binary itself, found as the package's launcher (index.js) finds it: run through the launcher,
// a stopped test would leave the binary's daemon running.
const require = createRequire(import.meta.url);
const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const PLATFORM: Record<string, string> = { linux: 'linux', darwin: 'darwin' };
const target = `mobilecli-${PLATFORM[process.platform] ?? process.platform}-${ARCH[process.arch] ?? process.arch}`;
/** The pinned client; not in the lock (its other-platform builds are not served here): .ci/run installs it. */
const MOBILECLI_VERSION = '1.0.9';
function binary(): string {
  try {
    return join(dirname(require.resolve(`@mobilenext/${target}/package.json`)), target);
  } catch {
    throw new Error(
      `mobilecli is not installed: run \`npm install --no-save mobilecli@${MOBILECLI_VERSION}\` (as .ci/run does), then test:adb again`,
    );
  }
}
const MOBILECLI = binary();

let server: PrivateAdbServer;
let device: AdbDevice;
let phone: VirtualPhone;
let net: IsolatedNetwork;
let serial: string;

async function mobilecli(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const r = await net.run([MOBILECLI, ...args, '--device', serial]);
  const json = r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  return { code: r.code, json, stderr: r.stderr };
}

interface UiElement {
  identifier?: string;
  children?: UiElement[];
}

function identifiers(els: UiElement[]): string[] {
  return els.flatMap((e) => [...(e.identifier ? [e.identifier] : []), ...identifiers(e.children ?? [])]);
}

beforeAll(async () => {
  phone = new VirtualPhone({ seed: 5 });
  device = await startAdbDevice({ phone });
  server = await PrivateAdbServer.start();
  serial = `127.0.0.1:${device.port}`;
  await server.connect(serial);
  net = await IsolatedNetwork.open(server.port);
  // mobilecli's commands start a daemon that outlives them; start it here, in the same isolation,
  // so it has the adb server too and stops with the test.
  net.start([MOBILECLI, 'daemon', 'start']);
  const sock = join(net.home, '.mobilecli', 'daemon.sock');
  for (let i = 0; i < 200 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(sock)) throw new Error(`mobilecli's daemon did not create ${sock}`);
});

afterAll(async () => {
  await net?.close();
  await server?.kill();
  await device?.close();
});

describe('mobilecli against the virtual phone (no network but the adb server)', () => {
  it('lists the phone and reads its screen size and orientation', async () => {
    const devices = await net.run([MOBILECLI, 'devices']);
    expect(devices.code).toBe(0);
    expect(JSON.parse(devices.stdout).data.devices).toEqual([
      expect.objectContaining({ id: serial, platform: 'android', state: 'online', version: '14' }),
    ]);
    const info = await mobilecli('device', 'info');
    expect(info.json.data).toMatchObject({ device: { screenSize: { width: 1080, height: 2400 } } });
    // settings get system user_rotation answers a number, as on a phone.
    const orientation = await mobilecli('device', 'orientation', 'get');
    expect(orientation.json).toEqual({ status: 'ok', data: { orientation: 'portrait' } });
  });

  it('launches an app, reads the foreground and the element list, and taps', async () => {
    expect((await mobilecli('apps', 'launch', 'com.acme.bank')).code).toBe(0);
    await settle(phone);
    expect((await mobilecli('apps', 'foreground')).json.data).toMatchObject({ packageName: 'com.acme.bank' });
    const dump = await mobilecli('dump', 'ui');
    expect(identifiers((dump.json.data as { elements: UiElement[] }).elements)).toContain('com.acme.bank:id/email');
    const email = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/email')));
    expect((await mobilecli('io', 'tap', `${email.x},${email.y}`)).code).toBe(0);
    expect((await mobilecli('io', 'text', 'ann@example.com')).code).toBe(0);
    expect((await findNode(phone, (n) => n.resourceId.endsWith(':id/email'))).text).toBe('ann@example.com');
  });

  it('swipes with an end point off the screen, which Android injects without a range check', async () => {
    const r = await mobilecli('io', 'swipe', '540,1800,540,2600');
    expect(r.json).toMatchObject({ status: 'ok' });
  });

  it('pushes its dex into place with mv, then fails as on a phone where its class is missing', async () => {
    // Non-ASCII typing goes through mobilecli's own dex (a device server run by app_process). The
    // virtual phone runs no dex code: the server never comes up, as on a phone without that class.
    const r = await mobilecli('io', 'text', '你好');
    expect(r.code).not.toBe(0);
    expect(String(r.json.error)).toMatch(/device server did not start/);
    expect(String(r.json.error)).not.toMatch(/mv: not found/);
    expect(phone.world.files.has('/data/local/tmp/mobilecli.dex')).toBe(true);
    const run = await server.run([
      '-s',
      serial,
      'shell',
      'CLASSPATH=/data/local/tmp/mobilecli.dex app_process / com.mobilenext.mobilecli.DeviceServer',
    ]);
    expect(run.stdout.toString() + run.stderr).toMatch(/ClassNotFoundException[\s\S]*runs no dex code/);
  });

  it('gets past the launcher query when listing apps (the listing itself needs its dex)', async () => {
    const r = await mobilecli('apps', 'list');
    expect(String(r.json.error)).not.toMatch(/query launcher activities/);
    expect(String(r.json.error)).toMatch(/device server did not start/);
  });
});
