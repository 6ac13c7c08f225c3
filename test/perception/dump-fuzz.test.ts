import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { MAX_XML_DEPTH } from '../../src/perception/xml-reader.js';
import { phoneDumps, runFuzz } from './dump-fuzz.js';
import { appWindow, dumpXml } from './xml-builder.js';

/**
 * Hostile dumps (issue 12): deep nesting, quadratic-regex bait, huge values, impossible bounds; then
 * a seeded fuzz run over the virtual phone's own dumps. `npm run bench:fuzz` runs more and larger.
 */

const deep = (levels: number) =>
  `<hierarchy rotation="0">${'<node bounds="[0,0][10,10]">'.repeat(levels)}${'</node>'.repeat(levels)}</hierarchy>`;

describe('hostile dumps', () => {
  it('nesting of 4,000 and 100,000 levels is a typed error, not a stack overflow', () => {
    for (const levels of [MAX_XML_DEPTH, 4_000, 100_000]) {
      const r = parseUiautomatorXml(deep(levels));
      expect(r).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
      if (!r.ok) expect(r.message).toMatch(/nested deeper than 512 levels/);
    }
    // <hierarchy> is one of the levels.
    expect(parseUiautomatorXml(deep(MAX_XML_DEPTH - 1)).ok).toBe(true);
  });

  it('`phone-agent observe --xml` exits 2 with the typed message on 5,000 levels', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'deep-'));
    try {
      const file = path.join(dir, 'deep.xml');
      await writeFile(file, deep(5_000));
      const run = promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'observe',
        '--xml',
        file,
      ]);
      const e = await run.then(
        () => undefined,
        (x: { code?: number; stderr?: string }) => x,
      );
      expect(e?.code).toBe(2);
      expect(e?.stderr).toMatch(/nested deeper than 512 levels/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('a 2.4 MB bounds value is quoted in a bounded error message', () => {
    const xml = dumpXml([appWindow([{ text: 'x', b: [0, 0, 10, 10] }])]).replace(
      'bounds="[0,0][10,10]"',
      `bounds="${'[1,'.repeat(800_000)}"`,
    );
    const r = parseUiautomatorXml(xml);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message.length).toBeLessThan(300);
      expect(r.message).toContain('2400000 characters');
    }
  });

  it('a 2 MB tag name is quoted in a bounded error message', () => {
    const r = parseUiautomatorXml(`<hierarchy><${'n'.repeat(2_000_000)} x="1"></hierarchy>`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message.length).toBeLessThan(300);
  });

  it('inverted, negative and absurd bounds are kept as notes; inverted ones become empty', () => {
    const xml = dumpXml([
      appWindow([
        { text: 'inverted', b: [9, 9, 1, 1], clickable: true },
        { text: 'inverted too', b: [500, 900, 100, 800], clickable: true },
        { text: 'negative', b: [-20, -20, 100, 100], clickable: true },
      ]),
    ]).replace('bounds="[500,900][100,800]"', 'bounds="[500,900][100,800]"');
    const huge = xml.replace('bounds="[-20,-20][100,100]"', `bounds="[0,0][${'9'.repeat(40)},5]"`);
    const r = parseUiautomatorXml(xml);
    if (!r.ok) throw new Error(r.message);
    expect(r.tree.notes).toContain('2 nodes with inverted bounds (first: [9,9][1,1]), treated as empty');
    expect(r.tree.notes.some((n) => n.startsWith('1 node with negative bounds (first: [-20,-20][100,100])'))).toBe(
      true,
    );
    const inv = r.tree.nodes.find((n) => n.text === 'inverted');
    expect(inv?.boundsPx).toEqual({ left: 9, top: 9, right: 9, bottom: 9 });
    const h = parseUiautomatorXml(huge);
    if (!h.ok) throw new Error(h.message);
    expect(h.tree.notes.some((n) => n.startsWith('1 node with coordinates beyond any screen'))).toBe(true);
  });

  it('"<hierarchy ".repeat(N) and a self-closing hierarchy still parse or fail as values', () => {
    expect(parseUiautomatorXml('<hierarchy '.repeat(40_000)).ok).toBe(false);
    const r = parseUiautomatorXml('junk\n<hierarchy rotation="0"/>\nmore junk');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.tree.emptyReason).toMatch(/no nodes/);
  });
});

describe('fuzz: mutated dumps of the virtual phone', () => {
  it('2,000 seeded cases: 0 crashes, 0 hangs over 1 s, bounded messages and memory', async () => {
    const seeds = await phoneDumps();
    expect(seeds.length).toBeGreaterThan(8);
    const r = await runFuzz({ seeds, cases: 2_000, seed: 12, maxChars: 20_000, deepChars: 300_000, hangMs: 1_000 });
    expect(r.cases).toBe(2_000);
    expect(r.crashes).toEqual([]);
    expect(r.hangs).toEqual([]);
    expect(r.maxMessage).toBeLessThan(400);
    expect(r.peakHeapMb).toBeLessThan(1_024);
    // Both outcomes occur for the mutations meant to produce them: the run exercises the parser's
    // success path and its error path, not only one of them.
    expect(r.byMutation.nest?.observed).toBeGreaterThan(0);
    expect(r.byMutation.nest?.rejected).toBeGreaterThan(0);
    expect(r.byMutation['bounds-impossible']?.observed).toBeGreaterThan(0);
    expect(r.byMutation.truncate?.rejected).toBeGreaterThan(0);
  }, 120_000);
});
