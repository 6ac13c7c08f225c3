import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { recordSimRun } from '../testbed/replay/record-sim.js';
import { type Dirs, sc, stdioClient, tempDirs, text } from './harness.js';

/**
 * `phone-agent mcp` on the replay phone, as a third-party MCP client drives it: a recorded graph
 * (written from the virtual phone as DroidBot writes one) behind the sim's bridge server. A recorded
 * tap moves to its recorded screen; a tap the recording has no outcome for changes nothing and is
 * off the graph.
 */

let dir: string;
let states: string[];
let phone: ReplayPhone;
let bridge: BridgeServer;
let dirs: Dirs;
let client: Client;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'replay-mcp-'));
  states = (
    await recordSimRun(new VirtualPhone({ seed: 5 }), dir, [
      { intent: 'com.android.settings/.Settings' },
      { touch: 'Network & internet' },
    ])
  ).states;
  phone = await ReplayPhone.open({ graph: await loadDroidbotGraph(dir), start: states[1], clock: new RealClock() });
  bridge = await startBridgeServer({ phone });
  dirs = await tempDirs();
  ({ client } = await stdioClient({ bridge }, dirs));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await bridge?.close();
  await dirs?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

describe('phone-agent mcp on the replay phone', () => {
  it('observes the recorded screen, follows a recorded tap, and leaves the screen on an off-graph one', async () => {
    expect(text(await call('observe'))).toContain('"Network & internet');
    const off = sc(await call('tap', { selector: { text: 'Battery' }, verificationMode: 'none' }));
    expect(off.delivery_status).toBe('delivered');
    // The device's receipt says so, as the client gets it.
    expect((off.debug as { receipt: { detail?: string } }).receipt.detail).toMatch(/^off-graph: no recorded tap at/);
    expect(phone.state).toBe(states[1]);
    expect(phone.offGraph().map((s) => s.detail)).toEqual([expect.stringMatching(/^no recorded tap at \d+,\d+/)]);
    const on = sc(
      await call('tap', {
        selector: { text: 'Network & internet' },
        verificationMode: 'light',
        responseMode: 'compact',
      }),
    );
    expect(on).toMatchObject({ success: true, delivery_status: 'delivered' });
    expect(phone.state).toBe(states[2]);
    expect(text(await call('observe'))).toContain('"Internet');
  });
});
