import { connect, createServer, type Server, type Socket } from 'node:net';
import { RealClock } from '../../core/clock.js';
import type { StfDevice } from '../../device/protocol/stf.js';
import { type AdbDevice, startAdbDevice } from '../sim/adbd/index.js';
import { VirtualPhone } from '../sim/phone.js';

/**
 * The stand-in farm's devices: virtual phones on their ADB transport, each with STF's state — who
 * owns it, since when, its lease — and, while remote-connected, a TCP endpoint that relays to the
 * phone's ADB port. As in STF, traffic through that endpoint is the owner's activity: it keeps the
 * lease alive; a lease that sees none for its `timeout` ends (`automatic_timeout`): the endpoint
 * closes and the device is free again.
 */

export interface StandInPhone {
  serial: string;
  model?: string;
  manufacturer?: string;
  marketName?: string;
  name?: string;
  sdk?: string;
  version?: string;
  /** Not connected to the farm (STF: `present: false`). */
  absent?: boolean;
  seed?: number;
}

export interface Owner {
  email: string;
  name: string;
  group: string;
}

/** One device of the farm and its STF state. */
export class FarmDevice {
  owner: Owner | null = null;
  /** Why the last owner lost it (`ungroup_request`, `automatic_timeout`). */
  leftBecause?: string;
  private leaseMs = 0;
  private timer?: NodeJS.Timeout;
  private relay?: { server: Server; sockets: Set<Socket>; url: string };

  constructor(
    readonly spec: StandInPhone,
    readonly phone: VirtualPhone,
    private readonly adbd: AdbDevice,
    private readonly onLeave: (d: FarmDevice, reason: string) => void,
  ) {}

  get serial(): string {
    return this.spec.serial;
  }

  get remoteConnectUrl(): string | null {
    return this.relay?.url ?? null;
  }

  /** The `Device` columns the API serves. */
  view(): StfDevice {
    const s = this.spec;
    return {
      serial: s.serial,
      present: !s.absent,
      ready: !s.absent,
      using: this.owner !== null,
      owner: this.owner ? { ...this.owner } : null,
      model: s.model ?? this.phone.info.model,
      manufacturer: s.manufacturer ?? this.phone.info.manufacturer,
      marketName: s.marketName ?? s.model ?? this.phone.info.model,
      name: s.name ?? this.phone.info.device,
      product: this.phone.info.product,
      sdk: s.sdk ?? String(this.phone.info.apiLevel),
      version: s.version ?? this.phone.info.androidVersion,
      remoteConnect: this.relay !== undefined,
      remoteConnectUrl: this.remoteConnectUrl,
      display: { width: this.phone.screen().width, height: this.phone.screen().height },
    };
  }

  /** STF's group join: owned, with a lease of `timeoutMs` idle. */
  join(owner: Owner, timeoutMs: number): void {
    this.owner = owner;
    this.leftBecause = undefined;
    this.leaseMs = timeoutMs;
    this.keepalive();
  }

  /** Any activity of the owner's (here: remote ADB traffic) restarts the lease. */
  keepalive(): void {
    clearTimeout(this.timer);
    if (this.owner && this.leaseMs > 0)
      this.timer = setTimeout(() => void this.leave('automatic_timeout'), this.leaseMs);
  }

  /** STF's group leave: the remote endpoint stops with it. */
  async leave(reason: string): Promise<void> {
    if (!this.owner) return;
    clearTimeout(this.timer);
    this.owner = null;
    this.leftBecause = reason;
    await this.stopRemote();
    this.onLeave(this, reason);
  }

  /** Open the remote ADB endpoint (idempotent, as STF's connect plugin is). */
  async startRemote(): Promise<string> {
    if (this.relay) return this.relay.url;
    const sockets = new Set<Socket>();
    const server = createServer((client) => {
      const phone = connect(this.adbd.port, '127.0.0.1');
      sockets.add(client).add(phone);
      const activity = () => this.keepalive();
      client.on('data', activity);
      phone.on('data', activity);
      client.pipe(phone).pipe(client);
      const end = () => {
        client.destroy();
        phone.destroy();
        sockets.delete(client);
        sockets.delete(phone);
      };
      client.on('close', end).on('error', end);
      phone.on('close', end).on('error', end);
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => ok());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.relay = { server, sockets, url: `127.0.0.1:${port}` };
    return this.relay.url;
  }

  async stopRemote(): Promise<void> {
    const r = this.relay;
    if (!r) return;
    this.relay = undefined;
    for (const s of r.sockets) s.destroy();
    await new Promise<void>((ok) => r.server.close(() => ok()));
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    await this.stopRemote();
    await this.adbd.close();
  }
}

/** A farm device's phone: real time (a farm's phones are real), on its own ADB transport. */
export async function farmDevice(
  spec: StandInPhone,
  onLeave: (d: FarmDevice, reason: string) => void,
): Promise<FarmDevice> {
  const phone = new VirtualPhone({ clock: new RealClock(), seed: spec.seed ?? 1 });
  const adbd = await startAdbDevice({ phone });
  return new FarmDevice(spec, phone, adbd, onLeave);
}
