import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * The virtual phone's uiautomator dump has the format of real ones: the same prologue, the same
 * attribute names in the same order (real dumps may add newer attributes after `bounds`), leaf nodes
 * self-closed. Real dumps are third-party data read from ../shared.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.resolve(repoRoot, '../shared/fixtures/android-dumps');

function attrNames(tag: string): string[] {
  return [...tag.matchAll(/ ([a-z-]+)="/g)].map((m) => m[1]);
}

describe('virtual phone dump format vs real uiautomator dumps', () => {
  it('uses the prologue and attribute order of real dumps', async () => {
    const phone = new VirtualPhone();
    await phone.launch('com.android.settings');
    const ours = await phone.dumpXml();
    const ourTag = /<node [^>]*>/.exec(ours)?.[0] ?? '';
    const ourNames = attrNames(ourTag);
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThan(10);
    let compared = 0;
    for (const f of files) {
      const real = readFileSync(path.join(dir, f), 'utf8');
      // (One fixture was saved without the prologue.)
      if (real.startsWith('<?xml'))
        expect(real.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")).toBe(true);
      expect(ours.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")).toBe(true);
      const tag = /<node [^>]*>/.exec(real)?.[0];
      if (!tag) continue;
      // Real dumps from newer Android add visible-to-user / drawing-order / hint; the common core matches.
      const names = attrNames(tag).filter((n) => ourNames.includes(n));
      expect(names).toEqual(ourNames);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
    // Single-line output with self-closed leaves, as `uiautomator dump` writes it.
    expect(ours.includes('\n')).toBe(false);
    expect(ours).toMatch(/<node [^>]*bounds="\[\d+,\d+\]\[\d+,\d+\]" \/>/);
  });
});
