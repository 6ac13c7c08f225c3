import { CATEGORIES, cheapestIn, displayName, foodShopData } from '../../src/testbed/sim/apps/foodshop-menu.js';
import { stringAnswer } from '../answers.js';
import type { TaskDef } from '../types.js';

/** Categories whose name reads as a noun in the question ("Which tea …"). */
const ASKED = CATEGORIES.filter((c) => ['coffee', 'tea', 'juice', 'dessert'].includes(c.id));

/** The answer without a price or quotes, lower-cased, single-spaced. */
function bareName(answer: string): string {
  return answer
    .replace(/[¥￥]\s*\d+(?:\.\d+)?/g, '')
    .replace(/["'“”「」]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。]$/, '')
    .toLowerCase();
}

/**
 * SHOP-04: which item of a category is cheapest (a question; no cart change). The cheapest item is
 * unique, and setup moves it off the top of its category so "the first one listed" is wrong unless
 * the list is sorted by price (or every price compared).
 */
export const SHOP_04: TaskDef = {
  id: 'SHOP-04',
  category: 'shop',
  tags: ['shop', 'question', 'compare', 'en'],
  instruction: 'Which {category} on the menu is cheapest? Name only.',
  params: (r) => {
    r(); // neighbouring seeds start alike: skip the first draw for more variety
    return { category: (ASKED[Math.floor(r() * ASKED.length)] ?? ASKED[0])?.en.toLowerCase() ?? 'coffee' };
  },
  setup: (phone, p) => {
    const { menu } = foodShopData(phone.world);
    const cat = CATEGORIES.find((c) => c.en.toLowerCase() === p.category);
    if (!cat) throw new Error(`SHOP-04: unknown category ${p.category}`);
    const first = menu.findIndex((i) => i.category === cat.id);
    const cheapest = menu.indexOf(cheapestIn(menu, cat.id));
    // Swap the cheapest with the item three rows below the category's top (never the first).
    if (cheapest <= first + 1) {
      const to = first + 3;
      [menu[cheapest], menu[to]] = [menu[to] as (typeof menu)[number], menu[cheapest] as (typeof menu)[number]];
    }
  },
  check: (w, run, p) => {
    const { menu } = foodShopData(w);
    const cat = CATEGORIES.find((c) => c.en.toLowerCase() === p.category);
    if (!cat) return { ok: false, reason: `unknown category ${p.category}` };
    const want = cheapestIn(menu, cat.id);
    const got = bareName(run.answer ?? '');
    const names = (i: (typeof menu)[number]) => [i.en, i.zh, displayName(i)];
    const others = menu.filter((i) => i !== want).flatMap(names);
    const right = names(want).some((n) => stringAnswer(got, n, others));
    return right && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `answer=${run.answer} (want ${displayName(want)} ¥${want.price}), status=${run.status}` };
  },
  // Only FoodShop's own record of the last product page opened may change (looking is allowed).
  mayChange: ['foodshop'],
  optimalSteps: 5,
  intents: [
    'launch "FoodShop"',
    'toggle "{category}" on',
    'toggle "Lowest price first" on',
    'read "Lowest price first"',
  ],
};
