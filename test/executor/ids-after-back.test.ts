import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { SnapshotPerceiver } from '../../src/executor/observe.js';
import { FOODSHOP_PACKAGE } from '../../src/testbed/sim/apps/foodshop-checkout.js';
import { byLabel, newPhone, open, tapElement } from '../perception/phone.js';

/**
 * Issue 21 item 10 (relay run I): an item's id changed after going back to the FoodShop menu. Ids
 * are carried from the screen before by content; a row carried through a scroll kept its first
 * place's id, and after the product page in between it got its new place's id. The perceiver
 * carries ids from the page's own last read when another page came between.
 */
describe('ids after BACK', () => {
  it('a menu row keeps the id it had before the product page, after a scroll moved it', async () => {
    const phone = newPhone();
    const perceiver = new SnapshotPerceiver();
    let last: Observation | undefined;
    const read = async () => {
      last = await perceiver.perceive(await phone.readTree(), undefined, last);
      return last;
    };
    await open(phone, FOODSHOP_PACKAGE);
    await tapElement(phone, byLabel(await read(), 'Later'));
    await read();
    await phone.swipe(540, 1800, 540, 1000, 300);
    await phone.clock.sleep(1000);
    const menu = await read();
    const row = byLabel(menu, /^Osmanthus Latte/);
    await tapElement(phone, row);
    expect((await read()).app.activity).toBe('.ProductActivity');
    await phone.key('back');
    await phone.clock.sleep(1000);
    const again = await read();
    expect(again.app.activity).toBe('.MenuActivity');
    // Every menu row is where it was, by the same id (before: the rows the scroll had carried changed).
    const rows = (o: Observation) =>
      o.elements.filter((e) => e.resourceId.endsWith('menu_item')).map((e) => `${e.id} ${e.label}`);
    expect(rows(again)).toEqual(rows(menu));
    expect(byLabel(again, /^Osmanthus Latte/).id).toBe(row.id);
  });
});
