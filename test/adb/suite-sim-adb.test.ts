import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import { runSuite, type SuiteReport } from '../../regression-tasks/suite-runner.js';
import { DevicePool } from '../../src/compose/pool/pool.js';
import type { PoolDevice } from '../../src/compose/pool/pool-device.js';
import { simAdbDevice } from '../../src/compose/pool/sim-devices.js';
import { adbDeviceStates, startPrivateAdbServer } from '../../src/device/adb/server.js';

/**
 * `--devices sim-adb:N`: virtual phones served over their ADB transport, joined to a private adb
 * server the suite starts, and driven as plain serials with no helper — every action over adb, every
 * world fresh per task. Results match one such phone; a phone whose transport dies mid-task is
 * quarantined and its task retried on another.
 */

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function outDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'suite-sim-adb-'));
  dirs.push(d);
  return d;
}

const IDS = 'SET-01,LAU-01,WEB-02,CLK-01';
const outcome = (r: SuiteReport) => r.runs.map((x) => `${x.task} ${x.status} ${x.verdict.ok} ${x.steps}`);

async function suite(devices: string): Promise<SuiteReport> {
  const parsed = parseSuiteArgs(
    ['--model', 'reference', '--seeds', '1', '--tasks', IDS, '--devices', devices, '--out', await outDir()],
    {},
    TASKS,
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return runSuite({ ...parsed.args, catalogTasks: TASKS });
}

/** Every receipt of a run folder's steps, by the backend that served it. */
async function backends(runDir: string): Promise<string[]> {
  const files = (await readdir(path.join(runDir, 'steps'))).filter((f) => /^\d{3}\.json$/.test(f));
  const out: string[] = [];
  for (const f of files) {
    const step = JSON.parse(await readFile(path.join(runDir, 'steps', f), 'utf8')) as { receipt?: { method?: string } };
    if (step.receipt?.method) out.push(step.receipt.method);
  }
  return out;
}

describe('the suite on virtual phones as plain adb serials (sim-adb:N)', () => {
  it('runs every task over adb, no helper, with the same results on 2 phones as on 1', {
    timeout: 180_000,
  }, async () => {
    const one = await suite('sim-adb:1');
    const two = await suite('sim-adb:2');
    expect(outcome(two)).toEqual(outcome(one));
    expect(two.devices.map((d) => [d.id, d.kind, d.ownsWorld])).toEqual([
      ['sim-adb-1', 'sim-adb', true],
      ['sim-adb-2', 'sim-adb', true],
    ]);
    expect(new Set(two.runs.map((r) => r.device))).toEqual(new Set(['sim-adb-1', 'sim-adb-2']));
    expect(two.overall.successRate).toBeGreaterThan(0);
    for (const r of two.runs) {
      const methods = await backends(r.runDir ?? '');
      expect(methods.length, r.task).toBeGreaterThan(0);
      expect(
        methods.every((m) => m === 'adb'),
        `${r.task}: ${methods.join(',')}`,
      ).toBe(true);
    }
  });

  it('quarantines a phone whose ADB transport dies mid-task and retries the task on the other', {
    timeout: 180_000,
  }, async () => {
    const adb = await startPrivateAdbServer();
    const [a, b] = [await simAdbDevice(1, adb), await simAdbDevice(2, adb)];
    let resets = 0;
    // Its transport shut down right after the first task's launch reached the phone.
    const doomed: PoolDevice = {
      ...a,
      reset(w) {
        const phone = a.reset?.(w);
        if (!phone) throw new Error('not a virtual phone');
        if (++resets === 1) {
          const launch = phone.launch.bind(phone);
          phone.launch = async (...args) => {
            const r = await launch(...args);
            void a.close();
            return r;
          };
        }
        return phone;
      },
    };
    const pool = new DevicePool([doomed, b], [adb.kill]);
    try {
      const report = await runSuite({
        model: { kind: 'reference', noise: 0 },
        tasks: TASKS.filter((t) => IDS.split(',').includes(t.id)),
        seeds: 1,
        outDir: await outDir(),
        catalogTasks: TASKS,
        pool,
      });
      expect(report.retries).toEqual([expect.objectContaining({ task: 'SET-01', from: 'sim-adb-1', to: 'sim-adb-2' })]);
      expect(report.devices[0]?.quarantined).toBeTruthy();
      expect(report.runs.map((r) => r.device)).toEqual(['sim-adb-2', 'sim-adb-2', 'sim-adb-2', 'sim-adb-2']);
      expect(report.overall.runs).toBe(4);
      // The quarantined phone left the adb server; the live one is still listed.
      const listed = await adbDeviceStates(adb);
      expect(listed.has((a.spec() as { serial: string }).serial)).toBe(false);
    } finally {
      await pool.close();
    }
  });
});
