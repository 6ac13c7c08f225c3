import { type Clock, Deadline } from '../core/clock.js';
import { ActionableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { AdbDevice } from '../device/adb/device.js';
import { BridgeDevice } from '../device/bridge/device.js';
import type { Device } from '../device/device.js';
import { FailoverDevice } from '../device/failover.js';
import { startBridgeServer } from '../testbed/sim/bridge/index.js';
import { VirtualPhone } from '../testbed/sim/phone.js';

/**
 * Which phone an agent drives, and how to connect to it: the built-in virtual phone, a helper
 * bridge by URL, or an adb serial — with a helper in front of it when one is given, so the run
 * prefers the helper and falls back to adb (logged in every receipt: `backend`, `failover`).
 */

export type DeviceSpec =
  /** The virtual phone in this process behind its real bridge server (a given phone, or a new one). */
  | { kind: 'sim'; phone?: VirtualPhone; seed?: number; locale?: 'en' | 'zh' }
  | { kind: 'bridge'; url: string; token: string }
  | { kind: 'adb'; serial: string; host?: string; port?: number; helper?: { url: string; token: string } }
  /** An already connected device (tools that built their own). */
  | { kind: 'connected'; device: Device };

export interface OpenedDevice {
  device: Device;
  /** For the launch record and messages: sim, the bridge URL, the serial (never a token). */
  label: string;
  close(): Promise<void>;
}

export async function connectBridge(
  url: string,
  token: string,
  ctx: { clock: Clock; logger: Logger },
): Promise<BridgeDevice> {
  const bridge = new BridgeDevice({ url, token, clock: ctx.clock, logger: ctx.logger.child('device') });
  const c = await bridge.connect(Deadline.after(ctx.clock, 10_000));
  if (!c.ok)
    throw new ActionableError(
      'DEVICE',
      `the helper bridge at ${url} did not answer: ${c.message}`,
      'check that the helper (or `phone-agent sim`) is running and the token is right',
    );
  return bridge;
}

async function connectAdb(
  spec: Extract<DeviceSpec, { kind: 'adb' }>,
  ctx: { clock: Clock; logger: Logger },
): Promise<AdbDevice> {
  const adb = new AdbDevice({
    serial: spec.serial,
    host: spec.host,
    port: spec.port,
    clock: ctx.clock,
    logger: ctx.logger.child('device'),
  });
  const c = await adb.connect(Deadline.after(ctx.clock, 15_000));
  if (!c.ok)
    throw new ActionableError(
      'DEVICE',
      `cannot reach ${spec.serial} over adb (server ${spec.host ?? '127.0.0.1'}:${spec.port ?? 5037}): ${c.message}`,
      'check `adb devices`, or use --device sim',
    );
  return adb;
}

export async function openDevice(spec: DeviceSpec, ctx: { clock: Clock; logger: Logger }): Promise<OpenedDevice> {
  if (spec.kind === 'connected')
    return { device: spec.device, label: spec.device.name, close: () => spec.device.close() };
  if (spec.kind === 'sim') {
    const phone =
      spec.phone ?? new VirtualPhone({ clock: ctx.clock, seed: spec.seed ?? 1, locale: spec.locale ?? 'en' });
    const server = await startBridgeServer({ phone, logger: ctx.logger.child('bridge') });
    try {
      const device = await connectBridge(server.url, server.token, ctx);
      return { device, label: 'sim', close: () => device.close().finally(() => server.close()) };
    } catch (e) {
      await server.close();
      throw e;
    }
  }
  if (spec.kind === 'bridge') {
    const device = await connectBridge(spec.url, spec.token, ctx);
    return { device, label: spec.url, close: () => device.close() };
  }
  const adb = await connectAdb(spec, ctx);
  if (!spec.helper) return { device: adb, label: spec.serial, close: () => adb.close() };
  let helper: BridgeDevice;
  try {
    helper = await connectBridge(spec.helper.url, spec.helper.token, ctx);
  } catch (e) {
    await adb.close();
    throw e;
  }
  const device = new FailoverDevice({
    primary: helper,
    fallback: adb,
    clock: ctx.clock,
    logger: ctx.logger.child('device'),
  });
  return { device, label: `${spec.serial} (helper ${spec.helper.url}, adb fallback)`, close: () => device.close() };
}
