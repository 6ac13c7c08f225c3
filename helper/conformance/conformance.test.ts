import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeServer } from '../../src/sim/bridge/index.js';
import { VirtualPhone } from '../../src/sim/phone.js';
import { CONFORMANCE_CHECKS, type ConformanceResult, runConformance } from './index.js';

// The black-box suite against the virtual phone's bridge over real HTTP on loopback. The whole suite
// runs once (checks depend on each other's navigation); each check is then reported as its own test.
describe('helper protocol conformance (virtual phone)', () => {
  let results = new Map<string, ConformanceResult>();
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const phone = new VirtualPhone({ seed: 7 });
    const server = await startBridgeServer({ phone });
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
    expect(r?.detail && r.status === 'fail' ? r.detail : r?.status).toBe('pass');
  });
});
