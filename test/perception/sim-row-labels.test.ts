import { describe, expect, it } from 'vitest';
import { displayName, foodShopData } from '../../src/testbed/sim/apps/foodshop-menu.js';
import { noteByTitle } from '../../src/testbed/sim/apps/notes-data.js';
import { byLabel, compactLines, look, lookXml, newPhone, open, tapElement } from './phone.js';

/** How rows are named on the virtual phone's screens: cut-off rows, title-over-body rows, cart lines. */
describe('row labels on the virtual phone', () => {
  it('a row cut off at the screen edge is named by its clipped title, not left as a bare #id', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    const json = await look(phone, { screenshot: false });
    const safety = json.observation.elements.find((e) => e.resourceId.endsWith('safety'));
    expect(safety?.label).toBe('Safety & emergency');
    expect(compactLines(json.compact).find((l) => l.includes('safety'))).toBeUndefined();
    // uiautomator leaves clipped text out of its dump: the id, in words, names the row there.
    const xml = await lookXml(phone);
    const viaXml = xml.observation.elements.find((e) => e.resourceId.endsWith('safety'));
    expect(viaXml?.label).toBe('Safety');
    // Both channels place it alike; its id is the clipped title's where that
    // is seen, so another row cut off in the same sliver never shares it (issue 21 item 10).
    expect(viaXml?.place ?? viaXml?.id).toBe(safety?.place);
    expect(viaXml?.id).not.toBe(safety?.id);
  });

  it('a note row shows its title and body apart, the body exactly as written', async () => {
    const phone = newPhone();
    const gate = noteByTitle(phone.world, 'Gate code');
    if (!gate) throw new Error('the seeded notes have no "Gate code"');
    gate.body = 'Gate code 7351#, the side door sticks.';
    gate.at = Date.UTC(2030, 0, 1);
    await open(phone, 'com.android.notes');
    const { observation, compact } = await look(phone, { screenshot: false });
    const row = observation.elements.find((e) => e.resourceId.endsWith('note_row') && /^Gate code/.test(e.label ?? ''));
    // The body repeats the title, and is shown whole: it is the note's text (NOTE-01 sends it).
    expect(row?.label).toBe('Gate code — Gate code 7351#, the side door sticks.');
    expect(compact).toContain('"Gate code — Gate code 7351#');
  });

  it('every cart line shows its quantity, also when two lines have the same one', async () => {
    const phone = newPhone();
    const [a, b] = foodShopData(phone.world).menu;
    for (const item of [a, b])
      phone.world.cart.push({ itemId: item.id, name: displayName(item), options: [], qty: 1, unitPrice: 18 });
    await open(phone, 'com.foodshop/.CartActivity');
    await tapElement(phone, byLabel((await look(phone, { screenshot: false })).observation, 'Later'));
    const { compact } = await look(phone, { screenshot: false });
    const text = compact.split('\n').find((l) => l.startsWith('text:')) ?? '';
    // Name, quantity, line total — for each line, in reading order.
    expect(text).toMatch(/"[^"]+" "1" #line_qty "¥18" #line_total "[^"]+" "1" #line_qty "¥18" #line_total/);
  });
});
