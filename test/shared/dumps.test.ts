import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { actionableRecall } from '../../bench/tokens-recall.js';
import { perceive } from '../../src/perception/perceive.js';

/**
 * Robustness on real phones' dumps (third-party data read from ../shared, never copied into the
 * repository): every file parses without a crash, gives a sane observation, and every labelled
 * actionable node a person can see has its line in the compact view.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(repoRoot, '../shared/fixtures/android-dumps');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.xml'))
  .sort();

describe('real Android dumps', () => {
  it('the fixture set is there', () => {
    expect(files.length).toBeGreaterThanOrEqual(38);
  });

  it.each(files)('%s: parses, observes, and recalls every visible labelled control', async (file) => {
    const xml = readFileSync(path.join(dir, file), 'utf8');
    const r = await perceive({ xml });
    if (!r.ok) throw new Error(r.message);
    const o = r.observation;
    expect(o.screen.w).toBeGreaterThan(0);
    expect(o.screen.h).toBeGreaterThan(0);
    expect(o.pageHash).toMatch(/^[0-9a-f]{8}$/);
    for (const e of o.elements) {
      expect(e.id).toMatch(/^[0-9a-f]{8}(~\d+)?$/);
      expect(e.bounds.left).toBeGreaterThanOrEqual(0);
      expect(e.bounds.right).toBeLessThanOrEqual(1000);
      expect(e.bounds.top).toBeGreaterThanOrEqual(0);
      expect(e.bounds.bottom).toBeLessThanOrEqual(1000);
      expect(e.bounds.right).toBeGreaterThanOrEqual(e.bounds.left);
    }
    expect(new Set(o.elements.map((e) => e.id)).size).toBe(o.elements.length);
    const recall = actionableRecall(xml);
    expect(recall.misses, recall.misses.map((m) => `${m.className} ${m.bounds}: ${m.why}`).join('\n')).toEqual([]);
    expect(recall.recalled).toBe(recall.labelled - recall.excluded.length);
  });

  it('truncated and corrupted copies are typed errors, never crashes or empty screens', async () => {
    for (const file of files.slice(0, 10)) {
      const xml = readFileSync(path.join(dir, file), 'utf8');
      const cut = await perceive({ xml: xml.slice(0, Math.floor(xml.length / 2)) });
      expect(cut.ok, file).toBe(false);
      if (!cut.ok) expect(cut.message).toMatch(/malformed XML|unclosed|unterminated/);
      const broken = await perceive({ xml: xml.replace(/bounds="\[/, 'bounds="(') });
      expect(broken.ok, file).toBe(false);
      if (!broken.ok) expect(broken.message).toMatch(/malformed bounds/);
    }
  });
});
