import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { seedDownloads } from '../../src/testbed/sim/apps/files-data.js';
import { setText, settle, tapOn } from '../sim/helpers.js';
import { bridgeRig, makeExecutor, observe } from './helpers.js';

/**
 * A row's "⋮" has no text of its own: its id follows its row's file name, so after a search
 * leaves one file where another file's row was, that menu gets a new id — a model that remembered
 * the id of readme.txt's menu never opens 旧发票.pdf's with it (the relay run saw exactly that).
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const FILES = 'com.android.documentsui';
const menus = (o: Observation) => o.elements.filter((e) => e.resourceId.endsWith(':id/more_options'));

describe('ids of row menus', () => {
  it('the menu of the row now at the top is not the id of the menu that was there', async () => {
    rig = await bridgeRig({ seed: 5 });
    seedDownloads(rig.phone.world);
    await rig.phone.launch(FILES);
    await settle(rig.phone);
    await tapOn(rig.phone, { id: 'downloads' });
    const ex = makeExecutor(rig.device, rig.clock);
    const before = await observe(ex);
    const first = menus(before)[0];
    expect(first).toBeDefined();
    await setText(rig.phone, { id: 'search' }, 'ticket_final.pdf');
    const after = await observe(ex, before);
    const only = menus(after);
    expect(only).toHaveLength(1);
    expect(only[0]?.id).not.toBe(first?.id);
    // and it stays put while the screen does: observed again, the same id
    expect(menus(await observe(ex, after))[0]?.id).toBe(only[0]?.id);
  });
});
