import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { freePort, PrivateAdbServer } from './support/adb-server.js';
import { Adb } from './support/adbkit.js';
import { centre, findNode, settle } from './support/phone.js';

let adb: PrivateAdbServer;
let device: AdbDevice;
let bridge: BridgeServer;
let phone: VirtualPhone;
let serial: string;
let client: ReturnType<typeof Adb.createClient>;

beforeAll(async () => {
  phone = new VirtualPhone({ seed: 5 });
  bridge = await startBridgeServer({ phone });
  device = await startAdbDevice({ phone });
  adb = await PrivateAdbServer.start();
  client = Adb.createClient({ host: '127.0.0.1', port: adb.port });
  serial = await client.connect('127.0.0.1', device.port);
  for (let i = 0; i < 100; i++) {
    const list = await client.listDevices();
    if (list.some((d: { id: string; type: string }) => d.id === serial && d.type === 'device')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await adb?.kill();
  await device?.close();
  await bridge?.close();
});

describe('adbkit against the virtual phone', () => {
  it('lists the device and reads its properties', async () => {
    const devices: { id: string; type: string }[] = await client.listDevices();
    expect(devices.find((d) => d.id === serial)?.type).toBe('device');
    // getProperties parses `getprop` output ("[key]: [value]" lines).
    const props: Record<string, string> = await client.getDevice(serial).getProperties();
    expect(props['ro.product.model']).toBe('Pixel 7');
    expect(props['ro.build.version.sdk']).toBe('34');
  });

  it('runs legacy shell commands', async () => {
    const d = client.getDevice(serial);
    const out = await Adb.util.readAll(await d.shell('getprop ro.product.model; echo done'));
    expect(out.toString()).toBe('Pixel 7\ndone\n');
    await Adb.util.readAll(await d.shell('am start -n com.android.settings/.BluetoothSettings'));
    await settle(phone);
    expect(phone.foreground().package).toBe('com.android.settings');
    const bt = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/bluetooth_switch')));
    const before = phone.world.settings.bluetooth;
    await Adb.util.readAll(await d.shell(['input', 'tap', String(bt.x), String(bt.y)]));
    expect(phone.world.settings.bluetooth).toBe(!before);
  });

  it('takes a screenshot identical to the phone’s PNG', async () => {
    const png = await Adb.util.readAll(await client.getDevice(serial).screencap());
    expect(png.equals((await phone.screenshot()).png)).toBe(true);
  });

  it('pulls a file without STAT first, and pushes one', async () => {
    const d = client.getDevice(serial);
    phone.writeFile('/sdcard/note.txt', Buffer.from('ünïcode note\n'));
    const pulled = await new Promise<Buffer>((resolve, reject) => {
      void d.pull('/sdcard/note.txt').then((t: NodeJS.ReadableStream) => {
        const parts: Buffer[] = [];
        t.on('data', (c: Buffer) => parts.push(c));
        t.on('end', () => resolve(Buffer.concat(parts)));
        t.on('error', reject);
      }, reject);
    });
    expect(pulled.toString()).toBe('ünïcode note\n');
    const { Readable } = await import('node:stream');
    const transfer = await d.push(Readable.from([Buffer.from('pushed by adbkit')]), '/sdcard/pushed.txt');
    await new Promise<void>((resolve, reject) => {
      transfer.on('end', () => resolve());
      transfer.on('error', reject);
    });
    expect(phone.world.files.get('/sdcard/pushed.txt')?.toString()).toBe('pushed by adbkit');
    const entries: { name: string }[] = await d.readdir('/sdcard');
    expect(entries.map((e) => e.name).sort()).toEqual(expect.arrayContaining(['note.txt', 'pushed.txt']));
  });

  it('forwards to the bridge on the phone', async () => {
    const local = await freePort();
    await client.getDevice(serial).forward(`tcp:${local}`, `tcp:${bridge.port}`);
    const res = await fetch(`http://127.0.0.1:${local}/v3/hello`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { protocol: number }).protocol).toBe(3);
  });
});
