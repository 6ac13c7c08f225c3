import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { deviceLockKey, lockDevice } from '../../src/store/device-lock.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { type Dirs, MAIN, ROOT, sc, TSX, tempDirs } from './harness.js';

/**
 * `phone-agent mcp --devices URL,URL`: the server holds a pool for its task runs. `mobile_run_task`
 * with device "any" (the default with a pool) takes a free pool device under its lock — two runs at
 * once land on two phones — or one by id; with every pool device held elsewhere it is BUSY.
 */

const TOKEN = 'pool-test-token';
let dirs: Dirs;
let client: Client;
const phones: { phone: VirtualPhone; bridge: BridgeServer }[] = [];

beforeAll(async () => {
  dirs = await tempDirs();
  for (let i = 0; i < 2; i++) {
    const phone = new VirtualPhone({ clock: new RealClock(), seed: 1 });
    phones.push({ phone, bridge: await startBridgeServer({ phone, token: TOKEN }) });
  }
  client = new Client({ name: 'pool-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: TSX,
      args: [
        ...[MAIN, 'mcp', '--devices', phones.map((p) => p.bridge.url).join(','), '--token', TOKEN],
        ...['--model', 'reference', '--runs-dir', dirs.runs, '--memory', path.join(dirs.root, 'memory.json')],
      ],
      cwd: ROOT,
      env: dirs.env as Record<string, string>,
      stderr: 'pipe',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  for (const p of phones) await p.bridge.close();
  await dirs.close();
});

const run = async (args: Record<string, unknown>) =>
  sc(
    await client.callTool({ name: 'mobile_run_task', arguments: { max_steps: 12, ...args } }, undefined, {
      timeout: 120_000,
    }),
  );

describe('phone-agent mcp with a device pool', () => {
  it('runs two tasks at once on two free pool phones, and one on a named phone', { timeout: 180_000 }, async () => {
    const [a, b] = await Promise.all([
      run({ goal: 'Turn Wi-Fi off', device: 'any' }),
      run({ goal: 'Turn Bluetooth off.' }),
    ]);
    expect([a?.status, b?.status]).toEqual(['done', 'done']);
    const urls = phones.map((p) => p.bridge.url);
    expect(new Set([a?.device, b?.device])).toEqual(new Set(urls));
    // Each phone ran the task reported on it.
    const byUrl = (u: unknown) => phones[urls.indexOf(String(u))]?.phone.world.settings;
    expect(byUrl(a?.device)?.wifi).toBe(false);
    expect(byUrl(b?.device)?.bluetooth).toBe(false);
    const named = await run({ goal: 'Turn Wi-Fi on', device: urls[1] });
    expect(named).toMatchObject({ status: 'done', device: urls[1] });
    expect(phones[1]?.phone.world.settings.wifi).toBe(true);
  });

  it('is BUSY, naming the devices, when every pool phone is driven by someone else', { timeout: 120_000 }, async () => {
    const locks = await Promise.all(
      phones.map((p) =>
        lockDevice(deviceLockKey(p.bridge.url), { command: 'another driver', dir: path.join(dirs.root, 'locks') }),
      ),
    );
    try {
      const r = await run({ goal: 'Turn Wi-Fi off', device: 'any' });
      expect(r).toMatchObject({ failure_code: 'BUSY' });
      expect(String(r.message ?? r.error ?? JSON.stringify(r))).toMatch(/no free device in the pool: .* busy/);
    } finally {
      for (const l of locks) await l.release();
    }
  });
});
