import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { perceive } from '../../src/perception/perceive.js';
import { loadStateFile } from '../../src/testbed/replay/state-file.js';

/**
 * Issue 22, where models stumbled on real screens: the listing of DroidTask's recorded states (read
 * from ../shared, never copied). The page's title is the toolbar's, never one of the items; a
 * switch's text does not repeat its state; a field named only by its own text says it may be a hint.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const droidtask = path.resolve(repoRoot, '../shared/fixtures/droidtask');

async function observe(file: string): Promise<{ obs: Observation; listing: string }> {
  const { read } = await loadStateFile(file, { imageBytes: false });
  const r = await perceive({ wire: read.snapshot });
  if (!r.ok) throw new Error(`${file}: ${r.message}`);
  return { obs: r.observation, listing: compactView(r.observation, AGENT_COMPACT) };
}

const state = (app: string, hash: string) => path.join(droidtask, app, 'states', `${hash}.json`);

describe('real screens in the listing (DroidTask states)', () => {
  it('no page is titled by one of its own tappable items, and toolbars known by their id title the page', async () => {
    let titled = 0;
    const byItem: string[] = [];
    for (const app of readdirSync(droidtask, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      const dir = path.join(droidtask, app.name, 'states');
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
        const { obs } = await observe(path.join(dir, f));
        const t = obs.app.title;
        if (!t) continue;
        titled++;
        // A popup menu's rows are `android:id/title`: the first one is not the page's title.
        if (obs.elements.some((e) => e.actionable && e.label === t)) byItem.push(`${app.name}/${f}: "${t}"`);
      }
    }
    expect(byItem).toEqual([]);
    // Simple Mobile Tools' toolbars are dumped as a ViewGroup with id action_bar: 137 of 391 are titled.
    expect(titled).toBeGreaterThan(120);
  });

  it("a settings page is headed by its toolbar's title, and its switches show their state once", async () => {
    const { listing } = await observe(
      state('calendar', '0468f579719ba7cc9fffbe4694ca8d2fb69f40641e5684d2116294471ba150d9'),
    );
    expect(listing.split('\n')[0]).toBe('app com.simplemobiletools.calendar/.activities.SettingsActivity "Settings"');
    expect(listing).toMatch(/^[0-9a-f]+ Switch "Vibrate on reminder notification" off$/m);
    expect(listing).toMatch(/^[0-9a-f]+ Switch "Always use same snooze time" on$/m);
    expect(listing).not.toMatch(/ (ON|OFF)" (on|off)/);
  });

  it('a field named only by its own text (no hint in the dump) claims neither a value nor a hint', async () => {
    const { listing } = await observe(
      state('contacts', 'bb8d81168498385b6527e9eb22cd2eb65b6a3dd3d37d784983e5245046bf17b1'),
    );
    expect(listing).toMatch(/^\S+ EditText "classmate\.vcf"$/m);
  });

  it('the open tab, which the app does not make tappable, keeps its selected state on the text line', async () => {
    const { listing } = await observe(
      state('clock', '6801c7e0adcdfc0b3e8fa517dcde419bd17624446fdc1bdd71768175c6f51402'),
    );
    expect(listing).toMatch(/^text: .*"Timer" selected/m);
    expect(listing).toMatch(/^[0-9a-f]+ "Stopwatch"$/m);
  });

  it("a calendar's month view, 42 look-alike cells whose day numbers are drawn, is one grid line", async () => {
    const { obs, listing } = await observe(
      state('calendar', '466a2fa64b6408c33077de33c9df6e8d1848fce42a9a42b53d5109eae9fa7153'),
    );
    expect(listing).toMatch(/^grid 6×7 #month_view_background x 72…929 y 309…885, ids by row: /m);
    expect(listing).not.toMatch(/^\S+ #month_view_background/m);
    const cells = obs.elements.filter((e) => e.resourceId.endsWith('month_view_background'));
    expect(cells).toHaveLength(42);
  });

  it("a settings page's section headers stand above their rows, its toolbar's nameless button is 'Navigate up'", async () => {
    const { listing } = await observe(
      state('clock', '0ccb7b04ec44bb9c90c31eed914dc6e4512b880c42d8a28eb6471b32cc8548b5'),
    );
    const lines = listing.split('\n');
    expect(lines[1]).toMatch(/^\S+ ImageButton "Navigate up"$/);
    // The two "Max reminder duration" rows are told apart by the section each is under.
    expect(lines[lines.indexOf('section "ALARM TAB"') + 1]).toMatch(/"Max reminder duration — 5 minutes"$/);
    expect(lines[lines.indexOf('section "TIMER TAB"') + 1]).toMatch(/"Max reminder duration — 1 minute"$/);
    expect(listing).not.toMatch(/^text: .*"(ALARM|TIMER) TAB"/m);
  });

  it('a settings row cut off at the bottom edge still reads as a CheckBox with its state (item 4)', async () => {
    const { listing } = await observe(
      state('messenger', '2c5664b27094d5b399cec3fa113aa97a1464ec8b9af968fa8018c436587674e6'),
    );
    expect(listing).toMatch(/^[0-9a-f]+ CheckBox "Remove accents and diacritics at sendin…" off$/m);
  });
});
