import type { Socket } from 'node:net';
import type { Logger } from '../../../core/logger.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_VERSION_MIN,
  A_WRTE,
  type AdbMessage,
  commandName,
  DEVICE_MAX_PAYLOAD,
  encodeMessage,
  MessageDecoder,
  ProtocolError,
} from './protocol.js';
import { AdbStream } from './stream.js';

/** Starts a service on an accepted stream. */
export type ServiceStart = (stream: AdbStream) => void;
/** Maps an OPEN's service name to a starter, or undefined to refuse the stream (CLSE). */
export type ServiceResolver = (service: string) => Promise<ServiceStart | undefined>;

/**
 * What a log may say about a service: its kind and the command's first word, never its arguments
 * (`shell:input text …` and the IME broadcast carry typed text, which must not reach a log).
 */
export function serviceForLog(service: string): string {
  const colon = service.indexOf(':');
  if (colon < 0) return service.slice(0, 32);
  const kind = service.slice(0, colon);
  const word = /^\s*'?([\w./-]{0,32})/.exec(service.slice(colon + 1))?.[1] ?? '';
  return word ? `${kind}:${word} …` : `${kind}:`;
}

/** Open streams one host may hold; a real adb server uses a handful. More is refused (CLSE). */
const MAX_STREAMS = 256;

export interface ConnectionDeps {
  socket: Socket;
  banner: string;
  resolve: ServiceResolver;
  logger: Logger;
}

/**
 * One host connection (the adb server's transport to "the phone"). Anything a well-behaved host
 * would never send — bad magic, an oversized length, a stream id we never handed out — destroys
 * this socket only; other connections are untouched.
 */
export class AdbConnection {
  private readonly decoder = new MessageDecoder(DEVICE_MAX_PAYLOAD);
  private readonly streams = new Map<number, AdbStream>();
  private nextLocalId = 1;
  private connected = false;
  private maxPayload = 4096;
  /** Old hosts (version 0x01000000) verify checksums, so ours must be real. */
  private checksums = false;
  private dead = false;

  constructor(private readonly deps: ConnectionDeps) {
    const { socket } = deps;
    socket.setNoDelay(true); // without it every command waits ~40 ms for a delayed ACK
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    socket.on('error', () => this.teardown());
    socket.on('close', () => this.teardown());
  }

  destroy(): void {
    this.deps.socket.destroy();
    this.teardown();
  }

  private onBytes(chunk: Buffer): void {
    if (this.dead) return;
    let messages: AdbMessage[];
    try {
      messages = this.decoder.push(chunk);
      for (const m of messages) this.handle(m);
    } catch (err) {
      const reason = err instanceof ProtocolError ? err.message : String(err);
      this.deps.logger.warn('adb connection closed: hostile or malformed stream', { reason });
      this.destroy();
    }
  }

  private handle(m: AdbMessage): void {
    if (m.command === A_CNXN) {
      this.onConnect(m);
      return;
    }
    if (!this.connected) throw new ProtocolError(`${commandName(m.command)} before CNXN`);
    switch (m.command) {
      case A_OPEN:
        this.onOpen(m);
        break;
      case A_OKAY:
        this.streamFor(m)?.acknowledged();
        break;
      case A_WRTE:
        this.onWrite(m);
        break;
      case A_CLSE: {
        const s = this.streamFor(m, true);
        if (!s) break;
        this.streams.delete(s.localId);
        // The host closed first: answer so it can free its side too.
        this.send(A_CLSE, s.localId, s.remoteId);
        s.terminated();
        break;
      }
      case A_AUTH:
        // We never ask for AUTH, so a host has no reason to send it.
        throw new ProtocolError('unexpected AUTH');
    }
  }

  private onConnect(m: AdbMessage): void {
    this.maxPayload = Math.max(256, Math.min(m.arg1 || 4096, DEVICE_MAX_PAYLOAD));
    // A second CNXN restarts the session: drop every stream of the old one.
    for (const s of this.streams.values()) s.terminated();
    this.streams.clear();
    this.connected = true;
    const version = Math.max(A_VERSION_MIN, Math.min(m.arg0 >>> 0, A_VERSION));
    this.checksums = version < A_VERSION;
    this.send(A_CNXN, version, DEVICE_MAX_PAYLOAD, Buffer.from(this.deps.banner, 'utf8'));
  }

  private onOpen(m: AdbMessage): void {
    const remoteId = m.arg0;
    if (remoteId === 0) throw new ProtocolError('OPEN with stream id 0');
    const service = m.data.toString('utf8').replace(/\0+$/, '');
    if (this.streams.size >= MAX_STREAMS) {
      this.send(A_CLSE, 0, remoteId);
      return;
    }
    const localId = this.nextLocalId++;
    this.deps.logger.debug('adb open', { service: serviceForLog(service), localId });
    this.deps
      .resolve(service)
      .catch((err: unknown) => {
        this.deps.logger.warn('adb service failed to start', { service: serviceForLog(service), err: String(err) });
        return undefined;
      })
      .then((start) => {
        if (this.dead) return;
        if (!start) {
          this.send(A_CLSE, 0, remoteId);
          return;
        }
        const stream = new AdbStream(localId, remoteId, {
          maxPayload: this.maxPayload,
          sendWrite: (data) => this.send(A_WRTE, localId, remoteId, data),
          sendClose: () => {
            this.streams.delete(localId);
            this.send(A_CLSE, localId, remoteId);
          },
        });
        this.streams.set(localId, stream);
        this.send(A_OKAY, localId, remoteId);
        start(stream);
      });
  }

  private onWrite(m: AdbMessage): void {
    const s = this.streamFor(m);
    if (!s) return;
    s.received(m.data).then(
      () => {
        if (!s.closed) this.send(A_OKAY, s.localId, s.remoteId);
      },
      (err: unknown) => {
        this.deps.logger.warn('adb stream consumer failed', { err: String(err) });
        s.end();
      },
    );
  }

  /**
   * The live stream a message addresses (arg1 = our id). A stream that existed but is closed
   * (late OKAY/WRTE racing our CLSE) is ignored; an id we never handed out is hostile.
   */
  private streamFor(m: AdbMessage, allowUnknownRemote = false): AdbStream | undefined {
    const localId = m.arg1;
    if (localId === 0 || localId >= this.nextLocalId) {
      if (allowUnknownRemote && localId === 0) return undefined; // CLSE of a refused OPEN
      throw new ProtocolError(`unknown stream id ${localId}`);
    }
    return this.streams.get(localId);
  }

  private send(command: number, arg0: number, arg1: number, data?: Buffer): void {
    if (this.dead) return;
    this.deps.socket.write(encodeMessage(command, arg0, arg1, data, this.checksums));
  }

  private teardown(): void {
    if (this.dead) return;
    this.dead = true;
    for (const s of this.streams.values()) s.terminated();
    this.streams.clear();
  }
}
