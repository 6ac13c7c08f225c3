/**
 * ADB transport framing: a 24-byte little-endian header (command, arg0, arg1, data length, data
 * checksum, magic = command ^ 0xffffffff) followed by the payload. See ../shared/notes/adb-transport.md.
 */

export const A_CNXN = 0x4e584e43;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_WRTE = 0x45545257;
export const A_CLSE = 0x45534c43;
export const A_AUTH = 0x48545541;

export const A_VERSION = 0x01000001;
/** Hosts older than A_VERSION (adb < 1.0.39) still verify payload checksums. */
export const A_VERSION_MIN = 0x01000000;
/** Our own max payload; the host's is honoured too (min of both). */
export const DEVICE_MAX_PAYLOAD = 256 * 1024;
/** Anything larger than the protocol maximum (1 MiB) is hostile. */
export const HARD_MAX_PAYLOAD = 1024 * 1024;

const HEADER = 24;
const KNOWN = new Set([A_CNXN, A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_AUTH]);

export interface AdbMessage {
  command: number;
  arg0: number;
  arg1: number;
  data: Buffer;
}

export function commandName(command: number): string {
  return Buffer.from(Uint32Array.of(command).buffer).toString('latin1');
}

/** The legacy payload checksum: the sum of its bytes. */
export function checksum(data: Buffer): number {
  let sum = 0;
  for (const b of data) sum += b;
  return sum >>> 0;
}

export function encodeMessage(
  command: number,
  arg0: number,
  arg1: number,
  data: Buffer = Buffer.alloc(0),
  withChecksum = false,
): Buffer {
  const out = Buffer.allocUnsafe(HEADER + data.length);
  out.writeUInt32LE(command >>> 0, 0);
  out.writeUInt32LE(arg0 >>> 0, 4);
  out.writeUInt32LE(arg1 >>> 0, 8);
  out.writeUInt32LE(data.length, 12);
  // With version 0x01000001 the checksum may be 0; hosts skip verification.
  out.writeUInt32LE(withChecksum ? checksum(data) : 0, 16);
  out.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  data.copy(out, HEADER);
  return out;
}

export class ProtocolError extends Error {}

/**
 * Incremental decoder: feed socket chunks, get whole messages. Throws ProtocolError on a header
 * that cannot be from an honest peer (bad magic, unknown command, oversized length).
 */
export class MessageDecoder {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPayload: number = HARD_MAX_PAYLOAD) {}

  push(chunk: Buffer): AdbMessage[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: AdbMessage[] = [];
    for (;;) {
      if (this.buf.length < HEADER) break;
      const command = this.buf.readUInt32LE(0);
      const magic = this.buf.readUInt32LE(20);
      if ((command ^ 0xffffffff) >>> 0 !== magic) throw new ProtocolError('bad magic');
      if (!KNOWN.has(command)) throw new ProtocolError(`unknown command 0x${command.toString(16)}`);
      const len = this.buf.readUInt32LE(12);
      if (len > this.maxPayload) throw new ProtocolError(`payload too large: ${len}`);
      if (this.buf.length < HEADER + len) break;
      out.push({
        command,
        arg0: this.buf.readUInt32LE(4),
        arg1: this.buf.readUInt32LE(8),
        data: Buffer.from(this.buf.subarray(HEADER, HEADER + len)),
      });
      this.buf = this.buf.subarray(HEADER + len);
    }
    return out;
  }
}
