import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { acmeAccount, formatMoney, seedAcme } from '../../src/testbed/sim/apps/acme-data.js';
import {
  browserData,
  normalizeUrl,
  PROMO_URL,
  pageLines,
  seedBrowser,
} from '../../src/testbed/sim/apps/browser-data.js';
import {
  CONTACT_COUNT,
  normalizePhone,
  seedContacts,
  sortedContacts,
} from '../../src/testbed/sim/apps/contacts-data.js';
import {
  buildMenu,
  CATEGORIES,
  cheapestIn,
  foodShopData,
  searchMenu,
  unitPrice,
} from '../../src/testbed/sim/apps/foodshop-menu.js';
import { messagingData, seedMessages } from '../../src/testbed/sim/apps/messages-data.js';
import { appFactories } from '../../src/testbed/sim/apps/registry.js';
import type { World } from '../../src/testbed/sim/world.js';
import { createWorld } from '../../src/testbed/sim/world-seed.js';

const seeded = seededRandom;
const emptyWorld = (): World => createWorld(0, []);

describe('FoodShop menu', () => {
  it('has 120+ uniquely identified items, deterministic per seed', () => {
    const a = buildMenu(seeded(7));
    expect(a.length).toBeGreaterThanOrEqual(120);
    expect(new Set(a.map((i) => i.id)).size).toBe(a.length);
    expect(buildMenu(seeded(7))).toEqual(a);
    expect(buildMenu(seeded(8)).map((i) => [i.id, i.price])).not.toEqual(a.map((i) => [i.id, i.price]));
  });

  it('has exactly one cheapest item in every category, for many seeds', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const menu = buildMenu(seeded(seed));
      for (const cat of CATEGORIES) {
        const prices = menu.filter((i) => i.category === cat.id).map((i) => i.price);
        const min = Math.min(...prices);
        expect(prices.filter((p) => p === min)).toHaveLength(1);
        expect(cheapestIn(menu, cat.id).price).toBe(min);
      }
    }
  });

  it('finds items by English or Chinese name and prices sizes and the extra shot', () => {
    const menu = buildMenu(seeded(3));
    expect(searchMenu(menu, '美式').map((i) => i.id)).toEqual(
      expect.arrayContaining(['americano', 'orange-americano']),
    );
    expect(searchMenu(menu, 'coconut LATTE').map((i) => i.id)).toEqual(['coconut-latte']);
    const americano = menu.find((i) => i.id === 'americano')!;
    expect(unitPrice(americano, 'Large', true)).toBe(americano.price + 3 + 4);
    expect(unitPrice(americano, 'Small', false)).toBe(americano.price - 2);
    const croissant = menu.find((i) => i.id === 'croissant')!;
    expect(unitPrice(croissant, 'Large', true)).toBe(croissant.price);
  });
});

describe('seeded app data', () => {
  it('seeds 250 unique contacts with 妈妈, deterministic per seed, sorted Chinese-aware', () => {
    const w = emptyWorld();
    seedContacts(w, seeded(11));
    expect(w.contacts).toHaveLength(CONTACT_COUNT);
    expect(new Set(w.contacts.map((c) => c.name)).size).toBe(CONTACT_COUNT);
    expect(w.contacts.find((c) => c.name === '妈妈')?.phone).toMatch(/^1\d{10}$/);
    expect(w.contacts.some((c) => /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(c.name))).toBe(true);
    expect(w.contacts.some((c) => c.name === '张伟')).toBe(false);
    const again = emptyWorld();
    seedContacts(again, seeded(11));
    expect(again.contacts).toEqual(w.contacts);
    const sorted = sortedContacts(w.contacts).map((c) => c.name);
    expect(sorted.indexOf('爸爸')).toBeLessThan(sorted.indexOf('妈妈'));
    expect(normalizePhone('+1 415-555-0101')).toBe('+14155550101');
  });

  it('seeds two codes from one sender, the newer one last, and a newer distractor', () => {
    const w = emptyWorld();
    seedContacts(w, seeded(5));
    seedMessages(w, seeded(5));
    const { otp, distractor } = messagingData(w);
    expect(otp.older).not.toBe(otp.latest);
    const thread = w.threads.find((t) => t.peer === otp.sender)!;
    expect(thread.messages.map((m) => m.body.match(/\d{6}/)?.[0])).toEqual([otp.older, otp.latest]);
    const other = w.threads.find((t) => t.peer === distractor.sender)!;
    expect(other.messages[0].at).toBeGreaterThan(thread.messages[1].at);
    const mom = w.contacts.find((c) => c.name === '妈妈')!;
    expect(w.threads.some((t) => t.peer === mom.phone)).toBe(true);
  });

  it('seeds Acme credentials and balance, and a coupon code only on the promo page', () => {
    const w = emptyWorld();
    seedAcme(w, seeded(9));
    expect(acmeAccount(w).email).toMatch(/@acme\.test$/);
    expect(w.account.balance).toMatch(/^¥[\d,]+\.\d\d$/);
    expect(formatMoney(1234567)).toBe('¥12,345.67');
    seedBrowser(w, seeded(9));
    const code = browserData(w).couponCode;
    expect(pageLines(w, PROMO_URL).some((l) => l.text.includes(code) && (l.size ?? 16) < 10)).toBe(true);
    expect(pageLines(w, 'https://news.example.com/').some((l) => l.text.includes(code))).toBe(false);
    expect(normalizeUrl('shop.example.com/promo')).toBe(PROMO_URL);
  });
});

describe('world seeding through the registry', () => {
  const apps = () => appFactories.map((f) => f());
  const data = (w: World) => JSON.stringify({ ...w, files: undefined });

  it('same seed → the same app data; another seed → different menu, contacts, codes and credentials', () => {
    const a = createWorld(5, apps());
    expect(data(createWorld(5, apps()))).toBe(data(a));
    const b = createWorld(6, apps());
    expect(foodShopData(b).menu.map((i) => i.price)).not.toEqual(foodShopData(a).menu.map((i) => i.price));
    expect(b.contacts.map((c) => c.name)).not.toEqual(a.contacts.map((c) => c.name));
    expect(messagingData(b).otp).not.toEqual(messagingData(a).otp);
    expect(acmeAccount(b)).not.toEqual(acmeAccount(a));
    expect(browserData(b).couponCode).not.toBe(browserData(a).couponCode);
    expect(a.contacts).toHaveLength(CONTACT_COUNT);
    expect(a.threads.some((t) => t.peer === a.contacts.find((c) => c.name === '妈妈')!.phone)).toBe(true);
  });
});
