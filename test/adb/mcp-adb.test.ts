import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composePorts } from '../../src/compose/ports.js';
import { Logger } from '../../src/core/logger.js';
import type { Device } from '../../src/device/device.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { DeviceSession } from '../../src/mcp/session.js';
import { dualRig } from './executor-rig.js';

/**
 * `phone-agent mcp`'s direct tools over plain adb (issue 21, items 18–21), spoken to by the MCP
 * SDK's own Client: only what the device can run is listed, and the list follows a failover with
 * `notifications/tools/list_changed`; a slider is set and read over adb, a swipe that moved it is
 * verified; launch_app takes a label adb cannot read; observe debug carries the elements.
 */

let rig: Awaited<ReturnType<typeof dualRig>>;
let locks: string;
const prevLockDir = process.env.PHONE_AGENT_LOCK_DIR;
beforeAll(async () => {
  rig = await dualRig();
  locks = await mkdtemp(path.join(tmpdir(), 'pa-mcp-adb-'));
  process.env.PHONE_AGENT_LOCK_DIR = locks;
});
afterAll(async () => {
  await rig?.close();
  await rm(locks, { recursive: true, force: true });
  if (prevLockDir === undefined) delete process.env.PHONE_AGENT_LOCK_DIR;
  else process.env.PHONE_AGENT_LOCK_DIR = prevLockDir;
});

async function connect(device: Device, key: string) {
  const ports = composePorts({ device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
  const session = new DeviceSession({
    device,
    executor: ports.executor,
    deviceId: key,
    lockKey: key,
    clock: rig.clock,
  });
  const server = createMcpServer({ session, logger: Logger.silent(), version: 'test' });
  const client = new Client({ name: 'adb-test', version: '1.0.0' });
  const changes: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes.push(Date.now());
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { r, sc: (r.structuredContent ?? {}) as Record<string, unknown> };
  };
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  return { client, changes, call, names, close: () => client.close() };
}

const idOf = (view: string, re: RegExp) => {
  const line = view.split('\n').find((l) => re.test(l));
  const m = line && /^\[([0-9a-f~]+)\]/.exec(line);
  if (!m) throw new Error(`no line ${re} in:\n${view}`);
  return m[1] as string;
};
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP over plain adb', () => {
  it('lists only the tools adb can run: no touch_gesture, control_action or pinch; set_slider instead', async () => {
    const c = await connect(rig.adb, 'adb-plain');
    try {
      const names = await c.names();
      for (const n of ['observe', 'tap', 'swipe', 'type_text', 'launch_app', 'read_control', 'set_slider'])
        expect(names, n).toContain(n);
      for (const n of ['touch_gesture', 'control_action', 'pinch']) expect(names, n).not.toContain(n);
      const refused = await c.call('touch_gesture', { frames: [] });
      expect(refused.r.isError).toBe(true);
    } finally {
      await c.close();
    }
  });

  it("names no tool it does not list: set_slider's help is true over adb", async () => {
    const c = await connect(rig.adb, 'adb-help');
    try {
      const { tools } = await c.client.listTools();
      const listed = new Set(tools.map((t) => t.name));
      const unlisted = ['touch_gesture', 'control_action', 'pinch'].filter((n) => !listed.has(n));
      expect(unlisted).toHaveLength(3);
      for (const t of tools)
        for (const n of unlisted)
          expect(t.description ?? '', `${t.name} names ${n}`).not.toMatch(new RegExp(`\\b${n}\\b`));
    } finally {
      await c.close();
    }
  });

  it('follows a failover: the helper gone, the list shrinks to adb with list_changed; back again when it returns', async () => {
    const c = await connect(rig.failover(), 'adb-failover');
    try {
      expect(await c.names()).toContain('touch_gesture');
      rig.phone.faults.helperDisconnected = true;
      const o = await c.call('observe');
      expect(o.r.isError).toBeFalsy();
      await expect.poll(() => c.changes.length).toBeGreaterThan(0);
      const onAdb = await c.names();
      expect(onAdb).not.toContain('touch_gesture');
      expect(onAdb).toContain('set_slider');
      const seen = c.changes.length;
      rig.phone.faults.helperDisconnected = false;
      await rig.clock.sleep(1_500);
      await c.call('observe');
      await expect.poll(() => c.changes.length).toBeGreaterThan(seen);
      expect(await c.names()).toContain('touch_gesture');
    } finally {
      rig.phone.faults.helperDisconnected = false;
      await c.close();
    }
  });

  it('sets the brightness slider, reads it back, and verifies a swipe that moved it on the frame', async () => {
    const c = await connect(rig.adb, 'adb-slider');
    try {
      rig.phone.putSetting('system', 'screen_brightness', '128');
      await rig.phone.launch('com.android.settings', '.DisplaySettings');
      await rig.clock.sleep(500);
      const view = textOf((await c.call('observe')).r);
      const bar = idOf(view, /SeekBar "Brightness level"/);
      const set = await c.call('set_slider', { element_id: bar, value: 20, responseMode: 'compact' });
      expect(set.sc, JSON.stringify(set.sc)).toMatchObject({
        success: true,
        lifecycle_state: 'verified',
        value: { status: 'reached', target: 20, from: 'frame' },
      });
      expect(Math.abs((rig.phone.world.settings.brightness / 255) * 100 - 20)).toBeLessThanOrEqual(2);

      const read = await c.call('read_control', { element_id: bar, responseMode: 'compact' });
      expect(read.sc, JSON.stringify(read.sc)).toMatchObject({
        success: true,
        delivery_status: 'not_delivered',
        value: { range_source: 'frame' },
      });
      const current = (read.sc.value as { range: { current: number } }).range.current;
      expect(Math.abs(current - 20)).toBeLessThanOrEqual(2);

      // A swipe moves the thumb; the dump shows nothing of it, the frame does: verified, not "nothing changed".
      const swipe = await c.call('swipe', { element_id: bar, direction: 'right', verificationMode: 'full' });
      expect(swipe.sc, JSON.stringify(swipe.sc.message)).toMatchObject({ success: true, lifecycle_state: 'verified' });
      expect(rig.phone.world.settings.brightness).toBeGreaterThan(60);
    } finally {
      await c.close();
    }
  });

  it('launch_app by a label adb cannot read (Files → com.android.documentsui) opens it', async () => {
    const c = await connect(rig.adb, 'adb-launch');
    try {
      const r = await c.call('launch_app', { label: 'Files', responseMode: 'compact' });
      expect(r.sc, JSON.stringify(r.sc)).toMatchObject({ success: true, lifecycle_state: 'verified' });
      expect(rig.phone.foreground().package).toBe('com.android.documentsui');
    } finally {
      await c.close();
    }
  });

  it('observe responseMode debug gives the elements in the content, not only the compact listing', async () => {
    const c = await connect(rig.adb, 'adb-debug');
    try {
      const r = (await c.call('observe', { responseMode: 'debug' })).r;
      const parts = r.content.filter((x) => x.type === 'text').map((x) => (x.type === 'text' ? x.text : ''));
      expect(parts[0]).toMatch(/^snapshot_revision \d+/);
      const json = JSON.parse(parts[1] ?? '{}') as { elements?: { id: string; boundsPx: unknown }[] };
      expect(json.elements?.length).toBeGreaterThan(3);
      expect(json.elements?.[0]).toHaveProperty('boundsPx');
      const compact = (await c.call('observe')).r;
      expect(compact.content.filter((x) => x.type === 'text')).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});
