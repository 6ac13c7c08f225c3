import { type Clock, Deadline } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { AdbDevice } from '../adb/device.js';
import { BridgeDevice } from '../bridge/device.js';
import type { Device } from '../device.js';
import { FailoverDevice } from '../failover.js';
import { AdbCli } from './adb-cli.js';
import { HelperApp } from './helper-app.js';

/**
 * `--device SERIAL`: the helper when it is installed and healthy (with ADB as the failover), else ADB
 * alone — the reason logged, and every receipt names its backend. For the run the phone is switched to
 * the helper's keyboard and the previous one is given back on close (or on the next start after a crash).
 */

export interface PhoneConnectOptions {
  serial: string;
  adbHost: string;
  adbPort: number;
  clock: Clock;
  logger: Logger;
  stateDir: string;
}

export interface PhoneConnection {
  device: Device;
  /** 'helper' (bridge with adb failover) or 'adb' (the helper was not usable: `reason`). */
  backend: 'helper' | 'adb';
  reason?: string;
  close(): Promise<void>;
}

export async function connectPhone(o: PhoneConnectOptions): Promise<PhoneConnection> {
  const adb = new AdbDevice({
    serial: o.serial,
    host: o.adbHost,
    port: o.adbPort,
    clock: o.clock,
    logger: o.logger.child('adb'),
  });
  const c = await adb.connect(Deadline.after(o.clock, 15_000));
  if (!c.ok) return Promise.reject(new Error(c.message));
  const app = new HelperApp(new AdbCli({ serial: o.serial, host: o.adbHost, port: o.adbPort }), o.stateDir);
  const recovered = await app.recoverIme();
  if (recovered?.ok) o.logger.warn(`${recovered.detail} (left over from an agent that did not finish)`);
  const found = await app.discover();
  if (!found.ok) {
    o.logger.warn(`helper not used, continuing on adb: ${found.reason}`, { backend: 'adb' });
    return { device: adb, backend: 'adb', reason: found.reason, close: () => adb.close() };
  }
  const ime = await app.useIme();
  if (!ime.ok) o.logger.warn(ime.message);
  const bridge = new BridgeDevice({
    url: found.endpoint.url,
    token: found.endpoint.token,
    clock: o.clock,
    logger: o.logger.child('bridge'),
  });
  const b = await bridge.connect(Deadline.after(o.clock, 10_000));
  if (!b.ok) {
    await app.restoreIme();
    o.logger.warn(`helper not used, continuing on adb: ${b.message}`, { backend: 'adb' });
    return { device: adb, backend: 'adb', reason: b.message, close: () => adb.close() };
  }
  o.logger.info('using the helper, adb as failover', { url: found.endpoint.url, api: found.endpoint.hello.apiLevel });
  const device = new FailoverDevice({
    primary: bridge,
    fallback: adb,
    clock: o.clock,
    logger: o.logger.child('device'),
  });
  return {
    device,
    backend: 'helper',
    close: async () => {
      await device.close();
      const r = await app.restoreIme();
      if (!r.ok) o.logger.warn(r.message);
    },
  };
}
