import { connect, type Socket } from 'node:net';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  type AdbMessage,
  encodeMessage,
  MessageDecoder,
} from '../../../src/testbed/sim/adbd/protocol.js';

/** A raw TCP peer speaking (or abusing) the transport, to check what closes and what survives. */
export class RawPeer {
  readonly messages: AdbMessage[] = [];
  closed = false;
  private readonly decoder = new MessageDecoder();
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.messages.push(...this.decoder.push(c));
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port }, () => resolve(new RawPeer(s)));
      s.once('error', reject);
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Wait until `pred` holds, the socket closes, or 5 s pass (the caller's expect then fails). */
  async until(pred: () => boolean): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!pred() && Date.now() < deadline) {
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 2000);
      });
      if (this.closed && !pred()) return;
    }
  }

  send(buf: Buffer): void {
    this.socket.write(buf);
  }

  async handshake(maxPayload = 1 << 20): Promise<void> {
    this.send(encodeMessage(A_CNXN, A_VERSION, maxPayload, Buffer.from('host::features=shell_v2\0')));
    await this.until(() => this.messages.some((m) => m.command === A_CNXN));
  }

  /** Run a legacy shell command on stream id 7 and return its output. */
  async shell(cmd: string, id = 7): Promise<string> {
    const start = this.messages.length;
    this.send(encodeMessage(A_OPEN, id, 0, Buffer.from(`shell:${cmd}\0`)));
    const out: Buffer[] = [];
    for (let seen = start; ; ) {
      await this.until(() => this.messages.length > seen || this.closed);
      if (this.messages.length <= seen) throw new Error('connection closed');
      const m = this.messages[seen++] as AdbMessage;
      if (m.arg1 !== id) continue;
      if (m.command === A_WRTE) {
        out.push(m.data);
        this.send(encodeMessage(A_OKAY, id, m.arg0));
      } else if (m.command === A_CLSE) {
        return Buffer.concat(out).toString();
      }
    }
  }
}
