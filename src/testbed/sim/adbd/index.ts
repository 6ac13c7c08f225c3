import { createServer } from 'node:net';
import { Logger } from '../../../core/logger.js';
import type { PhoneSurface } from '../surface.js';
import { AdbConnection } from './connection.js';
import { bindHelperApp, type HelperBinding } from './helper-app.js';
import { FEATURES, serviceResolver } from './services/index.js';

/**
 * ADB's device-side transport on TCP for the virtual phone: `adb connect 127.0.0.1:PORT` attaches it
 * like a phone in wireless debugging, and the real adb server, adbkit and appium-adb drive it.
 */

export interface AdbDeviceOptions {
  phone: PhoneSurface;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the virtual phone never listens beyond loopback unless asked. */
  host?: string;
  logger?: Logger;
  /**
   * Device port → real loopback port for `tcp:` streams (e.g. the helper's 7912 → the bridge). On a
   * non-loopback host only these ports are reachable through `tcp:`.
   */
  forwardPorts?: Record<number, number>;
  /**
   * The bridge that plays the helper app: device port 7912 reaches it (and `run-as` reads its token)
   * once the helper APK is installed and its accessibility service enabled.
   */
  helper?: HelperBinding;
}

export interface AdbDevice {
  port: number;
  close(): Promise<void>;
}

export function deviceBanner(phone: PhoneSurface): string {
  const i = phone.info;
  // ';' and '=' separate banner fields, so they cannot appear inside values.
  const clean = (s: string) => s.replace(/[;=]/g, '_');
  return `device::ro.product.name=${clean(i.product)};ro.product.model=${clean(i.model)};ro.product.device=${clean(i.device)};features=${FEATURES.join(',')}`;
}

export async function startAdbDevice(opts: AdbDeviceOptions): Promise<AdbDevice> {
  const logger = (opts.logger ?? Logger.silent()).child('adb');
  const host = opts.host ?? '127.0.0.1';
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  const resolve = serviceResolver(opts.phone, opts.forwardPorts ?? {}, loopback ? 'loopback' : 'mapped-only');
  if (opts.helper) bindHelperApp(opts.phone, opts.helper);
  const banner = deviceBanner(opts.phone);
  const connections = new Set<AdbConnection>();
  const server = createServer((socket) => {
    const conn = new AdbConnection({ socket, banner, resolve, logger });
    connections.add(conn);
    socket.on('close', () => {
      connections.delete(conn);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  logger.info('adb device listening', { port });
  return {
    port,
    close: () =>
      new Promise<void>((ok) => {
        for (const c of connections) c.destroy();
        server.close(() => ok());
      }),
  };
}
