import { foodShopData } from '../../src/testbed/sim/apps/foodshop-menu.js';
import type { TaskDef } from '../types.js';

/** Bakery items (the menu's last category) whose name no other item's name starts with. */
const ITEMS = [
  'Cinnamon Roll',
  'Blueberry Muffin',
  'Pineapple Bun',
  'Sourdough',
  'Focaccia',
  'Brioche',
  'Pretzel',
  'Banana Bread',
  'Garlic Bread',
  'Walnut Bread',
  'Milk Toast',
  'Pork Floss Bun',
];

/**
 * SHOP-03: n of one item that sits near the end of a 125-item menu with no search box: the list has
 * to be scrolled — through all of it (about 26 slow swipes, beyond the step budget) or, smarter,
 * after narrowing it with the category chip. The quantity is typed on the product page. The cart
 * must hold exactly that item × n and nothing else.
 */
export const SHOP_03: TaskDef = {
  id: 'SHOP-03',
  category: 'shop',
  tags: ['shop', 'scroll', 'long-list', 'en'],
  instruction: 'Add {n}× "{item}" to the cart.',
  params: (r) => {
    r(); // neighbouring seeds start alike: skip the first draw for more variety
    return {
      item: ITEMS[Math.floor(r() * ITEMS.length)] ?? 'Brioche',
      n: String(2 + Math.floor(r() * 4)),
      // Rows from the end of the menu where the item is placed (0 = last).
      fromEnd: String(1 + Math.floor(r() * 4)),
    };
  },
  setup: (phone, p) => {
    const shop = foodShopData(phone.world);
    shop.searchEnabled = false;
    const at = shop.menu.findIndex((i) => i.en === p.item);
    if (at < 0) throw new Error(`SHOP-03: no menu item ${p.item}`);
    const [item] = shop.menu.splice(at, 1);
    if (item) shop.menu.splice(shop.menu.length - Number(p.fromEnd), 0, item);
  },
  check: (w, run, p) => {
    const line = w.cart[0];
    const right = w.cart.length === 1 && line?.name.startsWith(`${p.item} `) && line.qty === Number(p.n);
    return right && w.orders.length === 0 && run.status === 'done'
      ? { ok: true }
      : {
          ok: false,
          reason: `cart=${JSON.stringify(w.cart.map((l) => [l.name, l.qty]))} (want ${p.item} ×${p.n}), status=${run.status}`,
        };
  },
  mayChange: ['cart', 'foodshop'],
  optimalSteps: 9,
  intents: [
    'launch "FoodShop"',
    'toggle "Bakery" on',
    'tap "{item}"',
    'type "Quantity" "{n}"',
    'tap "Add to cart" changes',
    'done',
  ],
};
