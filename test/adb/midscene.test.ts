import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';
import { IsolatedNetwork } from './support/isolated.js';
import { centre, findNode, settle } from './support/phone.js';

/**
 * A third-party client, unchanged: midscene's Android device (@midscene/android, through
 * appium-adb and the system `adb`). Midscene has no telemetry switch because we found no telemetry;
 * its tracing integrations are off by their variables, and it runs in a network namespace that
 * reaches only our adb server, so nothing it might send can leave.
 */

const DRIVER = fileURLToPath(new URL('./support/midscene-driver.mjs', import.meta.url));

interface StepResult {
  op: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

let server: PrivateAdbServer;
let device: AdbDevice;
let phone: VirtualPhone;
let net: IsolatedNetwork;
let serial: string;

async function midscene(steps: Record<string, unknown>[]): Promise<StepResult[]> {
  const r = await net.run([process.execPath, DRIVER, serial, JSON.stringify(steps)], {
    env: {
      MIDSCENE_ADB_PATH: 'adb',
      MIDSCENE_ADB_REMOTE_PORT: String(net.adbPort),
      MIDSCENE_LANGSMITH_DEBUG: 'false',
      MIDSCENE_LANGFUSE_DEBUG: 'false',
      MIDSCENE_CACHE: 'false',
      MIDSCENE_REPORT_QUIET: 'true',
      MIDSCENE_RUN_DIR: tmpdir(),
    },
  });
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('{'));
  if (lines.length !== steps.length) throw new Error(`midscene driver: ${r.code} ${r.stdout} ${r.stderr}`);
  return lines.map((l) => JSON.parse(l) as StepResult);
}

beforeAll(async () => {
  phone = new VirtualPhone({ seed: 9 });
  device = await startAdbDevice({ phone });
  server = await PrivateAdbServer.start();
  serial = `127.0.0.1:${device.port}`;
  await server.connect(serial);
  net = await IsolatedNetwork.open(server.port);
});

afterAll(async () => {
  await net?.close();
  await server?.kill();
  await device?.close();
});

describe("midscene's Android device against the virtual phone (no network but the adb server)", () => {
  it('reads the size, takes a screenshot, launches an app and types ASCII', async () => {
    const [size, shot, launch] = await midscene([
      { op: 'size' },
      { op: 'screenshot' },
      { op: 'launch', uri: 'com.acme.bank' },
    ]);
    // Midscene works in density-independent points: 1080x2400 px at 420 dpi.
    expect(size).toMatchObject({ ok: true, value: { width: 411, height: 914 } });
    expect(shot?.ok).toBe(true);
    expect((shot?.value as { bytes: number } | undefined)?.bytes).toBeGreaterThan(10_000);
    expect(launch?.ok).toBe(true);
    await settle(phone);
    expect(phone.foreground().package).toBe('com.acme.bank');
    const email = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/email')));
    const dp = { x: Math.round(email.x / 2.625), y: Math.round(email.y / 2.625) };
    const typed = await midscene([
      { op: 'tap', ...dp },
      { op: 'type', text: 'ann@example.com' },
    ]);
    expect(typed.every((s) => s.ok)).toBe(true);
    expect((await findNode(phone, (n) => n.resourceId.endsWith(':id/email'))).text).toBe('ann@example.com');
  });

  it('scrolls up with a swipe whose end lies off the screen, as Android injects it', async () => {
    const [up, down] = await midscene([{ op: 'scrollUp' }, { op: 'scrollDown' }]);
    expect(up).toMatchObject({ op: 'scrollUp', ok: true });
    expect(down).toMatchObject({ op: 'scrollDown', ok: true });
  });

  it('types non-ASCII through yadb, which fails as on a phone where its class is missing', async () => {
    const [r] = await midscene([{ op: 'type', text: '你好' }]);
    expect(r?.ok).toBe(false);
    expect(r?.error).toMatch(/ClassNotFoundException[\s\S]*com\.ysbing\.yadb\.Main[\s\S]*runs no dex code/);
    expect(phone.world.files.has('/data/local/tmp/yadb')).toBe(true);
  });
});
