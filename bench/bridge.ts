import { mkdir, writeFile } from 'node:fs/promises';
import { startBridgeServer } from '../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';

/**
 * Round-trip cost of the helper protocol over loopback HTTP against the virtual phone (virtual clock,
 * zero device latency): what the bridge itself adds per call. Writes bench/results/bridge.{json,md}.
 */

const N = Number(process.env.BENCH_N ?? 200);

async function main(): Promise<void> {
  const phone = new VirtualPhone({ seed: 1 });
  const server = await startBridgeServer({ phone });
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
  };
  await post('/v3/action', { action: 'launch_app', package: 'com.android.settings' });
  await post('/v3/action', { action: 'wait_until', condition: 'stable', timeout_ms: 3000 });
  const cases: [string, string, unknown, number][] = [
    ['hello', '/v3/hello', {}, N],
    ['snapshot (tree)', '/v3/snapshot', {}, N],
    ['snapshot + PNG', '/v3/snapshot', { screenshot: { format: 'png' } }, Math.ceil(N / 10)],
    ['snapshot + JPEG 0.5', '/v3/snapshot', { screenshot: { format: 'jpeg', scale: 0.5 } }, Math.ceil(N / 10)],
    ['read_control', '/v3/action', { action: 'read_control', selector: { text: 'Wi-Fi' } }, N],
    ['tap', '/v3/action', { action: 'tap', x: 500, y: 50 }, N],
    [
      'control_action focus',
      '/v3/action',
      { action: 'control_action', request: { selector: { text: 'Wi-Fi' }, action: 'focus' } },
      N,
    ],
  ];
  const rows: { name: string; n: number; meanMs: number; p50Ms: number; p95Ms: number }[] = [];
  for (const [name, path, body, n] of cases) {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await post(path, body);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => Number((times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(2));
    rows.push({
      name,
      n,
      meanMs: Number((times.reduce((a, b) => a + b, 0) / n).toFixed(2)),
      p50Ms: q(0.5),
      p95Ms: q(0.95),
    });
  }
  await server.close();
  await mkdir('bench/results', { recursive: true });
  const meta = { node: process.version, platform: `${process.platform}-${process.arch}`, at: new Date().toISOString() };
  await writeFile('bench/results/bridge.json', `${JSON.stringify({ ...meta, rows }, null, 2)}\n`);
  const md = [
    '# Bridge round trips (loopback HTTP, virtual phone, zero device latency)',
    '',
    `${meta.node} · ${meta.platform} · ${meta.at}`,
    '',
    '| call | n | mean ms | p50 ms | p95 ms |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.n} | ${r.meanMs} | ${r.p50Ms} | ${r.p95Ms} |`),
    '',
  ].join('\n');
  await writeFile('bench/results/bridge.md', md);
  process.stdout.write(md);
}

await main();
