import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { wireToTree } from '../src/perception/parse-wire.js';
import { perceive } from '../src/perception/perceive.js';
import { loadStateFile } from '../src/testbed/replay/state-file.js';
import { snapshotToXml } from '../src/testbed/replay/xml.js';
import { rawFromSnapshot, recallOn } from './tokens-recall.js';

/**
 * `npm run bench:real-states`: perception on every recorded real-app state in ../shared (the DroidBot
 * graphs with their screenshots, and the DroidTask states), as bench:tokens does for dumps: no crash,
 * compact tokens (cl100k_base, o200k_base) and tokens per actionable element, the same state as a
 * uiautomator dump for scale, actionable recall (tokens-recall.ts), and perceive time (screenshot
 * included where there is one). Writes bench/results/real-states.{json,md}.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.resolve(root, '../shared/fixtures');
const outDir = path.join(root, 'bench/results');

interface Row {
  source: string;
  file: string;
  ok: boolean;
  error?: string;
  screenshot: boolean;
  compactCl100k: number;
  compactO200k: number;
  xmlCl100k: number;
  /** Actionable lines of the compact view. */
  lines: number;
  actionable: number;
  labelled: number;
  recalled: number;
  excluded: number;
  perceiveMs: number;
  misses: string[];
}

function statesOf(): { source: string; file: string }[] {
  const out: { source: string; file: string }[] = [];
  const utg = path.join(fixtures, 'droidbot-utg');
  for (const g of readdirSync(utg)
    .filter((d) => /^\d/.test(d))
    .sort())
    for (const f of readdirSync(path.join(utg, g, 'states'))
      .filter((x) => /^state_.*\.json$/.test(x))
      .sort())
      out.push({ source: `graph ${g}`, file: path.join(utg, g, 'states', f) });
  const dt = path.join(fixtures, 'droidtask');
  for (const app of readdirSync(dt, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort())
    for (const f of readdirSync(path.join(dt, app, 'states'))
      .filter((x) => x.endsWith('.json'))
      .sort())
      out.push({ source: `droidtask ${app}`, file: path.join(dt, app, 'states', f) });
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] as number) : 0;
};
const r1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const { getEncoding } = await import('js-tiktoken');
  const cl = getEncoding('cl100k_base');
  const o2 = getEncoding('o200k_base');
  const rows: Row[] = [];
  for (const { source, file } of statesOf()) {
    const rel = path.relative(fixtures, file);
    const base = { source, file: rel, screenshot: false, compactCl100k: 0, compactO200k: 0, xmlCl100k: 0 };
    const empty = { lines: 0, actionable: 0, labelled: 0, recalled: 0, excluded: 0, perceiveMs: 0, misses: [] };
    try {
      const { read } = await loadStateFile(file);
      const t0 = performance.now();
      const r = await perceive({ wire: read.snapshot }, { revalidate: true });
      const perceiveMs = performance.now() - t0;
      if (!r.ok) {
        rows.push({ ...base, ...empty, ok: false, error: r.message });
        continue;
      }
      const tree = wireToTree(read.snapshot);
      if (!tree.ok) throw new Error(tree.message);
      const rec = recallOn(tree.tree, rawFromSnapshot(read.snapshot));
      rows.push({
        ...base,
        ok: true,
        screenshot: !!read.snapshot.screenshot,
        compactCl100k: cl.encode(r.compact).length,
        compactO200k: o2.encode(r.compact).length,
        xmlCl100k: cl.encode(snapshotToXml(read.snapshot)).length,
        lines: r.compact.split('\n').filter((l) => l.startsWith('[')).length,
        actionable: rec.actionable,
        labelled: rec.labelled,
        recalled: rec.recalled,
        excluded: rec.excluded.length,
        perceiveMs,
        misses: rec.misses.map((m) => `${m.className} ${m.bounds} [${m.evidence.join(' | ')}]: ${m.why}`),
      });
    } catch (e) {
      rows.push({ ...base, ...empty, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  const ok = rows.filter((r) => r.ok);
  const perLine = ok.filter((r) => r.lines > 0).map((r) => r.compactO200k / r.lines);
  const counted = ok.reduce((a, r) => a + r.labelled - r.excluded, 0);
  const recalled = ok.reduce((a, r) => a + r.recalled, 0);
  const summarize = (rs: Row[]) => {
    const good = rs.filter((r) => r.ok);
    const c = good.reduce((a, r) => a + r.labelled - r.excluded, 0);
    const rc = good.reduce((a, r) => a + r.recalled, 0);
    return {
      states: rs.length,
      crashes: rs.length - good.length,
      medianCompactO200k: median(good.map((r) => r.compactO200k)),
      medianTokensPerActionable: r1(median(good.filter((r) => r.lines > 0).map((r) => r.compactO200k / r.lines))),
      medianXmlToCompact: r1(median(good.filter((r) => r.compactCl100k > 0).map((r) => r.xmlCl100k / r.compactCl100k))),
      recall: c ? rc / c : 1,
      recalled: rc,
      labelledVisible: c,
      excluded: good.reduce((a, r) => a + r.excluded, 0),
      perceiveMsMedian: r1(median(good.map((r) => r.perceiveMs))),
      perceiveMsP95: r1(p95(good.map((r) => r.perceiveMs))),
    };
  };
  const sources = [...new Set(rows.map((r) => r.source))];
  const summary = {
    ...summarize(rows),
    medianTokensPerActionable: r1(median(perLine)),
    recall: counted ? recalled / counted : 1,
  };
  mkdirSync(outDir, { recursive: true });
  const bySource = Object.fromEntries(sources.map((s) => [s, summarize(rows.filter((r) => r.source === s))]));
  writeFileSync(path.join(outDir, 'real-states.json'), `${JSON.stringify({ summary, bySource, rows }, null, 1)}\n`);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const md = [
    '# Perception on recorded real-app states',
    '',
    `Generated by \`npm run bench:real-states\` over ${rows.length} DroidBot states in \`../shared/fixtures\` (the eight recorded graphs with their screenshots, and DroidTask's states without), each read by the DroidBot reader and perceived as a helper snapshot (js-tiktoken).`,
    'Recall as bench:tokens judges it (bench/tokens-recall.ts): every actionable view with a label must have a line that shows it; views nobody can see are excluded. "Dump" is the same state written as a uiautomator dump, for scale. Perceive time includes decoding the screenshot where there is one (wall clock on a shared machine).',
    '',
    `**${summary.crashes} crashes in ${summary.states} states; recall ${summary.recalled}/${summary.labelledVisible} = ${pct(summary.recall)}** (${summary.excluded} not visible, excluded); median ${summary.medianCompactO200k} compact tokens (o200k) a screen, **${summary.medianTokensPerActionable} tokens per actionable element**; dump/compact ${summary.medianXmlToCompact}× (cl100k); perceive ${summary.perceiveMsMedian} ms median, ${summary.perceiveMsP95} ms p95.`,
    '',
    '| source | states | crashes | compact tokens (median, o200k) | tokens / actionable element | dump/compact | recall | excluded | perceive ms (median / p95) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...sources.map((s) => {
      const m = bySource[s] as ReturnType<typeof summarize>;
      return `| ${s} | ${m.states} | ${m.crashes} | ${m.medianCompactO200k} | ${m.medianTokensPerActionable} | ${m.medianXmlToCompact}× | ${m.recalled}/${m.labelledVisible} (${pct(m.recall)}) | ${m.excluded} | ${m.perceiveMsMedian} / ${m.perceiveMsP95} |`;
    }),
    '',
    '## Largest screens (compact tokens)',
    '',
    ...[...ok]
      .sort((a, b) => b.compactO200k - a.compactO200k)
      .slice(0, 5)
      .map(
        (r) =>
          `- ${r.file}: ${r.compactO200k} tokens, ${r.lines} control lines (${r1(r.compactO200k / Math.max(1, r.lines))} a line)`,
      ),
    '',
    '## Crashes',
    '',
    ...(rows.some((r) => !r.ok) ? rows.filter((r) => !r.ok).map((r) => `- ${r.file}: ${r.error}`) : ['None.']),
    '',
    '## Misses',
    '',
    ...(ok.some((r) => r.misses.length) ? ok.flatMap((r) => r.misses.map((m) => `- ${r.file}: ${m}`)) : ['None.']),
    '',
  ].join('\n');
  writeFileSync(path.join(outDir, 'real-states.md'), md);
  process.stdout.write(`${md.split('\n')[5]}\n`);
  if (summary.crashes > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:real-states: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
