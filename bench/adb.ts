import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { RealClock } from '../src/core/clock.js';
import { startAdbDevice } from '../src/testbed/sim/adbd/index.js';
import { startBridgeServer } from '../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';
import { PrivateAdbServer } from '../test/adb/support/adb-server.js';
import { Adb } from '../test/adb/support/adbkit.js';

/**
 * The same virtual phone (RealClock, zero device latency) driven three ways in one run:
 *  - adbkit → the real adb server (private port) → our ADB transport (what the adb backend does),
 *  - the `adb` CLI (one process per call, what scripts and appium-adb do),
 *  - the helper bridge over loopback HTTP.
 * Per operation (tree read, screenshot, tap, text) p50/p95; writes bench/results/adb.{json,md}.
 */

const N = Math.max(30, Number(process.env.BENCH_N ?? 40));
const WARMUP = 3;

type Path = 'adbkit' | 'adbCli' | 'bridge';
interface Stats {
  n: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
}

function stats(times: number[]): Stats {
  const s = [...times].sort((a, b) => a - b);
  const q = (p: number) => Number((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(2));
  return {
    n: s.length,
    p50Ms: q(0.5),
    p95Ms: q(0.95),
    meanMs: Number((s.reduce((a, b) => a + b, 0) / s.length).toFixed(2)),
  };
}

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

function cli(port: number, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('adb', ['-P', String(port), ...args], { encoding: 'buffer', maxBuffer: 64 << 20 }, (err, out) =>
      err ? reject(err) : resolve(out),
    );
  });
}

async function main(): Promise<void> {
  const phone = new VirtualPhone({ seed: 1, clock: new RealClock() });
  const bridge = await startBridgeServer({ phone });
  const device = await startAdbDevice({ phone });
  const server = await PrivateAdbServer.start();
  const serial = `127.0.0.1:${device.port}`;
  try {
    await server.connect(serial);
    const client = Adb.createClient({ host: '127.0.0.1', port: server.port }).getDevice(serial);
    const post = async (path: string, body: unknown): Promise<Buffer> => {
      const r = await fetch(`${bridge.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const buf = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${buf.toString()}`);
      return buf;
    };
    const shell = async (cmd: string) => readAll(await client.shell(cmd));

    // A focused text field, so taps and text land somewhere real.
    await shell('am start -W -n com.acme.bank/.LoginActivity');
    await phone.clock.sleep(500);
    const tree = await phone.readTree();
    const email = tree.nodes.find((n) => n.resourceId.endsWith(':id/email'));
    if (!email) throw new Error('the bank login screen has no email field');
    const x = Math.round((email.bounds.left + email.bounds.right) / 2);
    const y = Math.round((email.bounds.top + email.bounds.bottom) / 2);
    await shell(`input tap ${x} ${y}`);

    const ops: Record<string, Record<Path, () => Promise<unknown>>> = {
      'tree read': {
        adbkit: () => shell('uiautomator dump /dev/tty'),
        adbCli: () => cli(server.port, ['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty']),
        bridge: () => post('/v3/snapshot', {}),
      },
      screenshot: {
        adbkit: async () => readAll(await client.screencap()),
        adbCli: () => cli(server.port, ['-s', serial, 'exec-out', 'screencap', '-p']),
        bridge: () => post('/v3/snapshot', { screenshot: { format: 'png' } }),
      },
      tap: {
        adbkit: () => shell(`input tap ${x} ${y}`),
        adbCli: () => cli(server.port, ['-s', serial, 'shell', 'input', 'tap', String(x), String(y)]),
        // 1 ms like `input tap`, so both sides pay the same gesture time.
        bridge: () => post('/v3/action', { action: 'tap', x, y, coord_space: 'pixel', duration_ms: 1 }),
      },
      text: {
        adbkit: () => shell('input text abc'),
        adbCli: () => cli(server.port, ['-s', serial, 'shell', 'input', 'text', 'abc']),
        bridge: () => post('/v3/action', { action: 'ime_commit', text: 'abc' }),
      },
    };

    const results: Record<string, Record<Path, Stats>> = {};
    for (const [name, paths] of Object.entries(ops)) {
      const times: Record<Path, number[]> = { adbkit: [], adbCli: [], bridge: [] };
      // Interleave the three paths per iteration so drift (caches, GC, the field growing) hits all alike.
      for (let i = 0; i < N + WARMUP; i++) {
        for (const p of ['adbkit', 'adbCli', 'bridge'] as const) {
          const t = performance.now();
          await paths[p]();
          if (i >= WARMUP) times[p].push(performance.now() - t);
        }
      }
      results[name] = { adbkit: stats(times.adbkit), adbCli: stats(times.adbCli), bridge: stats(times.bridge) };
      process.stdout.write(
        `${name}: adbkit p50 ${results[name].adbkit.p50Ms} ms, bridge p50 ${results[name].bridge.p50Ms} ms\n`,
      );
    }

    const machine = {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      adb: (await cli(server.port, ['version'])).toString().split('\n')[0],
      // Other work on the machine inflates p95s; the 1-minute load average says how much.
      loadAvg1m: Number((os.loadavg()[0] ?? 0).toFixed(2)),
    };
    const at = new Date().toISOString();
    await mkdir('bench/results', { recursive: true });
    await writeFile(
      'bench/results/adb.json',
      `${JSON.stringify({ at, machine, n: N, warmup: WARMUP, results }, null, 2)}\n`,
    );
    await writeFile('bench/results/adb.md', markdown(at, machine, results));
  } finally {
    await server.kill();
    await device.close();
    await bridge.close();
  }
}

