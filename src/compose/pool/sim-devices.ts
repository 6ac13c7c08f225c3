import type { Clock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { adbConnect, adbDisconnect, type PrivateAdbServer } from '../../device/adb/server.js';
import { startAdbDevice } from '../../testbed/sim/adbd/index.js';
import { startBridgeServer } from '../../testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../testbed/sim/phone.js';
import { PhoneSlot } from '../../testbed/sim/phone-slot.js';
import type { Latency } from '../../testbed/sim/surface.js';
import type { DeviceSpec } from '../device.js';
import { type PoolDevice, probeSpec, type WorldReset } from './pool-device.js';

/**
 * The pool's own virtual phones. Each is a slot behind servers that live as long as the pool — a
 * helper bridge (`sim:N`), or the ADB transport joined to the pool's private adb server and driven as
 * a plain serial with no helper (`sim-adb:N`) — and each task gets a fresh world in the slot, seeded
 * and in the task's language, so a result never depends on which phone ran it or what ran before.
 */

export interface SimDeviceOptions {
  /** Device latencies of every world (default none: the suite's virtual time). */
  latency?: Partial<Latency>;
  /** The clock of the phone a slot starts with, until a reset brings the task's (default virtual). */
  clock?: Clock;
  /** Every task's world on the real clock (with `latency`: a real phone's waiting, for benchmarks). */
  realTime?: boolean;
  logger?: Logger;
}

function slotReset(slot: PhoneSlot, latency: Partial<Latency> | undefined) {
  return (w: WorldReset): VirtualPhone => {
    const phone = new VirtualPhone({ clock: w.clock, seed: w.seed, locale: w.locale, latency });
    slot.replace(phone);
    return phone;
  };
}

/** `sim-N`: a virtual phone behind its own helper bridge server on loopback. */
export async function simBridgeDevice(index: number, opts: SimDeviceOptions = {}): Promise<PoolDevice> {
  const slot = new PhoneSlot(new VirtualPhone({ clock: opts.clock, seed: 1, latency: opts.latency }));
  const server = await startBridgeServer({ phone: slot, logger: (opts.logger ?? Logger.silent()).child('bridge') });
  const spec: DeviceSpec = { kind: 'bridge', url: server.url, token: server.token };
  let closed = false;
  return {
    id: `sim-${index}`,
    kind: 'sim',
    // A virtual phone of this process: the pid keeps two suites' phones apart.
    lockKey: `sim-${process.pid}-pool${index}`,
    ownsWorld: true,
    realTime: opts.realTime === true,
    reset: slotReset(slot, opts.latency),
    spec: () => spec,
    probe: async () => (closed ? { ok: false, reason: `sim-${index} was shut down` } : probeSpec(spec)),
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
}

/**
 * `sim-adb-N`: a virtual phone on its ADB transport, `adb connect`ed to the pool's private adb server
 * (never the machine's 5037) and driven like any phone by serial, helper discovery off.
 */
export async function simAdbDevice(
  index: number,
  adb: PrivateAdbServer,
  opts: SimDeviceOptions = {},
): Promise<PoolDevice> {
  const slot = new PhoneSlot(new VirtualPhone({ clock: opts.clock, seed: 1, latency: opts.latency }));
  const adbd = await startAdbDevice({ phone: slot, logger: opts.logger });
  const serial = `127.0.0.1:${adbd.port}`;
  const joined = await adbConnect(adb, serial);
  if (!joined.ok) {
    await adbd.close();
    throw new ActionableError(
      'DEVICE',
      `virtual phone sim-adb-${index} could not join the private adb server on port ${adb.port}: ${joined.message}`,
      'check that the `adb` binary works (`adb version`), or use --devices sim:N (no adb needed)',
    );
  }
  const spec: DeviceSpec = { kind: 'adb', serial, host: adb.host, port: adb.port, discoverHelper: false };
  let closed = false;
  return {
    id: `sim-adb-${index}`,
    kind: 'sim-adb',
    lockKey: `sim-${process.pid}-pool-adb${index}`,
    ownsWorld: true,
    realTime: opts.realTime === true,
    reset: slotReset(slot, opts.latency),
    spec: () => spec,
    probe: async () => (closed ? { ok: false, reason: `sim-adb-${index} was shut down` } : probeSpec(spec)),
    close: async () => {
      if (closed) return;
      closed = true;
      await adbd.close();
      await adbDisconnect(adb, serial);
    },
  };
}
