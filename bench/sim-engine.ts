import { mkdir, writeFile } from 'node:fs/promises';
import type { App, AppContext, AppFactory, AppScreen } from '../src/testbed/sim/app.js';
import type { View } from '../src/testbed/sim/kit/view.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';

/**
 * Cost of the virtual phone's own work (no HTTP): a fresh layout + tree read of a 120-row list
 * screen, the XML dump, a PNG screenshot of a new revision, and a swipe. Writes
 * bench/results/sim-engine.{json,md}.
 */

const N = Number(process.env.BENCH_N ?? 100);

function listApp(holder: { ctx?: AppContext }): AppFactory {
  return (): App => ({
    package: 'com.bench.list',
    label: 'Bench',
    iconColor: '#333333',
    glyph: 'B',
    activities: ['.Main'],
    render: (_r: unknown, ctx: AppContext): AppScreen => {
      holder.ctx = ctx;
      const rows: View[] = Array.from({ length: 120 }, (_, i) => ({
        kind: 'row',
        id: 'item',
        padding: 8,
        onTap: () => {},
        children: [
          { kind: 'image', color: '#aa5500', glyph: '☕', width: 48 },
          {
            kind: 'column',
            weight: 3,
            children: [
              { kind: 'text', id: 'name', text: `Iced Americano 冰美式 ${i}`, size: 'large' },
              { kind: 'text', id: 'price', text: `¥${18 + (i % 7)}.00`, size: 'small' },
            ],
          },
          { kind: 'button', id: 'add', text: 'Add', style: 'secondary' },
        ],
      }));
      return {
        activity: '.Main',
        title: 'Menu',
        root: {
          kind: 'column',
          children: [
            { kind: 'edit', id: 'search', value: '', hint: 'Search', onChange: () => {} },
            { kind: 'list', id: 'menu', children: rows },
          ],
        },
      };
    },
  });
}

async function time(n: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => Number((times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(2));
  return { n, meanMs: Number((times.reduce((a, b) => a + b, 0) / n).toFixed(2)), p50Ms: q(0.5), p95Ms: q(0.95) };
}

async function main(): Promise<void> {
  const holder: { ctx?: AppContext } = {};
  const phone = new VirtualPhone({ apps: [listApp(holder)] });
  await phone.launch('com.bench.list');
  await phone.clock.sleep(400);
  await phone.readTree();
  const rows = [
    {
      name: 'readTree, new revision (render + layout of 120 rows)',
      ...(await time(N, async () => {
        holder.ctx?.invalidate();
        await phone.readTree();
      })),
    },
    { name: 'readTree, same revision', ...(await time(N, () => phone.readTree())) },
    {
      name: 'dumpXml, new revision',
      ...(await time(N, async () => {
        holder.ctx?.invalidate();
        await phone.dumpXml();
      })),
    },
    {
      name: 'swipe (400 ms, virtual clock) + readTree',
      ...(await time(N, async (i) => {
        await phone.swipe(540, i % 2 ? 900 : 1900, 540, i % 2 ? 1900 : 900, 400);
        await phone.readTree();
      })),
    },
    {
      name: 'screenshot PNG 1080x2400, new revision',
      ...(await time(Math.ceil(N / 5), async () => {
        holder.ctx?.invalidate();
        await phone.screenshot();
      })),
    },
    { name: 'screenshot PNG, cached revision', ...(await time(N, () => phone.screenshot())) },
  ];
  const nodes = (await phone.readTree()).nodes.length;
  await mkdir('bench/results', { recursive: true });
  const result = {
    bench: 'sim-engine',
    at: new Date().toISOString(),
    node: process.version,
    nodesOnScreen: nodes,
    rows,
  };
  await writeFile('bench/results/sim-engine.json', `${JSON.stringify(result, null, 2)}\n`);
  const md = [
    '# Virtual phone engine',
    '',
    `A 120-row list screen (${nodes} nodes on screen), virtual clock, zero device latency. ${result.at}, Node ${process.version}.`,
    '',
    '| operation | n | mean ms | p50 ms | p95 ms |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.n} | ${r.meanMs} | ${r.p50Ms} | ${r.p95Ms} |`),
    '',
  ].join('\n');
  await writeFile('bench/results/sim-engine.md', md);
  process.stdout.write(md);
}

await main();
