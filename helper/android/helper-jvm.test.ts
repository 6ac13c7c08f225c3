import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_CHECKS, type ConformanceResult, runConformance } from '../conformance/index.js';
import { compileJvm, type JvmHelper, runCoreTests, startJvmHelper } from './tools/jvm.js';

// The helper's own Java protocol code on the JVM (OpenJDK is on every project machine): its unit
// tests, then the black-box conformance suite over real HTTP against the runner over a scripted tree.
describe('helper core on the JVM', () => {
  let helper: JvmHelper | undefined;
  let results = new Map<string, ConformanceResult>();
  let tests = { code: -1, output: '' };

  beforeAll(async () => {
    await compileJvm();
    tests = await runCoreTests();
    const token = randomBytes(32).toString('hex');
    // Short HTTP deadlines, announced in hello.limits, keep the timeout checks quick (the JVM unit
    // tests check the §3 defaults the app runs with).
    helper = await startJvmHelper({ token, headerTimeoutMs: 400, bodyTimeoutMs: 800 });
    const all = await runConformance({ url: helper.url, token });
    results = new Map(all.map((r) => [r.name, r]));
  }, 120_000);

  afterAll(async () => {
    await helper?.close();
  });

  it('passes its JVM unit tests', () => {
    expect(tests.output).toMatch(/^\d+ passed, 0 failed$/m);
    expect(tests.code).toBe(0);
  });

  it.each(CONFORMANCE_CHECKS.map((c) => c.name))('conformance: %s', (name) => {
    const r = results.get(name);
    expect(r, `check ${name} did not run`).toBeDefined();
    expect(r?.status === 'fail' ? r.detail : r?.status).toBe('pass');
  });
});
