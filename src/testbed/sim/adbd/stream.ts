/**
 * One ADB stream on a connection, seen from a service. Device → host writes are chunked to the
 * negotiated max payload and sent one at a time: the next WRTE waits for the host's OKAY (ADB's
 * flow control). Host → device data is acknowledged only after the service has consumed it, so a
 * slow consumer (a forwarded socket) slows the host down instead of buffering without bound.
 */

export interface StreamTransport {
  /** Send one WRTE with this payload. */
  sendWrite(data: Buffer): void;
  /** Send CLSE for this stream and forget it. */
  sendClose(): void;
  readonly maxPayload: number;
}

export type DataHandler = (data: Buffer) => void | Promise<void>;

interface Pending {
  data: Buffer;
  resolve: () => void;
}

export class AdbStream {
  private queue: Pending[] = [];
  private inFlight = false;
  private closing = false;
  private closedFlag = false;
  private dataHandler?: DataHandler;
  private inbox: Buffer[] = [];
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    private readonly transport: StreamTransport,
  ) {}

  /** Largest WRTE payload the host accepts on this connection. */
  get maxPayload(): number {
    return this.transport.maxPayload;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Queue bytes for the host; resolves when the host has acknowledged them (or the stream closed). */
  write(data: Buffer | string): Promise<void> {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (this.closedFlag || this.closing || buf.length === 0) return Promise.resolve();
    const max = this.transport.maxPayload;
    const parts: Promise<void>[] = [];
    for (let off = 0; off < buf.length; off += max) {
      const data = buf.subarray(off, Math.min(buf.length, off + max));
      parts.push(new Promise((resolve) => this.queue.push({ data, resolve })));
    }
    this.pump();
    return Promise.all(parts).then(() => undefined);
  }

  /** Close after everything queued has been acknowledged. */
  end(): void {
    if (this.closedFlag || this.closing) return;
    this.closing = true;
    this.pump();
  }

  /** Receive host data. Data that arrived before a handler was set is replayed. */
  onData(handler: DataHandler): void {
    this.dataHandler = handler;
    const early = this.inbox;
    this.inbox = [];
    for (const d of early) void handler(d);
  }

  onClose(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.push(listener);
  }

  // ---- called by the connection ----

  /** The host's OKAY for our last WRTE. */
  acknowledged(): void {
    const done = this.queue.shift();
    this.inFlight = false;
    done?.resolve();
    this.pump();
  }

  /** A host WRTE; resolves when consumed (then the connection sends OKAY). */
  async received(data: Buffer): Promise<void> {
    if (!this.dataHandler) {
      this.inbox.push(data);
      return;
    }
    await this.dataHandler(data);
  }

  /** The stream is gone (host CLSE, our CLSE, or the connection died). */
  terminated(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const p of this.queue) p.resolve();
    this.queue = [];
    for (const l of this.closeListeners.splice(0)) l();
  }

  private pump(): void {
    if (this.closedFlag || this.inFlight) return;
    const next = this.queue[0];
    if (next) {
      this.inFlight = true;
      this.transport.sendWrite(next.data);
      return;
    }
    if (this.closing) {
      this.transport.sendClose();
      this.terminated();
    }
  }
}
