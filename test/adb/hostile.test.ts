import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  encodeMessage,
} from '../../src/testbed/sim/adbd/protocol.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';
import { RawPeer } from './support/raw-peer.js';

let device: AdbDevice;
let adb: PrivateAdbServer;
let serial: string;
let good: RawPeer;

beforeAll(async () => {
  device = await startAdbDevice({ phone: new VirtualPhone({ seed: 1 }) });
  serial = `127.0.0.1:${device.port}`;
  adb = await PrivateAdbServer.start();
  await adb.connect(serial);
  good = await RawPeer.open(device.port);
  await good.handshake();
});

afterAll(async () => {
  good?.socket.destroy();
  await adb?.kill();
  await device?.close();
});

async function expectSurvivors(): Promise<void> {
  expect(good.closed).toBe(false);
  expect(await good.shell('echo alive')).toBe('alive\n');
  const r = await adb.run(['-s', serial, 'shell', 'echo', 'still here']);
  expect(r.stdout.toString()).toBe('still here\n');
}

describe('a hostile or malformed stream closes only its own connection', () => {
  const cases: [string, (p: RawPeer) => Promise<void>][] = [
    [
      'bad magic',
      async (p) => {
        const m = encodeMessage(A_CNXN, A_VERSION, 4096, Buffer.from('host::\0'));
        m.writeUInt32LE(0x12345678, 20);
        p.send(m);
      },
    ],
    [
      'oversized length',
      async (p) => {
        await p.handshake();
        const h = encodeMessage(A_WRTE, 1, 1).subarray(0, 24);
        h.writeUInt32LE(64 * 1024 * 1024, 12);
        p.send(h);
      },
    ],
    [
      'unknown stream id',
      async (p) => {
        await p.handshake();
        p.send(encodeMessage(A_WRTE, 3, 999, Buffer.from('hi')));
      },
    ],
    ['garbage bytes', async (p) => p.send(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4)))],
    ['OPEN before CNXN', async (p) => p.send(encodeMessage(A_OPEN, 1, 0, Buffer.from('shell:id\0')))],
  ];
  for (const [name, attack] of cases) {
    it(`${name}: that connection is closed, the others keep working`, async () => {
      const bad = await RawPeer.open(device.port);
      await attack(bad);
      await bad.until(() => bad.closed);
      expect(bad.closed).toBe(true);
      await expectSurvivors();
    });
  }

  it('a refused service answers CLSE and the connection lives on', async () => {
    const p = await RawPeer.open(device.port);
    await p.handshake();
    p.send(encodeMessage(A_OPEN, 5, 0, Buffer.from('jdwp:1234\0')));
    await p.until(() => p.messages.some((m) => m.command === A_CLSE && m.arg1 === 5));
    expect(p.messages.some((m) => m.command === A_CLSE && m.arg0 === 0 && m.arg1 === 5)).toBe(true);
    expect(await p.shell('echo ok', 6)).toBe('ok\n');
    p.socket.destroy();
  });

  it('a hostile sync request fails that stream only', async () => {
    const p = await RawPeer.open(device.port);
    await p.handshake();
    p.send(encodeMessage(A_OPEN, 9, 0, Buffer.from('sync:\0')));
    await p.until(() => p.messages.some((m) => m.command === A_OKAY && m.arg1 === 9));
    const dev = p.messages.find((m) => m.command === A_OKAY && m.arg1 === 9)?.arg0 as number;
    const req = Buffer.alloc(8);
    req.write('RECV', 0, 'latin1');
    req.writeUInt32LE(100_000, 4); // a path longer than PATH_MAX
    p.send(encodeMessage(A_WRTE, 9, dev, req));
    await p.until(() => p.messages.some((m) => m.command === A_WRTE && m.arg1 === 9));
    const fail = p.messages.find((m) => m.command === A_WRTE && m.arg1 === 9);
    expect(fail?.data.toString('latin1', 0, 4)).toBe('FAIL');
    p.send(encodeMessage(A_OKAY, 9, dev));
    await p.until(() => p.messages.some((m) => m.command === A_CLSE && m.arg1 === 9));
    expect(p.messages.some((m) => m.command === A_CLSE && m.arg1 === 9)).toBe(true);
    expect(p.closed).toBe(false);
    expect(await p.shell('echo fine', 10)).toBe('fine\n');
    p.socket.destroy();
  });
});
