import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_DUMP_CHARS } from '../src/perception/parse-xml.js';
import { perceive } from '../src/perception/perceive.js';
import { type FuzzReport, phoneDumps, runFuzz } from '../test/perception/dump-fuzz.js';

/**
 * `npm run bench:fuzz`: the dump fuzzer of test/perception/dump-fuzz.test.ts with more cases and
 * larger inputs, seeded with the virtual phone's dumps and, when ../shared is present, the real
 * phones' dumps (read from there, never copied). Also times `"<hierarchy ".repeat(N)` at growing N
 * to show the parse stays linear. Writes bench/results/fuzz.{json,md}.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CASES = Number(process.env.BENCH_FUZZ_CASES ?? 5_000);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 1);
const shared = path.resolve(root, '../shared/fixtures/android-dumps');

async function realDumps(): Promise<string[]> {
  if (!existsSync(shared)) return [];
  const names = (await readdir(shared)).filter((n) => n.endsWith('.xml')).sort();
  return Promise.all(names.map((n) => readFile(path.join(shared, n), 'utf8')));
}

async function linearity(): Promise<{ chars: number; ms: number }[]> {
  const rows: { chars: number; ms: number }[] = [];
  for (const n of [10_000, 40_000, 160_000, 380_000, 640_000]) {
    const xml = '<hierarchy '.repeat(n);
    const t0 = performance.now();
    await perceive({ xml });
    rows.push({ chars: xml.length, ms: Math.round((performance.now() - t0) * 10) / 10 });
  }
  return rows;
}

function table(name: string, r: FuzzReport): string[] {
  return [
    `## ${name}`,
    '',
    `${r.cases} cases: ${r.observed} observed, ${r.rejected} rejected with a typed error, **${r.crashes.length} crashes**, **${r.hangs.length} over 1 s of CPU**;`,
    `CPU per case: slowest ${r.maxCpuMs.toFixed(0)} ms (p99 ${r.p99CpuMs.toFixed(0)} ms); wall: slowest ${r.maxMs.toFixed(0)} ms (p99 ${r.p99Ms.toFixed(0)} ms), ${r.slowWall} cases over 1 s of wall time;`,
    `largest input ${r.maxInputChars} characters, longest error message ${r.maxMessage} characters, peak heap ${r.peakHeapMb.toFixed(0)} MB.`,
    '',
    '| mutation | cases | observed | rejected | crashes | > 1 s CPU | slowest CPU ms | slowest wall ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(r.byMutation).map(
      ([m, s]) =>
        `| ${m} | ${s.cases} | ${s.observed} | ${s.rejected} | ${s.crashes} | ${s.hangs} | ${s.maxCpuMs.toFixed(0)} | ${s.maxMs.toFixed(0)} |`,
    ),
    '',
    ...r.crashes.slice(0, 10).map((c) => `- crash: ${c.mutation} seed ${c.seed}: ${c.error}`),
    ...r.hangs
      .slice(0, 10)
      .map((h) => `- slow: ${h.mutation} seed ${h.seed}: ${h.cpuMs} ms CPU (${h.ms} ms wall) on ${h.chars} characters`),
  ];
}

async function main(): Promise<void> {
  const own = await phoneDumps();
  const real = await realDumps();
  const runs: { name: string; report: FuzzReport }[] = [];
  const opts = { seed: SEED, maxChars: 2_000_000, deepChars: 8_000_000, hangMs: 1_000 };
  runs.push({
    name: `virtual phone dumps (${own.length} seeds)`,
    report: await runFuzz({ ...opts, seeds: own, cases: CASES }),
  });
  process.stderr.write(`own: ${runs[0]?.report.crashes.length} crashes\n`);
  if (real.length > 0) {
    runs.push({
      name: `real phones' dumps from ../shared (${real.length} seeds)`,
      report: await runFuzz({ ...opts, seed: SEED + 1, seeds: real, cases: CASES }),
    });
  }
  const lin = await linearity();
  const out = path.join(root, 'bench/results');
  await writeFile(
    path.join(out, 'fuzz.json'),
    `${JSON.stringify({ cases: CASES, seed: SEED, runs, linearity: lin }, null, 2)}\n`,
  );
  const md = [
    '# bench:fuzz — mutated uiautomator dumps through perception',
    '',
    `${CASES} cases per seed set, seed ${SEED}, inputs up to 2 MB (depth/repetition mutations up to 8 MB), a case over 1 s of CPU counts as a hang (CPU, not wall time: the machine is shared, and a case that waits for a core is not slow; wall times are shown beside); ${new Date().toISOString()}; ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? '?'}, load average at the start ${os.loadavg()[0]?.toFixed(1)}, Node ${process.version}.`,
    '',
    ...runs.flatMap((r) => table(r.name, r.report)),
    '',
    '## `"<hierarchy ".repeat(N)` stays linear',
    '',
    '(Before issue 12 a regex took 2.5 s at 110 KB and 69 s at 440 KB.)',
    '',
    '| characters | ms |',
    '|---:|---:|',
    ...lin.map(
      (l) => `| ${l.chars} | ${l.ms}${l.chars > MAX_DUMP_CHARS ? ' (over the size limit: refused unread)' : ''} |`,
    ),
    '',
  ].join('\n');
  await writeFile(path.join(out, 'fuzz.md'), md);
  process.stdout.write(md);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:fuzz: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
