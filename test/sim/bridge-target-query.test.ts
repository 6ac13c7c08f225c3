import { afterEach, describe, expect, it } from 'vitest';
import type { ActionReceipt } from '../../src/device/protocol/receipt.js';
import { type Harness, startHarness } from './bridge-harness.js';

// A native action's target is found the way the on-device helper finds it (helper/PROTOCOL.md §7
// "Resolving a target"): Android's view-id query, else its text query, else a walk of the tree —
// and the virtual phone charges what each costs (nodeLookup vs treeRead on the phone's clock).
let h: Harness | undefined;
afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

const LOOKUP = 40;
const WALK = 300;
const took = (r: ActionReceipt) => r.timings.ended_at - r.timings.started_at;

async function acme(): Promise<Harness> {
  const harness = await startHarness({ latency: { nodeLookup: LOOKUP, treeRead: WALK, helperInput: 0 } });
  await harness.act({ action: 'launch_app', package: 'com.acme.bank' });
  return harness;
}

describe('bridge: resolving a native target', () => {
  it('set_text by resource id costs two view-id queries (resolve, read back), no tree walk', async () => {
    h = await acme();
    const r = await h.act({ action: 'set_text', selector: { resource_id: 'com.acme.bank:id/email' }, text: 'a@b.c' });
    expect(r.status).toBe('completed');
    expect(r.after?.text).toBe('a@b.c');
    expect(took(r)).toBe(2 * LOOKUP);
    // The same field named by class alone: Android has no query for it, both reads walk the tree.
    const walked = await h.act({
      action: 'set_text',
      selector: { class_name: 'android.widget.EditText' },
      text: 'x',
    });
    // Two edit fields share the class: the walk finds both.
    expect(walked.error?.code).toBe('AMBIGUOUS');
    expect(took(walked)).toBe(WALK);
  });

  it('read_control by text uses the text query but stays exact; a query that finds no match walks before NOT_FOUND', async () => {
    h = await acme();
    const byText = await h.act({ action: 'read_control', selector: { text: 'Sign in to your account' } });
    expect(byText.status).toBe('observed');
    expect(took(byText)).toBe(LOOKUP);
    // Android's text query is a case-insensitive substring match: it finds the node, the selector does not.
    const partial = await h.act({ action: 'read_control', selector: { text: 'sign in' } });
    expect(partial.error?.code).toBe('NOT_FOUND');
    expect(took(partial)).toBe(LOOKUP + WALK);
    const noSuchId = await h.act({ action: 'read_control', selector: { resource_id: 'com.acme.bank:id/nothing' } });
    expect(noSuchId.error?.code).toBe('NOT_FOUND');
    expect(took(noSuchId)).toBe(LOOKUP + WALK);
    // An id with the wrong class: found by the query, rejected by the selector, confirmed on the tree.
    const wrongClass = await h.act({
      action: 'read_control',
      selector: { resource_id: 'com.acme.bank:id/email', class_name: 'android.widget.Button' },
    });
    expect(wrongClass.error?.code).toBe('NOT_FOUND');
  });

  it('a resolution by query keeps every check: a STALE token and occlusion touch nothing', async () => {
    h = await acme();
    const email = { resource_id: 'com.acme.bank:id/email' };
    const read = await h.act({ action: 'read_control', selector: email });
    const token = read.control?.token ?? '';
    await h.act({ action: 'set_text', selector: email, text: 'changed' });
    const stale = await h.act({ action: 'set_text', selector: email, text: 'late', expected_token: token });
    expect(stale.error?.code).toBe('STALE');
    expect(stale.delivery).toBe('not_delivered');
    h.phone.faults.overlay = true;
    const covered = await h.act({ action: 'set_text', selector: email, text: 'covered' });
    expect(covered.error?.code).toBe('OCCLUDED');
    h.phone.faults.overlay = false;
    expect((await h.act({ action: 'read_control', selector: email })).control?.text).toBe('changed');
  });
});
