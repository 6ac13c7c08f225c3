import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevicePorts } from '../../src/agent/device-ports.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { callbackConfirmation } from '../../src/compose/agent.js';
import { Deadline } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { AdbDevice } from '../../src/device/adb/device.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import { type AdbDevice as FakeAdbd, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { recordSimRun } from '../testbed/replay/record-sim.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * The replay phone over ADB exactly like the virtual phone: the sim's adbd in front of a recorded
 * graph (written from the virtual phone as DroidBot writes one), the real adb server, and the
 * product's adb backend — `uiautomator dump`, `screencap`, `input tap`, `am start`, `input keyevent`.
 */

let dir: string;
let phone: ReplayPhone;
let adbd: FakeAdbd;
let server: PrivateAdbServer;
let ports: AgentPorts;
let serial: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'replay-adb-'));
  await recordSimRun(new VirtualPhone({ seed: 4 }), dir, [
    { intent: 'com.android.settings/.Settings' },
    { touch: 'Network & internet' },
    { key: 'BACK' },
  ]);
  const graph = await loadDroidbotGraph(dir);
  phone = await ReplayPhone.open({ graph });
  adbd = await startAdbDevice({ phone, logger: Logger.silent() });
  server = await PrivateAdbServer.start();
  serial = `127.0.0.1:${adbd.port}`;
  await server.connect(serial);
  const device = new AdbDevice({ serial, port: server.port, clock: phone.clock, logger: Logger.silent() });
  const c = await device.connect(Deadline.after(phone.clock, 10_000));
  if (!c.ok) throw new Error(c.message);
  ports = createDevicePorts({ device, clock: phone.clock, logger: Logger.silent() });
});

afterAll(async () => {
  await server?.kill();
  await adbd?.close();
  await rm(dir, { recursive: true, force: true });
});

const confirm = callbackConfirmation('test', () => 'denied');

describe('the replay phone over adb', () => {
  it('is read by uiautomator dump and screencap, and moves on recorded events only', async () => {
    const home = await ports.observe();
    expect(home.obs.app.package).toBe('com.android.launcher3');
    expect(home.png?.subarray(1, 4).toString()).toBe('PNG');
    const launch = await ports.execute({
      decision: {
        thought: 'open settings',
        action: { tool: 'launch_app', package: 'com.android.settings' },
        expect: { kind: 'app_foreground', package: 'com.android.settings' },
      },
      obs: home.obs,
      confirm,
      events: async () => {},
      dryRun: false,
      fresh: true,
    });
    expect(launch.error).toBeUndefined();
    const settings = await ports.observe();
    expect(settings.compact).toMatch(/"Network & internet/);
    const row = settings.obs.elements.find((e) => e.actionable && /^Network & internet/.test(e.label ?? ''));
    const tap = await ports.execute({
      decision: { thought: 'open it', action: { tool: 'tap', target_id: row?.id }, expect: { kind: 'page_changes' } },
      obs: settings.obs,
      confirm,
      events: async () => {},
      dryRun: false,
      fresh: true,
    });
    expect(tap.error).toBeUndefined();
    expect(phone.log.at(-1)?.outcome).toBe('moved');
    const internet = await ports.observe();
    expect(internet.obs.app.activity).toMatch(/NetworkDashboard/);
    // `input tap` where nothing was recorded: off-graph, nothing changes.
    const before = phone.state;
    const r = await server.run(['-s', serial, 'shell', 'input', 'tap', '540', '2000']);
    expect(r.code).toBe(0);
    expect(phone.offGraph().at(-1)).toMatchObject({ input: 'tap 540,2000', outcome: 'off-graph' });
    expect(phone.state).toBe(before);
    const back = await server.run(['-s', serial, 'shell', 'input', 'keyevent', 'KEYCODE_BACK']);
    expect(back.code).toBe(0);
    expect(phone.log.at(-1)?.outcome).toBe('moved');
    expect((await ports.observe()).compact).toMatch(/"Network & internet/);
  });
});
