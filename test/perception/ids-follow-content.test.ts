import { describe, expect, it } from 'vitest';
import { byLabel, foodShopMenu, look, newPhone, type Perceived, tapElement } from './phone.js';

/**
 * Issue 21 item 10: an id stays with its content. After a scroll, an id seen on both screens names
 * the same control (a row cut off at the top that another row replaced gets another id), and a row
 * visible before and after keeps its id.
 */

async function menu(): Promise<{ phone: ReturnType<typeof newPhone>; r: Perceived }> {
  const phone = newPhone();
  return { phone, r: await foodShopMenu(phone) };
}

const labelById = (r: Perceived) =>
  new Map(r.observation.elements.filter((e) => e.actionable).map((e) => [e.id, e.label ?? '']));

describe('ids follow content across a scroll', () => {
  it('no id names another control after the list moves, and rows on both screens keep theirs', async () => {
    const { phone, r: first } = await menu();
    const list = first.observation.elements.find((e) => e.resourceId.endsWith(':id/menu'));
    if (!list) throw new Error('the FoodShop menu has no list');
    const x = Math.round((list.boundsPx.left + list.boundsPx.right) / 2);
    let before = first;
    let kept = 0;
    // Swipes of uneven length leave rows cut off at the top at different heights.
    for (const frac of [0.35, 0.22, 0.41]) {
      const top = list.boundsPx.top + (list.boundsPx.bottom - list.boundsPx.top) * 0.2;
      const y1 = Math.round(top + (list.boundsPx.bottom - list.boundsPx.top) * frac);
      await phone.swipe(x, y1, x, Math.round(top), 600);
      await phone.clock.sleep(800);
      const after = await look(phone, { screenshot: false, previous: before.observation });
      const was = labelById(before);
      for (const [id, label] of labelById(after)) {
        const old = was.get(id);
        if (old === undefined) continue;
        // A cut-off row is named by its clipped title, so compare the start of both names.
        const a = old.slice(0, 6);
        const b = label.slice(0, 6);
        expect(a.startsWith(b) || b.startsWith(a), `[${id}] was "${old}", now "${label}"`).toBe(true);
        kept++;
      }
      before = after;
    }
    expect(kept).toBeGreaterThan(3);
  });

  it('a row seen before and after a scroll keeps its id', async () => {
    const { phone, r: first } = await menu();
    const list = first.observation.elements.find((e) => e.resourceId.endsWith(':id/menu'));
    if (!list) throw new Error('the FoodShop menu has no list');
    const rows = first.observation.elements.filter((e) => e.actionable && e.actionableAncestorId === list.id);
    const last = rows.at(-2) ?? byLabel(first.observation, /./);
    const x = Math.round((list.boundsPx.left + list.boundsPx.right) / 2);
    await phone.swipe(
      x,
      Math.round(list.boundsPx.top + (list.boundsPx.bottom - list.boundsPx.top) * 0.6),
      x,
      Math.round(list.boundsPx.top + (list.boundsPx.bottom - list.boundsPx.top) * 0.3),
      600,
    );
    await phone.clock.sleep(800);
    const after = await look(phone, { screenshot: false, previous: first.observation });
    const same = after.observation.elements.find((e) => e.actionable && e.label === last.label);
    expect(same?.id).toBe(last.id);
  });

  it('a row cut off at the top is named by its clipped title and never shares an id with another cut-off row', async () => {
    // The relay's case: the Bakery list scrolled so that only a sliver of "Bagel" shows at the top
    // (its texts all clipped), two scrolls later "Milk Toast" sits in the same sliver. The model
    // read [X] "Bagel" and later [X] "Milk Toast": an id that meant one row named another.
    const { phone, r: menuScreen } = await menu();
    await tapElement(phone, byLabel(menuScreen.observation, 'Bakery'));
    let r = await look(phone, { screenshot: false, previous: menuScreen.observation });
    const named = new Map<string, string>();
    const item = (label: string) => label.replace(/\s*¥\d+$/, '');
    const record = (p: Perceived) => {
      for (const e of p.observation.elements.filter((x) => x.actionable && x.label)) {
        const was = named.get(e.id);
        expect(was === undefined || was === item(e.label ?? ''), `[${e.id}] was "${was}", now "${e.label}"`).toBe(true);
        named.set(e.id, item(e.label ?? ''));
      }
    };
    record(r);
    // The FoodShop list moves exactly as far as the finger: rows are 134 px apart, so 729 px leaves
    // a 20 px sliver of the fifth row (Bagel) and 536 px more the same sliver of the ninth (Milk Toast).
    const slivers: string[] = [];
    for (const d of [429, 300, 200, 336]) {
      await phone.swipe(540, 2000, 540, 2000 - d, 600);
      await phone.clock.sleep(800);
      r = await look(phone, { screenshot: false, previous: r.observation });
      record(r);
      const top = r.observation.elements.find((e) => e.actionable && e.boundsPx.top === 914 && e.boundsPx.bottom < 940);
      if (top) slivers.push(top.label ?? '');
    }
    expect(slivers).toEqual(['Bagel', 'Milk Toast']);
  });
});
