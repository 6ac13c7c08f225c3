import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Logger } from '../../src/core/logger.js';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_WRTE,
  type AdbMessage,
  checksum,
  encodeMessage,
} from '../../src/testbed/sim/adbd/protocol.js';
import { serviceResolver } from '../../src/testbed/sim/adbd/services/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { RawPeer } from './support/raw-peer.js';

/**
 * Transport rules checked at the wire, where the adb server would hide a violation: the banner,
 * one outstanding WRTE per stream, chunking to the host's max payload, and shell v2 framing.
 */

let device: AdbDevice;
let phone: VirtualPhone;

beforeAll(async () => {
  phone = new VirtualPhone({ seed: 4 });
  device = await startAdbDevice({ phone });
});

afterAll(async () => {
  await device?.close();
});

const ofStream = (p: RawPeer, id: number, cmd: number) => p.messages.filter((m) => m.arg1 === id && m.command === cmd);

describe('ADB transport on the wire', () => {
  it('answers CNXN with version, max payload and a banner advertising only shell_v2', async () => {
    const p = await RawPeer.open(device.port);
    await p.handshake();
    const cnxn = p.messages.find((m) => m.command === A_CNXN) as AdbMessage;
    expect(cnxn.arg0).toBe(0x01000001);
    expect(cnxn.arg1).toBeGreaterThanOrEqual(4096);
    expect(cnxn.data.toString()).toBe(
      'device::ro.product.name=panther;ro.product.model=Pixel 7;ro.product.device=panther;features=shell_v2',
    );
    p.socket.destroy();
  });

  it('speaks the old checksummed version to an old host', async () => {
    const p = await RawPeer.open(device.port);
    p.send(encodeMessage(A_CNXN, 0x01000000, 4096, Buffer.from('host::\0'), true));
    await p.until(() => p.messages.some((m) => m.command === A_CNXN));
    expect(p.messages.find((m) => m.command === A_CNXN)?.arg0).toBe(0x01000000);
    const raw: Buffer[] = [];
    p.socket.on('data', (c: Buffer) => raw.push(c));
    expect(await p.shell('echo sum', 4)).toBe('sum\n');
    const bytes = Buffer.concat(raw);
    // Every message after the CNXN carries the sum of its payload bytes.
    for (let off = 0; off + 24 <= bytes.length; ) {
      const len = bytes.readUInt32LE(off + 12);
      expect(bytes.readUInt32LE(off + 16)).toBe(checksum(bytes.subarray(off + 24, off + 24 + len)));
      off += 24 + len;
    }
    expect(bytes.length).toBeGreaterThan(24);
    p.socket.destroy();
  });

  it('keeps one WRTE in flight per stream and chunks to the host max payload', async () => {
    const p = await RawPeer.open(device.port);
    await p.handshake(4096);
    const png = (await phone.screenshot()).png;
    p.send(encodeMessage(A_OPEN, 3, 0, Buffer.from('exec:screencap -p\0')));
    await p.until(() => ofStream(p, 3, A_WRTE).length === 1);
    // Without our OKAY the device must not send a second WRTE.
    await new Promise((r) => setTimeout(r, 150));
    expect(ofStream(p, 3, A_WRTE).length).toBe(1);
    const parts: Buffer[] = [];
    let acked = 0;
    while (ofStream(p, 3, A_CLSE).length === 0) {
      const writes = ofStream(p, 3, A_WRTE);
      if (writes.length > acked) {
        const w = writes[acked] as AdbMessage;
        expect(w.data.length).toBeLessThanOrEqual(4096);
        expect(writes.length).toBe(acked + 1); // still one in flight
        parts.push(w.data);
        acked++;
        p.send(encodeMessage(A_OKAY, 3, w.arg0));
      }
      await p.until(() => ofStream(p, 3, A_WRTE).length > acked || ofStream(p, 3, A_CLSE).length > 0);
    }
    expect(Buffer.concat(parts).equals(png)).toBe(true);
    expect(acked).toBe(Math.ceil(png.length / 4096));
    p.socket.destroy();
  });

  it('frames shell v2 output as stdout, stderr and exit packets', async () => {
    const p = await RawPeer.open(device.port);
    await p.handshake();
    p.send(encodeMessage(A_OPEN, 5, 0, Buffer.from('shell,v2,TERM=xterm,raw:echo out; nope\0')));
    const data: Buffer[] = [];
    let acked = 0;
    while (ofStream(p, 5, A_CLSE).length === 0) {
      await p.until(() => ofStream(p, 5, A_WRTE).length > acked || ofStream(p, 5, A_CLSE).length > 0);
      for (const w of ofStream(p, 5, A_WRTE).slice(acked)) {
        data.push(w.data);
        acked++;
        p.send(encodeMessage(A_OKAY, 5, w.arg0));
      }
    }
    const buf = Buffer.concat(data);
    const packets: [number, string][] = [];
    for (let off = 0; off < buf.length; ) {
      const len = buf.readUInt32LE(off + 1);
      packets.push([buf[off] as number, buf.subarray(off + 5, off + 5 + len).toString('latin1')]);
      off += 5 + len;
    }
    expect(packets).toEqual([
      [1, 'out\n'],
      [2, '/system/bin/sh: nope: not found\n'],
      [3, '\x7f'],
    ]);
    p.socket.destroy();
  });

  it('never logs typed text, even at debug level', async () => {
    const lines: string[] = [];
    const logger = new Logger('adb', { level: 'debug', sink: (l) => lines.push(l) });
    const dev = await startAdbDevice({ phone, logger });
    const p = await RawPeer.open(dev.port);
    await p.handshake();
    const secret = 'hunter2-secret';
    const b64 = Buffer.from('秘密 text').toString('base64');
    await p.shell(`input text ${secret}`, 11);
    await p.shell(`am broadcast -a ADB_INPUT_B64 --es msg ${b64}`, 12);
    p.socket.destroy();
    await dev.close();
    expect(lines.some((l) => l.includes('shell:input'))).toBe(true);
    expect(lines.join('\n')).not.toContain(secret);
    expect(lines.join('\n')).not.toContain(b64);
  });

  it('beyond loopback, tcp: reaches only the mapped ports', async () => {
    const mappedOnly = serviceResolver(phone, { 7912: device.port }, 'mapped-only');
    expect(await mappedOnly(`tcp:${device.port}`)).toBeUndefined();
    expect(await mappedOnly('tcp:7912')).toBeTypeOf('function');
    const loopback = serviceResolver(phone, {}, 'loopback');
    expect(await loopback(`tcp:${device.port}`)).toBeTypeOf('function');
  });
});
