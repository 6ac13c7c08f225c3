import { Deadline, VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { AdbDevice } from '../../src/device/adb/device.js';
import { BridgeDevice } from '../../src/device/bridge/device.js';
import { FailoverDevice } from '../../src/device/failover.js';
import { startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { AGENT_IME, VirtualPhone, type VirtualPhoneDeps } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * One virtual phone speaking both protocols — its helper bridge and ADB (through a private real adb
 * server on its own port) — with a connected device client for each. Killed at the end.
 */
export async function dualRig(
  opts: VirtualPhoneDeps & { agentIme?: boolean; omitCapabilities?: readonly string[] } = {},
) {
  const clock = opts.clock ?? new VirtualClock();
  const phone = new VirtualPhone({ ...opts, clock });
  if (opts.agentIme) {
    phone.enableIme(AGENT_IME, true);
    phone.setIme(AGENT_IME);
  }
  const bridge = await startBridgeServer({
    phone,
    logger: Logger.silent(),
    omitCapabilities: opts.omitCapabilities,
  });
  const adbd = await startAdbDevice({ phone, logger: Logger.silent() });
  const server = await PrivateAdbServer.start();
  const serial = `127.0.0.1:${adbd.port}`;
  await server.connect(serial);
  const logger = Logger.silent();
  const adb = new AdbDevice({ serial, port: server.port, clock, logger });
  const a = await adb.connect(Deadline.after(clock, 10_000));
  if (!a.ok) throw new Error(a.message);
  const helper = new BridgeDevice({
    url: bridge.url,
    token: bridge.token,
    clock,
    logger,
    backoff: { minMs: 200, maxMs: 1_000 },
  });
  const b = await helper.connect(Deadline.after(clock, 5_000));
  if (!b.ok) throw new Error(b.message);
  return {
    clock,
    phone,
    adb,
    helper,
    serial,
    server,
    /** The helper first, adb when it stops answering (probed again every second). */
    failover: () => new FailoverDevice({ primary: helper, fallback: adb, clock, logger, probeEveryMs: 1_000 }),
    async close() {
      await server.kill();
      await adbd.close();
      await bridge.close();
    },
  };
}
