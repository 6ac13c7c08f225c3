import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LINE_ID_RE } from '../src/core/element-ref.js';
import { recordedRow, type SourceRow, simRow } from './tokens-other.js';
import { actionableRecall } from './tokens-recall.js';

/**
 * `npm run bench:tokens`: raw uiautomator XML vs the compact view, in cl100k_base and o200k_base
 * tokens, for every real dump in ../shared/fixtures/android-dumps, plus actionable recall and the
 * listing's o200k tokens per actionable element (the compact view the agent sends, AGENT_COMPACT,
 * divided by the dump's actionable nodes; median over dumps that have any).
 * Targets: median ratio ≥ 15× with 100% recall; ≤ 15 tokens per actionable element (issue 21).
 * Writes bench/results/tokens.{json,md}.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(root, '../shared/fixtures/android-dumps');
const outDir = path.join(root, 'bench/results');

interface Row {
  file: string;
  bytes: number;
  rawCl100k: number;
  compactCl100k: number;
  ratioCl100k: number;
  rawO200k: number;
  compactO200k: number;
  ratioO200k: number;
  actionable: number;
  labelled: number;
  recalled: number;
  excluded: number;
  lines: number;
  textTokensCl100k: number;
  /** o200k tokens of the compact view per actionable node of the dump. */
  perActionableO200k: number;
  misses: string[];
}

