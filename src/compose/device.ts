import { type Clock, Deadline } from '../core/clock.js';
import { ActionableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { AdbDevice } from '../device/adb/device.js';
import { BridgeDevice } from '../device/bridge/device.js';
import type { Device } from '../device/device.js';
import { FailoverDevice } from '../device/failover.js';
import { helperForRun } from '../device/helper-app/connect.js';
import { DEFAULT_HELPER_STATE_DIR } from '../device/helper-app/ime-state.js';
import type { ReplayPhone } from '../testbed/replay/phone.js';
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
  /** A recorded real-app graph (testbed/replay) in this process behind the same bridge server. */
  | { kind: 'replay'; phone: ReplayPhone }
  | { kind: 'bridge'; url: string; token: string }
  | {
      kind: 'adb';
      serial: string;
      host?: string;
      port?: number;
      /** An explicit helper bridge; without it the installed helper app is discovered over adb. */
      helper?: { url: string; token: string };
      /** false: never look for the helper app (plain adb). */
      discoverHelper?: boolean;
      /** Where the keyboard to give back is recorded (default `.phone-agent/helper`, env PHONE_AGENT_HELPER_STATE). */
      helperState?: string;
    }
  /** An already connected device (tools that built their own); `keepOpen`: its owner closes it. */
  | { kind: 'connected'; device: Device; keepOpen?: boolean };

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
      // The adb backend's message may already say to check `adb devices`: say it once.
      c.message.includes('adb devices')
        ? '`phone-agent devices` lists what --device takes; --device sim is the built-in virtual phone'
        : 'check `adb devices`, or use --device sim',
    );
  return adb;
}

export async function openDevice(spec: DeviceSpec, ctx: { clock: Clock; logger: Logger }): Promise<OpenedDevice> {
  if (spec.kind === 'connected')
    return {
      device: spec.device,
      label: spec.device.name,
      close: () => (spec.keepOpen ? Promise.resolve() : spec.device.close()),
    };
  if (spec.kind === 'sim' || spec.kind === 'replay') {
    const phone =
      spec.kind === 'replay'
        ? spec.phone
        : (spec.phone ?? new VirtualPhone({ clock: ctx.clock, seed: spec.seed ?? 1, locale: spec.locale ?? 'en' }));
    const label = spec.kind === 'replay' ? `replay:${spec.phone.graph.name}` : 'sim';
    const server = await startBridgeServer({ phone, logger: ctx.logger.child('bridge') });
    try {
      const device = await connectBridge(server.url, server.token, ctx);
      return { device, label, close: () => device.close().finally(() => server.close()) };
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
  let release = async () => {};
  let endpoint = spec.helper;
  if (!endpoint && spec.discoverHelper !== false) {
    const found = await helperForRun({
      serial: spec.serial,
      adbHost: spec.host,
      adbPort: spec.port,
      stateDir: spec.helperState ?? process.env.PHONE_AGENT_HELPER_STATE ?? DEFAULT_HELPER_STATE_DIR,
      logger: ctx.logger.child('device'),
    });
    if (found.ok) {
      endpoint = { url: found.endpoint.url, token: found.endpoint.token };
      release = found.release;
    } else ctx.logger.warn(`helper not used, continuing on adb: ${found.reason}`, { backend: 'adb' });
  }
  if (!endpoint) return { device: adb, label: spec.serial, close: () => adb.close() };
  let helper: BridgeDevice;
  try {
    helper = await connectBridge(endpoint.url, endpoint.token, ctx);
  } catch (e) {
    await release();
    if (!spec.helper) {
      // A discovered helper that does not connect is no reason to give up: adb still works.
      ctx.logger.warn(`helper not used, continuing on adb: ${e instanceof Error ? e.message : String(e)}`, {
        backend: 'adb',
      });
      return { device: adb, label: spec.serial, close: () => adb.close() };
    }
    await adb.close();
    throw e;
  }
  const device = new FailoverDevice({
    primary: helper,
    fallback: adb,
    clock: ctx.clock,
    logger: ctx.logger.child('device'),
  });
  return {
    device,
    label: `${spec.serial} (helper ${endpoint.url}, adb fallback)`,
    close: () => device.close().finally(release),
  };
}
