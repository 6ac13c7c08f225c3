import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig, decision, makeExecutor, observe } from './helpers.js';

/**
 * Issue 21 item 10, the Settings half: after `scroll_to` over the helper's bridge, every control seen
 * on both screens keeps its id — the list itself and the rows that stayed, including the row that was
 * a sliver at the bottom before. (Their ids changed: a row or list without text of its own was taken
 * for an icon and keyed by the text at its centre, which a scroll changes.)
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const byLabel = (o: Observation) =>
  new Map(o.elements.filter((e) => e.actionable).map((e) => [`${e.role} ${e.label ?? ''}`, e.id]));

describe('ids after scroll_to', () => {
  it('the list and the rows on both screens keep their ids', async () => {
    rig = await bridgeRig({ seed: 7 });
    const ex = makeExecutor(rig.device, rig.clock);
    let obs = await observe(ex);
    await ex.run(decision({ tool: 'launch_app', package: 'com.android.settings' }), obs);
    await rig.clock.sleep(1500);
    obs = await observe(ex, obs);
    const tools = REGISTRY.plannerTools(REGISTRY.offered(rig.device.capabilities()));
    const act = parseAct(
      { thought: 't', tool: 'scroll_to', text: 'Tips & support', expect: 'text_appears Tips & support' },
      { catalog: REGISTRY.catalog, tools, ids: new Set(obs.elements.map((e) => e.id)) },
    );
    if (!act.ok) throw new Error(act.error);
    const r = await ex.run(act.value.decision, obs);
    expect(r.ok, r.error).toBe(true);
    if (!r.post) throw new Error('no post-action read');
    // What the loop decides on next: an observation of the post-action read.
    const next = await observe(ex, r.post);
    const before = byLabel(obs);
    let both = 0;
    for (const after of [r.post, next])
      for (const [label, id] of byLabel(after)) {
        const was = before.get(label);
        if (was === undefined) continue;
        expect(id, label).toBe(was);
        both++;
      }
    // The list, the rows from "Storage" to "Safety & emergency", on both reads.
    expect(both).toBeGreaterThanOrEqual(2 * 8);
  });
});
