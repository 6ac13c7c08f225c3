import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig, decision, makeExecutor, observe } from './helpers.js';

/**
 * A burst whose later member's control changes because of an earlier one: FoodShop's "Add to cart
 * ¥15" reads "¥75" once the quantity is 5. Only the members before the first that acts are bound to
 * the control as read; the click is found by its control when it runs (a Flash relay player's
 * burst was refused as STALE and counted towards the hand-over).
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('action_sequence members after one that acts', () => {
  it('set the quantity, then tap the button whose label shows the total: both run, the cart holds them', async () => {
    rig = await bridgeRig({ seed: 7 });
    const ex = makeExecutor(rig.device, rig.clock);
    let obs = await observe(ex);
    await ex.run(decision({ tool: 'launch_app', package: 'com.foodshop' }), obs);
    await rig.clock.sleep(1500);
    obs = await observe(ex, obs);
    // The app's own update dialog may come first (the world's seed).
    const later = obs.elements.find((e) => e.resourceId.endsWith('/later'));
    if (later) {
      await ex.run(decision({ tool: 'tap', target_id: later.id }), obs);
      obs = await observe(ex, obs);
    }
    const row = obs.elements.find((e) => e.actionable && e.resourceId.endsWith('menu_item'));
    expect(row).toBeDefined();
    await ex.run(decision({ tool: 'tap', target_id: row?.id }), obs);
    await rig.clock.sleep(1500);
    obs = await observe(ex, obs);
    const qty = obs.elements.find((e) => e.flags.editable && e.resourceId.endsWith('qty'));
    const add = obs.elements.find((e) => e.resourceId.endsWith('add_to_cart'));
    expect(qty && add).toBeTruthy();
    const before = add?.text ?? '';
    const tools = REGISTRY.plannerTools(REGISTRY.offered(rig.device.capabilities()));
    const parsed = parseAct(
      {
        thought: 't',
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: qty?.id, op: 'set_text', text: '5' },
          { tool: 'control_action', target_id: add?.id, op: 'click' },
        ],
        expect: 'text_appears Cart (5)',
      },
      { catalog: REGISTRY.catalog, tools, ids: new Set(obs.elements.map((e) => e.id)) },
    );
    if (!parsed.ok) throw new Error(parsed.error);
    const r = await ex.run(parsed.value.decision, obs);
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(rig.phone.world.cart.reduce((n, l) => n + l.qty, 0)).toBe(5);
    // The click's control did change between the read and the click: the case the test is about.
    const after = r.post ?? (await observe(ex, obs as Observation));
    const added = after.elements.find((e) => e.resourceId.endsWith('add_to_cart'));
    expect(added?.text).not.toBe(before);
  });
});
