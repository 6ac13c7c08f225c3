import { describe, expect, it } from 'vitest';
import { foodShopData, unitPrice } from '../../src/testbed/sim/apps/foodshop-menu.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findIn, scrollTo, setText, settle, tapOn } from './helpers.js';

/** FoodShop end to end through taps, set_text and seek-bar progress: dialog → search → product → pay. */

async function openShop(seed = 6): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed });
  expect((await phone.launch('com.foodshop')).ok).toBe(true);
  await settle(phone);
  return phone;
}

async function activity(phone: VirtualPhone): Promise<string> {
  return (await phone.readTree()).foreground.activity;
}

describe('FoodShop', () => {
  it('shows the update dialog on first launch only; Later leaves the update unstarted', async () => {
    const phone = await openShop();
    const snap = await phone.readTree();
    expect(snap.windows.some((w) => w.type === 'dialog')).toBe(true);
    expect(findIn(snap, { text: /Update available/ })).toBeDefined();
    await tapOn(phone, { text: /^Later/ });
    expect(phone.world.updateStarted).toBe(false);
    expect(findIn(await phone.readTree(), { text: /Update available/ })).toBeUndefined();
    await phone.forceStop('com.foodshop');
    await phone.launch('com.foodshop');
    await settle(phone);
    expect(findIn(await phone.readTree(), { text: /Update available/ })).toBeUndefined();
  });

  it('the menu appears late after a cold start: loading first, rows ~600 ms later', async () => {
    const phone = new VirtualPhone({ seed: 6 });
    await phone.launch('com.foodshop');
    expect(findIn(await phone.readTree(), { id: 'item_name' })).toBeUndefined();
    await settle(phone, 700);
    expect(findIn(await phone.readTree(), { id: 'item_name' })).toBeDefined();
  });

  it('Update starts the update', async () => {
    const phone = await openShop();
    await tapOn(phone, { text: /^Update$/ });
    expect(phone.world.updateStarted).toBe(true);
  });

  it('search → product options → cart → checkout → payment page places nothing; Pay records ordered then paid', async () => {
    const phone = await openShop();
    await tapOn(phone, { text: /^Later/ });
    await setText(phone, { id: 'search' }, '美式');
    const names = (await phone.readTree()).nodes
      .filter((n) => n.resourceId.endsWith(':id/item_name'))
      .map((n) => n.text);
    expect(names).toContain('Americano');
    expect(names.every((n) => n.includes('Americano'))).toBe(true); // found by its Chinese name, shown in English

    await tapOn(phone, { text: 'Americano' });
    expect(await activity(phone)).toBe('.ProductActivity');
    expect(foodShopData(phone.world).productId).toBe('americano');
    await tapOn(phone, { id: 'size_large' });
    await tapOn(phone, { id: 'ice' });
    await tapOn(phone, { id: 'extra_shot' });
    const { snap, node: seek } = await find(phone, { id: 'sweetness' });
    expect(seek.range).toEqual({ min: 0, max: 100, current: 50 });
    expect((await phone.nodeAction(snap.seq, seek.id, { action: 'set_progress', value: 30 })).ok).toBe(true);
    await settle(phone);
    expect((await find(phone, { id: 'sweetness_label' })).node.text).toContain('30%');
    await tapOn(phone, { id: 'qty_plus' });
    expect((await find(phone, { id: 'size_large' })).node.flags.checked).toBe(true);
    expect((await find(phone, { id: 'size_medium' })).node.flags.checked).toBe(false);
    await tapOn(phone, { id: 'add_to_cart' });

    const item = foodShopData(phone.world).menu.find((i) => i.id === 'americano')!;
    const price = unitPrice(item, 'Large', true);
    expect(price).toBe(item.price + 7);
    expect(phone.world.cart).toEqual([
      {
        itemId: 'americano',
        name: 'Americano 美式咖啡',
        size: 'Large',
        options: ['Iced', 'Extra shot'],
        sweetness: 30,
        qty: 2,
        unitPrice: price,
      },
    ]);

    await tapOn(phone, { id: 'cart' });
    expect(await activity(phone)).toBe('.CartActivity');
    expect((await find(phone, { id: 'total' })).node.text).toBe(`Total ¥${price * 2}`);
    await tapOn(phone, { id: 'checkout' });
    expect(await activity(phone)).toBe('.CheckoutActivity');
    // The order review names no payment method: it is chosen on the payment page (the cashier).
    expect(findIn(await phone.readTree(), { id: 'payment_method' })).toBeUndefined();
    expect(findIn(await phone.readTree(), { id: 'method_card' })).toBeUndefined();
    await tapOn(phone, { id: 'to_payment' });
    expect(await activity(phone)).toBe('.PaymentActivity');
    expect(findIn(await phone.readTree(), { id: 'method_wechat' })?.flags.checked).toBe(true);
    await tapOn(phone, { id: 'method_card' });
    expect(findIn(await phone.readTree(), { id: 'method_card' })?.flags.checked).toBe(true);
    expect((await find(phone, { id: 'pay' })).node.text).toBe(`Pay ¥${price * 2}`);
    expect(phone.world.orders).toEqual([]);
    expect(phone.world.events).toEqual([]);

    await tapOn(phone, { id: 'pay' });
    expect(phone.world.events.map((e) => e.kind)).toEqual(['ordered', 'paid']);
    expect(phone.world.orders).toHaveLength(1);
    expect(phone.world.orders[0]).toMatchObject({ status: 'paid', total: price * 2 });
    expect(phone.world.orders[0].lines[0]).toMatchObject({ itemId: 'americano', qty: 2 });
    expect(phone.world.payments).toEqual([
      expect.objectContaining({ orderId: phone.world.orders[0].id, amount: price * 2 }),
    ]);
    expect(phone.world.cart).toEqual([]);
    expect(await activity(phone)).toBe('.OrderDoneActivity');
    await settle(phone, 1500);
    expect((await find(phone, { id: 'order_id' })).node.text).toContain(String(phone.world.orders[0].id));
  });

  it('without search, an item near the end of the 120+ menu is reached by scrolling; cart quantities edit', async () => {
    const phone = new VirtualPhone({ seed: 9 });
    const shop = foodShopData(phone.world);
    shop.searchEnabled = false;
    expect(shop.menu.length).toBeGreaterThanOrEqual(120);
    const target = shop.menu[shop.menu.length - 2];
    await phone.launch('com.foodshop');
    await settle(phone);
    await tapOn(phone, { text: /^Later/ });
    expect(findIn(await phone.readTree(), { id: 'search' })).toBeUndefined();
    const name = target.en;
    expect(findIn(await phone.readTree(), { text: name })).toBeUndefined();
    await scrollTo(phone, 'menu', { text: name });
    await tapOn(phone, { text: name });
    expect(findIn(await phone.readTree(), { id: 'sweetness' })).toBeUndefined(); // bakery: no drink options
    await tapOn(phone, { id: 'qty_plus' });
    await tapOn(phone, { id: 'qty_plus' });
    await tapOn(phone, { id: 'add_to_cart' });
    await tapOn(phone, { id: 'cart' });
    await tapOn(phone, { id: 'line_minus' });
    expect(phone.world.cart).toEqual([
      {
        itemId: target.id,
        name: `${target.en} ${target.zh}`,
        size: undefined,
        options: [],
        sweetness: undefined,
        qty: 2,
        unitPrice: target.price,
      },
    ]);
  });
});
