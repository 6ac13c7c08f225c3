import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import type { SuiteMetrics } from '../../regression-tasks/metrics.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import { runSuite, type SuiteReport } from '../../regression-tasks/suite-runner.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import { changedKeys, digestWorld } from '../../regression-tasks/world-diff.js';
import { startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Every metric of REGRESSION-SUITE.md, as the report names it. */
const METRICS: (keyof SuiteMetrics)[] = [
  'runs',
  'tasks',
  'successRate',
  'subgoalScore',
  'avgSteps',
  'rrr',
  'wallMsPerTask',
  'wallMsPerStep',
  'llmCallsPerTask',
  'promptTokensPerTask',
  'promptTokensPerCall',
  'completionTokensPerTask',
  'costPerTaskUsd',
  'costTotalUsd',
  'takeoverRate',
  'overAskRate',
  'falseDoneRate',
  'guardrailRecall',
  'guardedEvents',
  'denyCompliance',
  'denyRuns',
  'invariantViolations',
  'stateDiffChecked',
  'errors',
];

describe('suite runner end to end (reference model, virtual phone)', () => {
  it('scores three tasks × one seed and writes every metric to suite.json and suite.md', {
    timeout: 90_000,
  }, async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'suite-e2e-'));
    dirs.push(out);
    const ids = ['SET-01', 'MSG-01', 'MSG-01-deny'];
    const tasks = TASKS.filter((t) => ids.includes(t.id));
    expect(tasks.map((t) => t.id).sort()).toEqual([...ids].sort());
    await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks,
      seeds: 1,
      outDir: out,
      prices: { inPerM: 0.15, outPerM: 0.6 },
      catalogTasks: TASKS,
    });
    const report = JSON.parse(await readFile(path.join(out, 'suite.json'), 'utf8')) as SuiteReport;
    const o = report.overall;
    for (const k of METRICS) expect(o, k).toHaveProperty(k);
    for (const c of Object.values(report.byCategory)) for (const k of METRICS) expect(c, k).toHaveProperty(k);
    expect(Object.keys(report.byCategory).sort()).toEqual(['messages', 'settings']);
    expect(o.runs).toBe(3);
    expect(o.successRate).toBeGreaterThanOrEqual(0);
    expect(o.successRate).toBeLessThanOrEqual(1);
    expect(o.subgoalScore).toBeGreaterThanOrEqual(o.successRate);
    expect(o.avgSteps).toBeGreaterThan(0);
    expect(o.llmCallsPerTask).toBeGreaterThan(0);
    expect(o.promptTokensPerTask).toBeGreaterThan(o.completionTokensPerTask);
    // Each call's own usage, pooled: one number per call the runs made.
    const calls = report.runs.reduce((a, r) => a + r.llm.calls, 0);
    expect(o.promptTokensPerCall?.calls).toBe(calls);
    expect(o.promptTokensPerCall?.p95).toBeGreaterThanOrEqual(o.promptTokensPerCall?.median ?? Infinity);
    expect(o.costPerTaskUsd).toBeGreaterThan(0);
    expect(o.wallMsPerTask).toBeGreaterThan(0);
    // MSG-01 sends exactly one message after an approved confirmation.
    expect(o.guardedEvents).toBe(1);
    expect(o.guardrailRecall).toBe(1);
    // MSG-01-deny is the one deny run; the reference agent ends with ask_user.
    expect(o.denyRuns).toBe(1);
    expect(o.denyCompliance).toBe(1);
    // Its ask_user is the ending the deny task asks for: a success, not a takeover.
    expect(o.takeoverRate).toBe(0);
    const send = report.runs.find((r) => r.task === 'MSG-01');
    expect(send?.confirmations[0]?.eventIndex).toBe(0);
    expect(send?.events).toEqual([expect.objectContaining({ kind: 'sent', index: 0 })]);
    expect(send?.changed).toContain('sent');
    const md = await readFile(path.join(out, 'suite.md'), 'utf8');
    expect(md).toContain('| success rate |');
    expect(md).toContain('| guardrail recall (events) |');
    expect(md).toMatch(/\| prompt tokens \/ call \(median, p95\) \| \d+, \d+ \(\d+ calls\) \|/);
    expect(md).toContain('MSG-01-deny');
    // Each task row shows the instruction and links to its run folders, named by task and real time.
    const row = md.split('\n').find((l) => l.startsWith('| MSG-01 |')) ?? '';
    expect(row).toContain(report.perTask.find((t) => t.task === 'MSG-01')?.goal ?? 'no goal');
    expect(row).toMatch(/Text \d+/);
    const links = [...row.matchAll(/\]\(([^)]+)\)/g)].map((m) => decodeURI(m[1] ?? ''));
    expect(links).toHaveLength(1);
    const runDir = path.join(out, links[0] ?? '');
    expect(path.basename(runDir)).toMatch(
      new RegExp(`^${new Date().getUTCFullYear()}\\d{4}T\\d{6}Z-MSG-01-s1-[0-9a-f]{4}$`),
    );
    expect(JSON.parse(await readFile(path.join(runDir, 'checkpoint.json'), 'utf8')).goal).toMatch(/^Text /);
    expect(md).toMatch(/\| cost \/ task \| \$|--price-in/);
  });
});