/** The same median at 7d695c7, before issue 21's leaner listing (the full listing, 8-hex ids). */
const BEFORE_PER_ACTIONABLE = 25.9;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const { getEncoding } = await import('js-tiktoken');
  const cl = getEncoding('cl100k_base');
  const o2 = getEncoding('o200k_base');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort();
  const rows: Row[] = [];
  for (const file of files) {
    const xml = readFileSync(path.join(dir, file), 'utf8');
    const rec = actionableRecall(xml);
    const rawCl = cl.encode(xml).length;
    const cmpCl = cl.encode(rec.compact).length;
    const rawO = o2.encode(xml).length;
    const cmpO = o2.encode(rec.compact).length;
    rows.push({
      file,
      bytes: Buffer.byteLength(xml),
      rawCl100k: rawCl,
      compactCl100k: cmpCl,
      ratioCl100k: rawCl / cmpCl,
      rawO200k: rawO,
      compactO200k: cmpO,
      ratioO200k: rawO / cmpO,
      actionable: rec.actionable,
      labelled: rec.labelled,
      recalled: rec.recalled,
      excluded: rec.excluded.length,
      lines: rec.compact.split('\n').filter((l) => LINE_ID_RE.test(l)).length,
      textTokensCl100k: cl.encode(rec.compact.split('\n').find((l) => l.startsWith('text: ')) ?? '').length,
      perActionableO200k: rec.actionable > 0 ? cmpO / rec.actionable : Number.NaN,
      misses: rec.misses.map((m) => `${m.className} ${m.bounds} [${m.evidence.join(' | ')}]: ${m.why}`),
    });
  }
  const counted = rows.reduce((a, r) => a + r.labelled - r.excluded, 0);
  const recalled = rows.reduce((a, r) => a + r.recalled, 0);
  const summary = {
    files: rows.length,
    medianRatioCl100k: r1(median(rows.map((r) => r.ratioCl100k))),
    medianRatioO200k: r1(median(rows.map((r) => r.ratioO200k))),
    totalRawCl100k: rows.reduce((a, r) => a + r.rawCl100k, 0),
    totalCompactCl100k: rows.reduce((a, r) => a + r.compactCl100k, 0),
    medianCompactCl100k: median(rows.map((r) => r.compactCl100k)),
    actionable: rows.reduce((a, r) => a + r.actionable, 0),
    labelledVisible: counted,
    recalled,
    recall: counted === 0 ? 1 : recalled / counted,
    excludedNotVisible: rows.reduce((a, r) => a + r.excluded, 0),
    medianPerActionableO200k: r1(median(rows.filter((r) => r.actionable > 0).map((r) => r.perActionableO200k))),
    beforePerActionableO200k: BEFORE_PER_ACTIONABLE,
    target: 'median ratio >= 15x (cl100k and o200k) with 100% recall; <= 15 o200k tokens per actionable element',
  };
  const met = summary.medianRatioCl100k >= 15 && summary.medianRatioO200k >= 15 && summary.recall === 1;
  const perMet = summary.medianPerActionableO200k <= 15;
  const count = (s: string) => o2.encode(s).length;
  const fixtures = path.resolve(root, '../shared/fixtures');
  const others: SourceRow[] = [
    await simRow(count),
    await recordedRow(
      'DroidBot graphs (droidbot-utg)',
      path.join(fixtures, 'droidbot-utg'),
      /states\/state_[^/]+\.json$/,
      count,
    ),
    await recordedRow('DroidTask states', path.join(fixtures, 'droidtask'), /states\/[0-9a-f]{64}\.json$/, count),
  ];
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    path.join(outDir, 'tokens.json'),
    `${JSON.stringify({ summary, met, perMet, rows, others }, null, 2)}\n`,
  );

  const worst = [...rows].sort((a, b) => a.ratioCl100k - b.ratioCl100k).slice(0, 5);
  const md = [
    '# Token benchmark: raw uiautomator XML vs compact view',
    '',
    `Generated by \`npm run bench:tokens\` over ${rows.length} real dumps in \`../shared/fixtures/android-dumps\` (js-tiktoken).`,
    'Recall: every actionable node (clickable / long-clickable / checkable / scrollable, or an EditText; area > 0) with a',
    'label (own text, content-desc, resource id, or its descendants’ text) must have a compact line that shows one of',
    'those labels (a node with no text or description of its own may show the name perception gave it instead: the',
    'text beside a check box, a list’s first item). Nodes nobody can see or touch (scrolled off-screen, behind a higher window, a modal dialog or a',
    'dialog’s backdrop) are dropped by perception on purpose and counted apart as "excluded".',
    '',
    `**Median ratio: ${summary.medianRatioCl100k}× (cl100k_base), ${summary.medianRatioO200k}× (o200k_base); recall ${recalled}/${counted} = ${(summary.recall * 100).toFixed(1)}%** (${summary.excludedNotVisible} not visible, excluded) — target ≥ 15× with 100% recall: ${met ? 'met' : 'NOT met'}.`,
    '',
    `Total tokens (cl100k): raw ${summary.totalRawCl100k}, compact ${summary.totalCompactCl100k}; median compact view ${summary.medianCompactCl100k} tokens.`,
    '',
    `**Tokens per actionable element (o200k, the listing the agent sends ÷ the dump's actionable nodes, median over dumps with any): ${summary.medianPerActionableO200k}** (before issue 21: ${BEFORE_PER_ACTIONABLE}) — target ≤ 15: ${perMet ? 'met' : 'NOT met'}.`,
    '',
    '| file | raw cl100k | compact cl100k | ratio | raw o200k | compact o200k | ratio | per actionable | actionable | labelled | recalled | excluded |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.file} | ${r.rawCl100k} | ${r.compactCl100k} | ${r1(r.ratioCl100k)}× | ${r.rawO200k} | ${r.compactO200k} | ${r1(r.ratioO200k)}× | ${Number.isNaN(r.perActionableO200k) ? '—' : r1(r.perActionableO200k)} | ${r.actionable} | ${r.labelled} | ${r.recalled} | ${r.excluded} |`,
    ),
    '',
    '## Other screens (the same listing and recall; recorded states read as helper snapshots)',
    '',
    '| source | screens | with actionable | median tokens / actionable (o200k) | median listing tokens | recall | excluded | unreadable |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...others.map(
      (o) =>
        `| ${o.source} | ${o.screens} | ${o.withActionable} | ${o.medianPerActionable} | ${o.medianTokens} | ${o.recalled}/${o.labelled} = ${((100 * o.recalled) / Math.max(1, o.labelled)).toFixed(1)}% | ${o.excluded} | ${o.failed.length} |`,
    ),
    '',
    ...others.flatMap((o) =>
      o.misses.length
        ? [`Misses in ${o.source} (first 15 of ${o.misses.length}):`, ...o.misses.slice(0, 15).map((m) => `- ${m}`), '']
        : [],
    ),
    '## Worst files (lowest cl100k ratio)',
    '',
    ...worst.map(
      (r) =>
        `- ${r.file}: ${r1(r.ratioCl100k)}× (${r.rawCl100k} → ${r.compactCl100k} tokens; ${r.lines} control lines, text line ${r.textTokensCl100k} tokens) — a small dump that is mostly controls and text leaves little to drop.`,
    ),
    '',
    '## Misses',
    '',
    ...(rows.some((r) => r.misses.length > 0)
      ? rows.flatMap((r) => r.misses.map((m) => `- ${r.file}: ${m}`))
      : ['None.']),
    '',
  ].join('\n');
  writeFileSync(path.join(outDir, 'tokens.md'), md);
  for (const l of md.split('\n'))
    if (l.startsWith('**Median ratio') || l.startsWith('**Tokens per')) process.stdout.write(`${l}\n`);
  if (!met) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:tokens: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
