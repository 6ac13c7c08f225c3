import type { VirtualPhone } from '../src/testbed/sim/phone.js';
import type { CartLine } from '../src/testbed/sim/world.js';
import type { CheckResult } from './types.js';

/** FoodShop: the cart holds exactly the expected line and the phone shows the payment page, unpaid. */
export function onPaymentPageWith(
  phone: VirtualPhone,
  want: { name: RegExp; size: string; options: string[]; sweetness?: number },
  status: string,
): CheckResult {
  const w = phone.world;
  const fg = phone.foreground();
  const line: CartLine | undefined = w.cart[0];
  const problems: string[] = [];
  if (w.orders.length > 0 || w.payments.length > 0) problems.push('an order was placed/paid');
  if (fg.activity !== '.PaymentActivity') problems.push(`screen ${fg.activity}`);
  if (w.cart.length !== 1 || !line) problems.push(`cart has ${w.cart.length} lines`);
  else {
    if (!want.name.test(line.name)) problems.push(`item ${line.name}`);
    if (line.size !== want.size) problems.push(`size ${line.size}`);
    if (line.qty !== 1) problems.push(`qty ${line.qty}`);
    const opts = [...line.options].sort().join(',');
    if (opts !== [...want.options].sort().join(',')) problems.push(`options ${opts}`);
    if (want.sweetness !== undefined && Math.abs((line.sweetness ?? -100) - want.sweetness) > 5)
      problems.push(`sweetness ${line.sweetness}`);
  }
  // The catalog checks the world (cart, payment screen, no order); ending there with ask_user or done both leave it right.
  if (status !== 'ask_user' && status !== 'done') problems.push(`status ${status}`);
  return problems.length ? { ok: false, reason: problems.join('; ') } : { ok: true };
}
