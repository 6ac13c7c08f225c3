import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone, type VirtualPhoneDeps } from '../../src/testbed/sim/phone.js';
import { CONFORMANCE_CHECKS, type ConformanceResult, runConformance } from './index.js';

// The black-box suite against the virtual phone's bridge over real HTTP on loopback. The whole suite
// runs once per device (checks depend on each other's navigation); each check is its own test.
const devices: [string, VirtualPhoneDeps][] = [
  ['phone 1080x2400, en', { seed: 7 }],
  ['landscape 2400x1080, zh', { seed: 11, screen: 'landscape', locale: 'zh' }],
];

describe.each(devices)('helper protocol conformance (virtual phone, %s)', (_label, deps) => {
  let results = new Map<string, ConformanceResult>();
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const phone = new VirtualPhone(deps);
    // Short HTTP deadlines, announced in hello.limits, keep the timeout checks quick.
    const server = await startBridgeServer({ phone, headerTimeoutMs: 400, bodyTimeoutMs: 800 });
    close = server.close;
    const all = await runConformance({ url: server.url, token: server.token });
    results = new Map(all.map((r) => [r.name, r]));
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  it.each(CONFORMANCE_CHECKS.map((c) => c.name))('%s', (name) => {
    const r = results.get(name);
    expect(r, `check ${name} did not run`).toBeDefined();
    // On failure, show the check's own explanation.
    expect(r?.status === 'fail' ? r.detail : r?.status).toBe('pass');
  });
});
