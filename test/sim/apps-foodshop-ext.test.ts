import { describe, expect, it } from 'vitest';
import { cheapestIn, foodShopData, type MenuItem, WALLETS } from '../../src/testbed/sim/apps/foodshop-menu.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, scrollTo, setText, settle, tapOn } from './helpers.js';

/** FoodShop's category chips and price sort, the editable quantity, and the payment-method choice. */

async function openMenu(seed: number, configure?: (phone: VirtualPhone) => void): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed });
  configure?.(phone);
  expect((await phone.launch('com.foodshop')).ok).toBe(true);
  await settle(phone, 800);
  await tapOn(phone, { text: /^Later/ });
  return phone;
}

/** The name the en menu shows. */
const shown = (item: MenuItem): string => item.en;

async function listedNames(phone: VirtualPhone): Promise<string[]> {
  return findAllIn(await phone.readTree(), { id: 'item_name' }).map((n) => n.text);
}

describe('FoodShop menu filters', () => {
  it('a category chip lists only that category; the sort switch puts its cheapest item first', async () => {
    const phone = await openMenu(5);
    const { menu } = foodShopData(phone.world);
    const desserts = menu.filter((i) => i.category === 'dessert');
    await tapOn(phone, { id: 'chip_dessert' });
    expect((await find(phone, { id: 'chip_dessert' })).node.flags.checked).toBe(true);
    expect((await find(phone, { id: 'chip_all' })).node.flags.checked).toBe(false);
    const unsorted = await listedNames(phone);
    expect(unsorted.length).toBeGreaterThan(5);
    expect(unsorted).toEqual(desserts.slice(0, unsorted.length).map(shown));
    await tapOn(phone, { id: 'sort_price' });
    const sorted = await listedNames(phone);
    const byPrice = [...desserts].sort((a, b) => a.price - b.price);
    expect(sorted[0]).toBe(shown(cheapestIn(menu, 'dessert')));
    expect(sorted).toEqual(byPrice.slice(0, sorted.length).map(shown));
    // "All" shows every category again, still sorted within each.
    await tapOn(phone, { id: 'chip_all' });
    const coffee = menu.filter((i) => i.category === 'coffee').sort((a, b) => a.price - b.price);
    expect((await listedNames(phone))[0]).toBe(shown(coffee[0]));
  });

  it('the plain-menu variant has neither search nor chips nor sort', async () => {
    const phone = await openMenu(5, (p) => {
      const shop = foodShopData(p.world);
      shop.searchEnabled = false;
      shop.filtersEnabled = false;
    });
    const snap = await phone.readTree();
    for (const id of ['search', 'chip_all', 'chip_bakery', 'sort_price']) expect(findIn(snap, { id })).toBeUndefined();
    expect((await listedNames(phone))[0]).toBe(shown(foodShopData(phone.world).menu[0]));
  });
});

describe('FoodShop quantity field', () => {
  it('typed digits set the quantity (1–99); clearing keeps the last value; the stepper still works', async () => {
    const phone = await openMenu(7);
    const item = foodShopData(phone.world).menu[0];
    await tapOn(phone, { text: shown(item) });
    await setText(phone, { id: 'qty' }, '4');
    expect((await find(phone, { id: 'qty' })).node.text).toBe('4');
    await setText(phone, { id: 'qty' }, '');
    // An empty field reports its hint, as Android does; the quantity itself is still 4.
    expect((await find(phone, { id: 'qty' })).node.text).toBe('Quantity');
    await tapOn(phone, { id: 'qty_plus' });
    expect((await find(phone, { id: 'qty' })).node.text).toBe('5');
    await tapOn(phone, { id: 'add_to_cart' });
    expect(phone.world.cart.map((l) => [l.itemId, l.qty])).toEqual([[item.id, 5]]);
    await setText(phone, { id: 'qty' }, '150');
    expect((await find(phone, { id: 'qty' })).node.text).toBe('99');
    await setText(phone, { id: 'qty' }, '0');
    expect((await find(phone, { id: 'qty' })).node.text).toBe('1');
  });
});

describe('FoodShop payment methods', () => {
  async function toPayment(phone: VirtualPhone): Promise<void> {
    const item = foodShopData(phone.world).menu.find((i) => i.category === 'bakery');
    if (!item) throw new Error('no bakery item');
    await tapOn(phone, { id: 'chip_bakery' });
    await scrollTo(phone, 'menu', { text: shown(item) });
    await tapOn(phone, { text: shown(item) });
    await tapOn(phone, { id: 'add_to_cart' });
    await tapOn(phone, { id: 'cart' });
    await tapOn(phone, { id: 'checkout' });
    await tapOn(phone, { id: 'to_payment' });
    expect((await phone.readTree()).foreground.activity).toBe('.PaymentActivity');
  }

  it('a wallet is preselected; choosing the saved card pays with the card', async () => {
    const phone = await openMenu(8);
    await toPayment(phone);
    const shop = foodShopData(phone.world);
    expect((await find(phone, { id: 'method_wechat' })).node.flags.checked).toBe(true);
    expect((await find(phone, { id: 'method_card' })).node.flags.checked).toBe(false);
    expect((await find(phone, { id: 'method_card' })).node.text).toContain(shop.card);
    await tapOn(phone, { id: 'method_card' });
    expect((await find(phone, { id: 'method_wechat' })).node.flags.checked).toBe(false);
    await tapOn(phone, { id: 'pay' });
    expect(phone.world.payments.map((p) => p.method)).toEqual([shop.card]);
  });

  it('paying without choosing uses the preselected wallet, not the card', async () => {
    const phone = await openMenu(8);
    await toPayment(phone);
    await tapOn(phone, { id: 'pay' });
    expect(phone.world.payments.map((p) => p.method)).toEqual([WALLETS[0]]);
  });
});

describe('FoodShop in Chinese', () => {
  it('every page follows the locale: window titles, the product page’s slider and stepper, the cart and checkout', async () => {
    const phone = new VirtualPhone({ seed: 2, locale: 'zh' });
    expect((await phone.launch('com.foodshop')).ok).toBe(true);
    await settle(phone, 800);
    await tapOn(phone, { text: /^稍后/ });
    const latin = async () => {
      const snap = await phone.readTree();
      const app = snap.windows.filter((w) => w.package === 'com.foodshop');
      const words = [
        ...app.map((w) => w.title),
        ...snap.nodes.filter((n) => app.some((w) => w.id === n.window)).flatMap((n) => [n.text, n.desc]),
      ];
      // Prices, sizes in figures and the currency sign are not words; "Pay" or "Sweetness" would be.
      return words.filter((t) => /[A-Za-z]{3,}/.test(t));
    };
    expect(await latin()).toEqual([]);
    await tapOn(phone, { id: 'menu_item' });
    expect((await find(phone, { id: 'sweetness' })).node.desc).toBe('甜度');
    expect(await latin()).toEqual([]);
    await tapOn(phone, { id: 'add_to_cart' });
    await settle(phone, 2500);
    await tapOn(phone, { id: 'cart' });
    expect(await latin()).toEqual([]);
    await tapOn(phone, { text: '去结算' });
    expect(await latin()).toEqual([]);
  });
});
