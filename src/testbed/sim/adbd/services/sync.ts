import type { PhoneSurface } from '../../surface.js';
import type { ServiceStart } from '../connection.js';
import { writePhoneFile } from '../shell/command.js';
import type { AdbStream } from '../stream.js';

/**
 * The `sync:` file service (adb push/pull/ls): requests are ID (4 ASCII) + u32le length + payload
 * and may be split across or packed into WRTEs, so they are buffered and parsed here.
 */

const MAX_DATA = 64 * 1024;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
/** Longest path a request may name (Linux PATH_MAX); longer is a broken or hostile client. */
const MAX_PATH = 4096;

function word(id: string, n: number, rest?: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(n >>> 0, 4);
  return rest ? Buffer.concat([head, rest]) : head;
}

function fail(message: string): Buffer {
  return word('FAIL', Buffer.byteLength(message), Buffer.from(message));
}

interface Entry {
  mode: number;
  size: number;
  mtime: number;
}

function statPath(phone: PhoneSurface, path: string): Entry | undefined {
  const mtime = Math.floor(phone.clock.now() / 1000);
  const data = phone.readFile(path);
  if (data) return { mode: S_IFREG | 0o660, size: data.length, mtime };
  if (phone.listDir(path) !== undefined) return { mode: S_IFDIR | 0o771, size: 4096, mtime };
  return undefined;
}

class SyncSession {
  private buf: Buffer = Buffer.alloc(0);
  /** An open SEND: where the file goes and what arrived so far. */
  private upload?: { path: string; parts: Buffer[] };
  private finished = false;

  constructor(
    private readonly phone: PhoneSurface,
    private readonly stream: AdbStream,
  ) {}

  async push(data: Buffer): Promise<void> {
    if (this.finished) return;
    this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    while (this.buf.length >= 8 && !this.finished) {
      const id = this.buf.toString('latin1', 0, 4);
      const len = this.buf.readUInt32LE(4);
      // DONE's length field is the mtime, not a payload length.
      const payloadLen = id === 'DONE' || id === 'QUIT' ? 0 : len;
      if ((id === 'DATA' && len > MAX_DATA) || (id !== 'DATA' && payloadLen > MAX_PATH)) {
        return this.abort(`sync: ${id} request too large (${len} bytes)`);
      }
      if (this.buf.length < 8 + payloadLen) return;
      const payload = Buffer.from(this.buf.subarray(8, 8 + payloadLen));
      this.buf = this.buf.subarray(8 + payloadLen);
      await this.handle(id, payload);
    }
  }

  private async handle(id: string, payload: Buffer): Promise<void> {
    const text = payload.toString('utf8');
    switch (id) {
      case 'STAT': {
        const e = statPath(this.phone, text);
        const out = Buffer.alloc(16);
        out.write('STAT', 0, 'latin1');
        out.writeUInt32LE(e?.mode ?? 0, 4);
        out.writeUInt32LE(e?.size ?? 0, 8);
        out.writeUInt32LE(e?.mtime ?? 0, 12);
        void this.stream.write(out);
        return;
      }
      case 'LIST':
        return this.list(text);
      case 'RECV': {
        const data = this.phone.readFile(text);
        if (!data) {
          const why = this.phone.listDir(text) !== undefined ? 'Is a directory' : 'No such file or directory';
          void this.stream.write(fail(`open failed: ${why}`));
          return;
        }
        const parts: Buffer[] = [];
        for (let off = 0; off < data.length; off += MAX_DATA) {
          const chunk = data.subarray(off, off + MAX_DATA);
          parts.push(word('DATA', chunk.length, chunk));
        }
        parts.push(word('DONE', 0));
        void this.stream.write(Buffer.concat(parts));
        return;
      }
      case 'SEND': {
        // "path,mode": the mode is what adb would chmod; the virtual file system keeps no modes.
        const comma = text.lastIndexOf(',');
        const path = comma >= 0 ? text.slice(0, comma) : text;
        if (!path.startsWith('/')) {
          void this.stream.write(fail(`open failed: ${path}: not an absolute path`));
          return;
        }
        this.upload = { path, parts: [] };
        return;
      }
      case 'DATA':
        if (!this.upload) return this.abort('sync: DATA without SEND');
        this.upload.parts.push(payload);
        return;
      case 'DONE': {
        const up = this.upload;
        if (!up) return this.abort('sync: DONE without SEND');
        this.upload = undefined;
        const err = writePhoneFile(this.phone, up.path, Buffer.concat(up.parts));
        void this.stream.write(err ? fail(`couldn't create file: ${err}`) : word('OKAY', 0));
        return;
      }
      case 'QUIT':
        this.finished = true;
        this.stream.end();
        return;
      default:
        return this.abort(`sync: unknown request ${JSON.stringify(id)}`);
    }
  }

  private async list(dir: string): Promise<void> {
    const names = this.phone.listDir(dir) ?? [];
    const parts: Buffer[] = [];
    for (const name of names) {
      const full = dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
      const e = statPath(this.phone, full) ?? { mode: S_IFREG | 0o660, size: 0, mtime: 0 };
      const n = Buffer.from(name, 'utf8');
      const head = Buffer.alloc(20);
      head.write('DENT', 0, 'latin1');
      head.writeUInt32LE(e.mode, 4);
      head.writeUInt32LE(e.size, 8);
      head.writeUInt32LE(e.mtime, 12);
      head.writeUInt32LE(n.length, 16);
      parts.push(head, n);
    }
    const done = Buffer.alloc(20);
    done.write('DONE', 0, 'latin1');
    parts.push(done);
    void this.stream.write(Buffer.concat(parts));
  }

  /** A request no client sends: answer FAIL and close the stream (the connection lives on). */
  private async abort(message: string): Promise<void> {
    this.finished = true;
    this.buf = Buffer.alloc(0);
    void this.stream.write(fail(message));
    this.stream.end();
  }
}

export function syncService(phone: PhoneSurface): ServiceStart {
  return (stream) => {
    const session = new SyncSession(phone, stream);
    stream.onData((data) => session.push(data));
  };
}