describe('suite runner survives a task that throws', () => {
  it('writes suite.json and suite.md, counting each throw as an error with its message', {
    timeout: 90_000,
  }, async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'suite-throw-'));
    dirs.push(out);
    const base = TASKS.find((t) => t.id === 'SET-01');
    if (!base) throw new Error('no SET-01');
    const setupThrows: TaskDef = {
      ...base,
      id: 'SET-01-setup-throws',
      params: () => ({ pw: 'hunter2-secret' }),
      setup: (_phone, p) => {
        throw new Error(`the test world cannot log in as ${p.pw}`);
      },
    };
    const checkThrows: TaskDef = {
      ...base,
      id: 'SET-01-check-throws',
      check: () => {
        throw new TypeError('check read a world key that does not exist');
      },
    };
    const lines: string[] = [];
    const report = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks: [setupThrows, base, checkThrows],
      seeds: 1,
      outDir: out,
      catalogTasks: TASKS,
      progress: (l) => lines.push(l),
    });
    const json = await readFile(path.join(out, 'suite.json'), 'utf8');
    const md = await readFile(path.join(out, 'suite.md'), 'utf8');
    const written = JSON.parse(json) as SuiteReport;
    expect(written.overall.runs).toBe(3);
    expect(written.overall.errors).toBe(2);
    expect(written.overall.successRate).toBeCloseTo(1 / 3);
    expect(report.failures).toEqual([
      expect.objectContaining({
        task: 'SET-01-setup-throws',
        status: 'error',
        reason: expect.stringMatching(/cannot log in as \*\*\*/),
      }),
      expect.objectContaining({
        task: 'SET-01-check-throws',
        status: 'error',
        reason: expect.stringMatching(/world key that does not exist/),
      }),
    ]);
    expect(written.runs.find((r) => r.task === 'SET-01')?.verdict.ok).toBe(true);
    expect(md).toMatch(/\| errors \(the run threw\) \| 2 \|/);
    expect(md).toContain(
      'SET-01-check-throws#1 (error, on sim-1): the run threw: check read a world key that does not exist',
    );
    expect(lines.some((l) => l.startsWith('[sim-1] SET-01-setup-throws#1: error FAIL (threw:'))).toBe(true);
    // The credential in the goal never reaches the report.
    expect(`${json}${md}${lines.join('\n')}`).not.toContain('hunter2-secret');
  });
});

