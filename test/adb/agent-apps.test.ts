import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { SHOP_01 } from '../../regression-tasks/tasks/shop-01.js';
import { instantiate } from '../../regression-tasks/types.js';
import { runAgent } from '../../src/agent/loop.js';
import { callbackConfirmation, composeAgent } from '../../src/compose/agent.js';
import type { DeviceSpec } from '../../src/compose/device.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * The Apps line in the product path, over both of the virtual phone's protocols: the agent reads the
 * launcher's apps once, shows them in the plan prompt and on the home screen's step only, and the
 * model's launch_app by the name it was shown opens FoodShop (which lives only in the drawer).
 */

let runsDir: string;
let model: ReferenceModel;
const requests: { system: string; user: string }[] = [];
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-apps-'));
  model = await startReferenceModel({
    catalog: referenceCatalog(),
    noise: 0,
    seed: 1,
    tokenizer: 'estimate',
    onRequest: (body) => {
      const text = (role: string) => {
        const c = body.messages.find((m) => m.role === role)?.content;
        return typeof c === 'string' ? c : JSON.stringify(c ?? '');
      };
      requests.push({ system: text('system'), user: text('user') });
    },
  });
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

async function run(kind: 'bridge' | 'adb') {
  requests.length = 0;
  const clock = new VirtualClock();
  const phone = new VirtualPhone({ clock, seed: 1 });
  const { goal } = instantiate(SHOP_01, 1);
  const bridge = await startBridgeServer({ phone, logger: Logger.silent() });
  const adbd = await startAdbDevice({ phone, logger: Logger.silent() });
  const server = await PrivateAdbServer.start();
  const serial = `127.0.0.1:${adbd.port}`;
  try {
    await server.connect(serial);
    const device: DeviceSpec =
      kind === 'bridge'
        ? { kind: 'bridge', url: bridge.url, token: bridge.token }
        : { kind: 'adb', serial, port: server.port, discoverHelper: false };
    const agent = await composeAgent({
      device,
      model: { baseUrl: model.url, model: 'reference' },
      confirm: callbackConfirmation('test', () => 'approved'),
      memory: new PageMemory(),
      clock,
      logger: Logger.silent(),
      screenshots: false,
    });
    // The whole task: over plain adb a filled field shows its text as its only name (no hint in a
    // uiautomator dump), which once looped on retyping the search until the budget ran out.
    const r = await runAgent(agent.deps, { goal, maxSteps: 12, runsDir });
    await agent.close();
    return { run: r, requests: [...requests] };
  } finally {
    await server.kill();
    await adbd.close();
    await bridge.close();
  }
}

const appsLine = (user: string) => /^Apps: (.*)$/m.exec(user)?.[1];

describe.each([
  ['bridge', 'FoodShop'],
  ['adb', 'Foodshop'],
] as const)('the Apps line over %s', (kind, name) => {
  it(`plans with it, shows it on the home screen only, and launch_app "${name}" opens the drawer-only app`, async () => {
    const { run: r, requests: reqs } = await run(kind);
    expect(r.status, JSON.stringify(r.stepLog, null, 1)).toBe('done');
    expect(r.stepLog[0], JSON.stringify(r.stepLog, null, 1)).toMatchObject({
      action: `launch_app package=${name}`,
      ok: true,
    });
    const [plan, ...steps] = reqs;
    expect(plan?.system).toMatch(/^You plan/);
    expect(appsLine(plan?.user ?? '')?.split(', ')).toEqual(expect.arrayContaining([name, 'Settings', 'Notes']));
    // The first step decides on the home screen: the line is there; in FoodShop it is not.
    expect(steps[0]?.user).toMatch(/app com\.android\.launcher3/);
    expect(appsLine(steps[0]?.user ?? '')).toBe(appsLine(plan?.user ?? ''));
    const inApp = steps.filter((s) => /app com\.foodshop/.test(s.user));
    expect(inApp.length).toBeGreaterThan(0);
    for (const s of inApp) expect(appsLine(s.user)).toBeUndefined();
    // The launch went by the name on the line, and worked (the next prompt's history says so).
    expect(inApp[0]?.user).toMatch(new RegExp(`1\\. launch_app package=${name} expect [^\\n]* → met`));
  });
});