function markdown(at: string, machine: Record<string, unknown>, results: Record<string, Record<Path, Stats>>): string {
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}×` : 'n/a');
  const lines = [
    '# ADB vs bridge on the virtual phone',
    '',
    `Run ${at} on ${machine.cpu} (${machine.cores} cores, load average ${machine.loadAvg1m} at the end), Node ${machine.node}, ${machine.platform}, ${machine.adb}.`,
    `Same VirtualPhone (RealClock, all device latencies 0) behind both; N = ${N} per path and operation after ${WARMUP} warm-up rounds, paths interleaved.`,
    '',
    '- **adbkit**: adbkit → real adb server (private port) → our ADB transport (`shell:` / `screencap`).',
    '- **adb CLI**: one `adb -P … -s …` process per call (`exec-out` / `shell`), as scripts and appium-adb do.',
    '- **bridge**: helper protocol v3 over loopback HTTP (`/v3/snapshot`, `/v3/action`).',
    '- Tree read = `uiautomator dump /dev/tty` vs `/v3/snapshot {}`; text = `input text abc` vs `ime_commit "abc"`; taps are 1 ms on both.',
    '',
    '| operation | adbkit p50 / p95 (ms) | adb CLI p50 / p95 (ms) | bridge p50 / p95 (ms) | adbkit ÷ bridge (p50) | CLI ÷ bridge (p50) |',
    '|---|---|---|---|---|---|',
  ];
  for (const [name, r] of Object.entries(results)) {
    lines.push(
      `| ${name} | ${r.adbkit.p50Ms} / ${r.adbkit.p95Ms} | ${r.adbCli.p50Ms} / ${r.adbCli.p95Ms} | ${r.bridge.p50Ms} / ${r.bridge.p95Ms} | ${ratio(r.adbkit.p50Ms, r.bridge.p50Ms)} | ${ratio(r.adbCli.p50Ms, r.bridge.p50Ms)} |`,
    );
  }
  lines.push(
    '',
    'Device latencies are zero here, so the numbers are transport and process overhead only; on a real phone',
    '`input` (a JVM start per call) and `uiautomator dump` add hundreds of milliseconds that the helper avoids.',
    '',
  );
  return lines.join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