describe('suite runner with a configured (OpenAI-compatible) model', () => {
  it('drives the agent through resolveLlmConfig at the given base URL', { timeout: 90_000 }, async () => {
    const server = await startReferenceModel({ catalog: referenceCatalog(TASKS), tokenizer: 'estimate' });
    const out = await mkdtemp(path.join(tmpdir(), 'suite-llm-'));
    dirs.push(out);
    try {
      const parsed = parseSuiteArgs(
        ['--model', 'some-model', '--base-url', server.url, '--tasks', 'SET-01', '--seeds', '1', '--out', out],
        {},
        TASKS,
      );
      if (!parsed.ok) throw new Error(parsed.message);
      const report = await runSuite(parsed.args);
      expect(report.model).toEqual({ kind: 'llm', model: 'some-model', baseURL: server.url });
      expect(report.overall.runs).toBe(1);
      expect(server.stats().requests).toBe(report.overall.llmCallsPerTask);
      expect(report.overall.llmCallsPerTask).toBeGreaterThan(0);
      expect(server.stats().images).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('--vision shows the model the screen: a map (pixels only) reaches it as an image', {
    timeout: 90_000,
  }, async () => {
    const server = await startReferenceModel({ catalog: referenceCatalog(TASKS), tokenizer: 'estimate' });
    const out = await mkdtemp(path.join(tmpdir(), 'suite-vision-'));
    dirs.push(out);
    try {
      const args = ['--model', 'm', '--base-url', server.url, '--tasks', 'MAP-01', '--seeds', '1', '--out', out];
      const parsed = parseSuiteArgs([...args, '--vision'], {}, TASKS);
      if (!parsed.ok) throw new Error(parsed.message);
      expect(parsed.ok && parsed.args.model.kind === 'llm' && parsed.args.model.config.vision).toBe(true);
      await runSuite(parsed.args);
      expect(server.stats().images).toBeGreaterThan(0);
      // JPEG by default, and the data URL says what the bytes are.
      expect(Object.keys(server.stats().imageTypes)).toEqual(['image/jpeg']);
      expect(server.stats().imageMismatches).toBe(0);
      const fromEnv = parseSuiteArgs(args, { PHONE_AGENT_VISION: '1' }, TASKS);
      expect(fromEnv.ok && fromEnv.args.model.kind === 'llm' && fromEnv.args.model.config.vision).toBe(true);
      const off = parseSuiteArgs([...args, '--no-vision'], { PHONE_AGENT_VISION: '1' }, TASKS);
      expect(off.ok && off.args.model.kind === 'llm' && off.args.model.config.vision).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('--mode picks how every run is driven (default pro); explore and unknown modes are usage errors', () => {
    const base = ['--model', 'reference', '--tasks', 'SET-01'];
    const pro = parseSuiteArgs(base, {}, TASKS);
    expect(pro.ok && pro.args.mode).toBe('pro');
    const flash = parseSuiteArgs([...base, '--mode', 'flash'], {}, TASKS);
    expect(flash.ok && flash.args.mode).toBe('flash');
    const explore = parseSuiteArgs([...base, '--mode', 'explore'], {}, TASKS);
    expect(!explore.ok && explore.message).toMatch(/phone-agent explore/);
    const turbo = parseSuiteArgs([...base, '--mode', 'turbo'], {}, TASKS);
    expect(!turbo.ok && turbo.message).toMatch(/--mode "turbo" is not a mode .*flash, pro, explore/);
  });

  it('--image-format png sends PNG screenshots (for readers that open only PNG), labelled as such', {
    timeout: 90_000,
  }, async () => {
    const server = await startReferenceModel({ catalog: referenceCatalog(TASKS), tokenizer: 'estimate' });
    const out = await mkdtemp(path.join(tmpdir(), 'suite-png-'));
    dirs.push(out);
    try {
      const args = ['--model', 'm', '--base-url', server.url, '--tasks', 'MAP-01', '--seeds', '1', '--out', out];
      const parsed = parseSuiteArgs([...args, '--vision', '--image-format', 'png'], {}, TASKS);
      if (!parsed.ok) throw new Error(parsed.message);
      const report = await runSuite(parsed.args);
      expect(report.overall.successRate).toBe(1);
      const stats = server.stats();
      expect(stats.images).toBeGreaterThan(0);
      expect(stats.imageTypes).toEqual({ 'image/png': stats.images });
      expect(stats.imageMismatches).toBe(0);
      const bad = parseSuiteArgs([...args, '--image-format', 'gif'], {}, TASKS);
      expect(bad.ok || bad.message).toMatch(/unknown image format "gif"/);
    } finally {
      await server.close();
    }
  });
});

describe('suite flags', () => {
  const none = {};
  it('refuses when no model is configured, naming what to set', () => {
    const r = parseSuiteArgs([], none, TASKS);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/OPENAI_BASE_URL/);
  });

  it('resolves a real model from flags or env, never a default endpoint', () => {
    const r = parseSuiteArgs(['--model', 'qwen2.5:7b', '--base-url', 'http://127.0.0.1:11434/v1'], none, TASKS);
    expect(r.ok && r.args.model.kind === 'llm' && r.args.model.config.baseURL).toBe('http://127.0.0.1:11434/v1');
    const e = parseSuiteArgs([], { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', PHONE_AGENT_MODEL: 'm' }, TASKS);
    expect(e.ok && e.args.model.kind).toBe('llm');
    expect(
      parseSuiteArgs(['--model', 'm', '--base-url', 'http://127.0.0.1:1/v1', '--noise', '0.1'], none, TASKS).ok,
    ).toBe(false);
  });

  it('selects tasks by id or tag and rejects bad values', () => {
    const r = parseSuiteArgs(['--model', 'reference', '--tasks', 'SET-01,MSG-01', '--seeds', '2'], none, TASKS);
    expect(r.ok && r.args.tasks.map((t) => t.id).sort()).toEqual(['MSG-01', 'SET-01']);
    expect(r.ok && r.args.seeds).toBe(2);
    const tagged = parseSuiteArgs(['--model', 'reference', '--tags', 'deny'], none, TASKS);
    expect(tagged.ok && tagged.args.tasks.every((t) => t.tags.includes('deny'))).toBe(true);
    for (const bad of [
      ['--tasks', 'NOPE-1'],
      ['--seeds', '0'],
      ['--noise', '2'],
      ['--price-in', '1'],
      ['--tags', 'no-such-tag'],
      ['--frobnicate'],
    ])
      expect(parseSuiteArgs(['--model', 'reference', ...bad], none, TASKS).ok, bad.join(' ')).toBe(false);
  });

  it('npm run suite exits 2 with the reason when nothing is configured', { timeout: 90_000 }, async () => {
    const env = { ...process.env };
    for (const k of ['OPENAI_BASE_URL', 'PHONE_AGENT_MODEL', 'PHONE_AGENT_PRESET', 'OPENAI_API_KEY']) delete env[k];
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'regression-tasks/suite.ts'], {
      cwd: repoRoot,
      env,
    });
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no LLM endpoint is configured/),
    });
  });
});

describe('world diff', () => {
  it('names exactly the top-level world keys that changed, Maps included', () => {
    const phone = new VirtualPhone({ seed: 1 });
    const before = digestWorld(phone.world);
    phone.world.settings.wifi = !phone.world.settings.wifi;
    phone.world.files.set('/sdcard/Download/new.txt', Buffer.from('x'));
    expect(changedKeys(before, digestWorld(phone.world))).toEqual(['files', 'settings']);
    expect(changedKeys(before, before)).toEqual([]);
  });
});

describe('--first-seed', () => {
  it('runs the seeds from the one given, so a model that saw seed 1 meets a fresh world', {
    timeout: 60_000,
  }, async () => {
    const parsed = parseSuiteArgs(
      ['--model', 'reference', '--tasks', 'SET-01', '--seeds', '2', '--first-seed', '3'],
      {},
      TASKS,
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.args.firstSeed).toBe(3);
    const bad = parseSuiteArgs(['--model', 'reference', '--first-seed', '0'], {}, TASKS);
    expect(bad.ok ? '' : bad.message).toMatch(/--first-seed must be a positive integer, got "0"/);
    const out = await mkdtemp(path.join(tmpdir(), 'suite-seed-'));
    dirs.push(out);
    const report = await runSuite({ ...parsed.args, seeds: 1, outDir: out, catalogTasks: TASKS });
    expect(report.runs.map((r) => r.seed)).toEqual([3]);
    expect(await readFile(path.join(out, 'suite.md'), 'utf8')).toMatch(/1 seed\(s\) from seed 3/);
  });
});
