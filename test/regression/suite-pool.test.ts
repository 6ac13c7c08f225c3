import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { runSuite, type SuiteReport } from '../../regression-tasks/suite-runner.js';
import { DevicePool, openPool } from '../../src/compose/pool/pool.js';
import type { PoolDevice } from '../../src/compose/pool/pool-device.js';
import { simBridgeDevice } from '../../src/compose/pool/sim-devices.js';
import type { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * The suite on a pool of virtual phones: tasks handed out in order to several devices, one merged
 * report naming each run's device, results identical to one device; a device killed in the middle of
 * a task (its bridge server shut down, or its helper stops answering) is quarantined and the task is
 * retried once elsewhere; with every device dead the suite still finishes.
 */

const dirs: string[] = [];
const pools: DevicePool[] = [];
afterAll(async () => {
  for (const p of pools) await p.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const IDS = ['SET-01', 'SET-02', 'LAU-01', 'MSG-03', 'WEB-02', 'CLK-01'];
const tasks = TASKS.filter((t) => IDS.includes(t.id));

async function outDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'suite-pool-'));
  dirs.push(d);
  return d;
}

async function pool(n: number): Promise<DevicePool> {
  const p = await openPool([{ kind: 'sim', count: n }]);
  pools.push(p);
  return p;
}

const outcome = (r: SuiteReport) => r.runs.map((x) => `${x.task}#${x.seed} ${x.status} ${x.verdict.ok} ${x.steps}`);

/**
 * Fault injection on a real device: in its `nth` task (its nth world), right after the task's first
 * action — the app's launch — reached the phone, `kill` it: mid-task, whatever the clock does.
 */
function killedOn(device: PoolDevice, nth: number, kill: (phone: VirtualPhone) => void): PoolDevice {
  let resets = 0;
  return {
    ...device,
    reset(w) {
      const phone = device.reset?.(w);
      if (!phone) throw new Error(`${device.id} is not a virtual phone`);
      if (++resets === nth) {
        const launch = phone.launch.bind(phone);
        phone.launch = async (...args) => {
          const r = await launch(...args);
          kill(phone);
          return r;
        };
      }
      return phone;
    },
  };
}

