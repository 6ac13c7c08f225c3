import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listApps, loadApp } from '../../bench/droidtask/fixture.js';
import type { Element, Observation } from '../../src/core/types.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';

/**
 * Issue 22, open point 3: an id follows its control across a scroll on real screens (DroidTask's
 * recorded scroll pairs, ../shared, read in place). A settings row cut off at the list's edge loses
 * its value ("Snooze time", then "Snooze time — 10 minutes" in view) or its title ("Medium"), and a
 * floating button was keyed by the list row behind it: 27 of 648 controls whose resource id is unique
 * on both screens changed id over one scroll. Their id and class are the control's identity.
 */
const ROOT = path.resolve(import.meta.dirname, '../../../shared/fixtures/droidtask');

async function observe(app: string, state: string, previous?: Observation): Promise<Observation> {
  const r = readDroidbotState(JSON.parse(readFileSync(path.join(ROOT, app, 'states', `${state}.json`), 'utf8')));
  if (!r.ok) throw new Error(r.message);
  const p = await perceive({ wire: r.snapshot }, previous ? { previous } : {});
  if (!p.ok) throw new Error(p.message);
  return p.observation;
}

/** Actionable controls by resource id, where the id names one control on the screen. */
function unique(o: Observation): Map<string, Element> {
  const all = new Map<string, Element[]>();
  for (const e of o.elements)
    if (e.actionable && e.resourceId) all.set(e.resourceId, [...(all.get(e.resourceId) ?? []), e]);
  return new Map([...all].flatMap(([rid, es]) => (es.length === 1 ? [[rid, es[0] as Element] as const] : [])));
}

describe('ids across a recorded scroll', () => {
  it('every control whose resource id is unique on both screens keeps its id', async () => {
    const changed: string[] = [];
    let pairs = 0;
    const seen = new Set<string>();
    for (const app of await listApps(ROOT)) {
      const loaded = await loadApp(ROOT, app);
      for (const step of loaded.tasks.flatMap((t) => t.steps)) {
        const chain = step.scroll_states ?? [];
        for (let i = 0; i + 1 < chain.length; i++) {
          const [a, b] = [chain[i] as string, chain[i + 1] as string];
          if (a === b || seen.has(`${a}>${b}`)) continue;
          seen.add(`${a}>${b}`);
          const before = await observe(app, a);
          const after = unique(await observe(app, b, before));
          for (const [rid, e] of unique(before)) {
            const f = after.get(rid);
            if (!f) continue;
            pairs++;
            if (f.id !== e.id) changed.push(`${app} ${rid}: "${e.label}" [${e.id}] → "${f.label}" [${f.id}]`);
          }
        }
      }
    }
    expect(pairs).toBeGreaterThan(500);
    expect(changed).toEqual([]);
  }, 120_000);
});
