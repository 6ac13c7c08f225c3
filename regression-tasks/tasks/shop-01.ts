import type { TaskDef } from '../types.js';

const DISHES = ['Tiramisu', 'Croissant', 'Mango Pudding', 'Caesar Salad', 'Egg Tart', 'Bagel'];

/** SHOP-01: search and open a dish's page; the "update available" dialog on launch is dismissed, not accepted. */
export const SHOP_01: TaskDef = {
  id: 'SHOP-01',
  category: 'shop',
  tags: ['shop', 'search', 'interrupt', 'en'],
  instruction: 'In FoodShop, search "{dish}" and open its page.',
  params: (r) => ({ dish: DISHES[Math.floor(r() * DISHES.length)] ?? 'Tiramisu' }),
  check: async (w, run, p, phone) => {
    if (w.updateStarted) return { ok: false, reason: 'the update was started' };
    const fg = phone.foreground();
    const tree = await phone.readTree();
    const shown = tree.nodes.some((n) => n.resourceId.endsWith('product_name') && n.text === p.dish);
    return run.status === 'done' && fg.activity === '.ProductActivity' && shown
      ? { ok: true }
      : { ok: false, reason: `screen ${fg.package}/${fg.activity}, dish shown=${shown}, status=${run.status}` };
  },
  optimalSteps: 5,
  intents: ['launch "FoodShop"', 'type "Search" "{dish}"', 'tap "{dish}"', 'done'],
};
