import type { ActionRequestInput } from '../../src/device/protocol/actions.js';
import type { ActionReceipt } from '../../src/device/protocol/receipt.js';
import { SnapshotSchema, type WireSnapshot } from '../../src/device/protocol/wire.js';
import { type BridgeServer, type BridgeServerOptions, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone, type VirtualPhoneDeps } from '../../src/testbed/sim/phone.js';

/** A virtual phone behind its bridge server, and a tiny HTTP client for the bridge tests. */
export interface Harness {
  phone: VirtualPhone;
  server: BridgeServer;
  post(
    path: string,
    body: unknown,
    init?: { signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<{ status: number; json: unknown }>;
  act(body: ActionRequestInput): Promise<ActionReceipt>;
  snapshot(): Promise<WireSnapshot>;
}

export async function startHarness(
  deps: VirtualPhoneDeps = {},
  opts: Omit<BridgeServerOptions, 'phone'> = {},
): Promise<Harness> {
  const phone = new VirtualPhone({ seed: 3, ...deps });
  const server = await startBridgeServer({ phone, ...opts });
  const post: Harness['post'] = async (path, body, init = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}`, ...init.headers },
      body: JSON.stringify(body),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  return {
    phone,
    server,
    post,
    async act(body) {
      const r = await post('/v3/action', body);
      if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${JSON.stringify(r.json)}`);
      return r.json as ActionReceipt;
    },
    async snapshot() {
      return SnapshotSchema.parse((await post('/v3/snapshot', {})).json);
    },
  };
}
