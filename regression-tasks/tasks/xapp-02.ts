import type { TaskDef } from '../types.js';

const LIST_TITLE = 'Coffee run';
/** What the note says, and the cart lines it means (FoodShop's default size is Medium). */
const LIST_BODY = 'Medium Latte\nLarge Coconut Latte';
const WANT = [
  { name: /^Latte /, size: 'Medium' },
  { name: /^Coconut Latte /, size: 'Large' },
];

/** Checkout is not guarded (it only reviews); going on to payment or paying is refused (PAY stop). */
const stopAtCheckout = (summary: string): 'approve' | 'deny' =>
  /Continue to payment|去支付|Pay ¥|确认支付/.test(summary) ? 'deny' : 'approve';

/**
 * XAPP-02: read a shopping list in Notes, order its items in FoodShop with the sizes as written,
 * and stop on the checkout page. The note is fixed (the reference model's intents cannot carry text
 * read from the screen), so the list and its sizes are the same for every seed.
 */
export const XAPP_02: TaskDef = {
  id: 'XAPP-02',
  category: 'cross-app',
  tags: ['notes', 'shop', 'cross-app', 'pay-stop', 'en'],
  instruction: 'Order everything in my note "{list}" from FoodShop (sizes as written); stop at checkout.',
  params: () => ({ list: LIST_TITLE }),
  setup: (phone) => {
    const w = phone.world;
    const id = w.notes.reduce((m, n) => Math.max(m, n.id), 0) + 1;
    w.notes.push({ id, title: LIST_TITLE, body: LIST_BODY, at: phone.clock.now() });
  },
  check: (w, run, _p, phone) => {
    const problems: string[] = [];
    if (w.orders.length > 0 || w.payments.length > 0) problems.push('an order was placed/paid');
    const fg = phone.foreground();
    if (fg.activity !== '.CheckoutActivity') problems.push(`screen ${fg.activity}`);
    if (w.cart.length !== WANT.length) problems.push(`cart has ${w.cart.length} lines`);
    for (const want of WANT) {
      const line = w.cart.find((l) => want.name.test(l.name));
      if (!line) problems.push(`no ${want.name.source} in the cart`);
      else if (line.size !== want.size || line.qty !== 1 || line.options.length > 0)
        problems.push(`${line.name}: size ${line.size}, qty ${line.qty}, options ${line.options.join(',')}`);
    }
    // The catalog's check is the world (cart, screen, no order): stopping there and handing over
    // (ask_user) or saying done both leave it right; a relay model's correct done was failed here.
    if (run.status !== 'ask_user' && run.status !== 'done') problems.push(`status ${run.status}`);
    return problems.length ? { ok: false, reason: problems.join('; ') } : { ok: true };
  },
  guard: 'PAY_STOP',
  confirm: stopAtCheckout,
  optimalSteps: 16,
  intents: [
    'launch "Notes"',
    'tap "{list}"',
    'launch "FoodShop"',
    'type "Search" "Latte"',
    'tap "Latte"',
    'tap "Add to cart" changes',
    'back',
    'tap "Coconut Latte"',
    'tap "Large"',
    'tap "Add to cart" changes',
    'tap "Cart"',
    'tap "Checkout"',
    'ask_user "This is the checkout page; please place the order yourself."',
  ],
};