describe('the suite on a device pool', () => {
  it('hands tasks out in order to 3 phones and merges one report with the same results as 1 phone', {
    timeout: 120_000,
  }, async () => {
    const one = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks,
      seeds: 1,
      outDir: await outDir(),
      catalogTasks: TASKS,
      pool: await pool(1),
    });
    const lines: string[] = [];
    const out = await outDir();
    const three = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks,
      seeds: 1,
      outDir: out,
      catalogTasks: TASKS,
      pool: await pool(3),
      progress: (l) => lines.push(l),
    });
    expect(outcome(three)).toEqual(outcome(one));
    expect(three.runs.map((r) => r.task)).toEqual(
      IDS.filter((id) => tasks.some((t) => t.id === id)).sort(
        (a, b) => tasks.findIndex((t) => t.id === a) - tasks.findIndex((t) => t.id === b),
      ),
    );
    // Handed out in order: the first three start on the three devices, before any other task.
    const starts = lines.filter((l) => l.includes(' started'));
    expect(
      starts
        .slice(0, 3)
        .map((l) => /^\[(sim-\d)\]/.exec(l)?.[1])
        .sort(),
    ).toEqual(['sim-1', 'sim-2', 'sim-3']);
    expect(starts.map((l) => /\] (\S+)#/.exec(l)?.[1])).toEqual(tasks.map((t) => t.id));
    expect(new Set(three.runs.map((r) => r.device))).toEqual(new Set(['sim-1', 'sim-2', 'sim-3']));
    expect(three.devices.map((d) => d.runs).reduce((a, b) => a + b, 0)).toBe(tasks.length);
    for (const d of three.devices) {
      expect(d.busyShare).toBeGreaterThan(0);
      expect(d.busyShare).toBeLessThanOrEqual(1);
    }
    expect(three.retries).toEqual([]);
    const md = await readFile(path.join(out, 'suite.md'), 'utf8');
    expect(md).toContain('## Devices');
    expect(md).toMatch(/\| sim-2 \| sim \| fresh per run \| \d+ \|/);
  });

  it('quarantines a phone killed mid-task, retries that task on another and finishes', {
    timeout: 120_000,
  }, async () => {
    const [a, b] = [await simBridgeDevice(1), await simBridgeDevice(2)];
    // Its bridge server shut down in the middle of its second task.
    const p = new DevicePool([killedOn(a, 2, () => void a.close()), b]);
    pools.push(p);
    const lines: string[] = [];
    const out = await outDir();
    const report = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks,
      seeds: 1,
      outDir: out,
      catalogTasks: TASKS,
      pool: p,
      progress: (l) => lines.push(l),
    });
    expect(report.overall.runs).toBe(tasks.length);
    const retried = report.runs.filter((r) => r.retriedFrom);
    expect(retried.length).toBe(1);
    const r = retried[0];
    expect(r?.retriedFrom?.device).toBe('sim-1');
    expect(r?.device).toBe('sim-2');
    expect(report.retries).toEqual([expect.objectContaining({ task: r?.task, from: 'sim-1', to: 'sim-2' })]);
    expect(report.devices.find((d) => d.id === 'sim-1')).toMatchObject({
      runs: 1,
      quarantined: expect.stringMatching(/shut down/),
    });
    expect(report.devices.find((d) => d.id === 'sim-2')?.runs).toBe(tasks.length - 1);
    // Every task still succeeded: the retry started from a fresh world, not from the dead one's.
    expect(report.overall.successRate).toBe(1);
    const md = await readFile(path.join(out, 'suite.md'), 'utf8');
    expect(md).toContain('## Retried (the device died under the run)');
    expect(md).toMatch(new RegExp(`${r?.task}#1: sim-1 died .* → sim-2`));
    expect(md).toContain(`(retried: sim-1 died)`);
    expect(lines.some((l) => l.startsWith('[sim-1] quarantined'))).toBe(true);
  });

  it('a phone whose helper stops answering mid-task is found by the heartbeat, not waited on', {
    timeout: 120_000,
  }, async () => {
    const [a, b] = [await simBridgeDevice(1), await simBridgeDevice(2)];
    const p = new DevicePool([
      killedOn(a, 1, (phone) => {
        phone.faults.helperUnresponsive = true;
      }),
      b,
    ]);
    pools.push(p);
    const report = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks: tasks.slice(0, 2),
      seeds: 1,
      outDir: await outDir(),
      catalogTasks: TASKS,
      pool: p,
      heartbeat: { everyMs: 500, timeoutMs: 2_000, misses: 2 },
    });
    expect(report.retries).toEqual([expect.objectContaining({ task: tasks[0]?.id, from: 'sim-1', to: 'sim-2' })]);
    expect(report.devices.find((d) => d.id === 'sim-1')?.quarantined).toMatch(/no answer|did not answer/);
    expect(report.overall.successRate).toBe(1);
  });

  it('with every phone dead the suite records what is left as errors and finishes', { timeout: 120_000 }, async () => {
    const a = await simBridgeDevice(1);
    const p = new DevicePool([killedOn(a, 1, () => void a.close())]);
    pools.push(p);
    const report = await runSuite({
      model: { kind: 'reference', noise: 0 },
      tasks: tasks.slice(0, 3),
      seeds: 1,
      outDir: await outDir(),
      catalogTasks: TASKS,
      pool: p,
    });
    expect(report.overall.runs).toBe(3);
    expect(report.overall.errors).toBe(3);
    expect(report.runs[0]?.retriedFrom?.device).toBe('sim-1');
    expect(report.runs.slice(1).every((r) => /no device left/.test(r.error ?? ''))).toBe(true);
    expect(report.retries).toEqual([expect.objectContaining({ from: 'sim-1' })]);
    expect(report.retries[0]?.to).toBeUndefined();
    expect(report.runs[0]?.error).toMatch(/no device left/);
  });
});
