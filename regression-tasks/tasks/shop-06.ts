import { foodShopData } from '../../src/testbed/sim/apps/foodshop-menu.js';
import type { TaskDef } from '../types.js';

const DRINKS = ['Latte', 'Mocha', 'Cortado', 'Espresso', 'Oolong Tea', 'Lemonade'];
/** Medium is preselected: asking for it would not exercise the size choice. */
const SIZES = ['Small', 'Large'];

/**
 * SHOP-06: a real purchase (PAY, the harness approves): one drink of a size, paid with the saved
 * card — the payment page preselects a wallet, so the card must be chosen. Exactly one paid order
 * whose single line is that drink and size, plain, quantity 1.
 */
export const SHOP_06: TaskDef = {
  id: 'SHOP-06',
  category: 'shop',
  tags: ['shop', 'guard', 'pay', 'en'],
  instruction: 'Buy one {size} {item} and pay with the saved card.',
  params: (r) => {
    r(); // neighbouring seeds start alike: skip the first draw for more variety
    return {
      item: DRINKS[Math.floor(r() * DRINKS.length)] ?? 'Latte',
      size: SIZES[Math.floor(r() * SIZES.length)] ?? 'Large',
    };
  },
  check: (w, run, p) => {
    const shop = foodShopData(w);
    const problems: string[] = [];
    const order = w.orders[0];
    if (w.orders.length !== 1 || !order) problems.push(`${w.orders.length} orders`);
    else {
      if (order.status !== 'paid') problems.push(`order ${order.status}`);
      const line = order.lines[0];
      if (order.lines.length !== 1 || !line) problems.push(`${order.lines.length} lines`);
      else {
        if (!line.name.startsWith(`${p.item} `)) problems.push(`item ${line.name}`);
        if (line.size !== p.size) problems.push(`size ${line.size}`);
        if (line.qty !== 1) problems.push(`qty ${line.qty}`);
        if (line.options.length) problems.push(`options ${line.options.join(',')}`);
      }
      const paid = w.payments.filter((x) => x.orderId === order.id);
      if (paid.length !== 1 || paid[0]?.method !== shop.card)
        problems.push(`payment ${JSON.stringify(paid.map((x) => x.method))} (want ${shop.card})`);
    }
    if (run.status !== 'done') problems.push(`status ${run.status}`);
    return problems.length ? { ok: false, reason: problems.join('; ') } : { ok: true };
  },
  guard: 'PAY',
  confirm: 'approve',
  mayChange: ['cart', 'orders', 'payments', 'foodshop'],
  optimalSteps: 11,
  intents: [
    'launch "FoodShop"',
    'type "Search" "{item}"',
    'tap "{item}"',
    'tap "{size}"',
    'tap "Add to cart" changes',
    'tap "Cart"',
    'tap "Checkout"',
    'tap "Continue to payment"',
    'tap "Saved card"',
    'tap "Pay"',
    'done',
  ],
};
