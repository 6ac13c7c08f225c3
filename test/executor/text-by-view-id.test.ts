import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bridgeRig, el, makeExecutor, observe } from './helpers.js';

/**
 * Typing into a field that has a resource id: the executor names the field by it — also once it is
 * focused — so the helper resolves and reads it back with Android's view-id query (PROTOCOL §7
 * "Resolving a target") instead of walking the tree twice. Counted on the phone: tree walks
 * (readTree, which also serves the host's snapshots) and queries.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>>;
const calls = { walks: 0, queries: 0 };
beforeEach(async () => {
  rig = await bridgeRig();
  const read = rig.phone.readTree.bind(rig.phone);
  const query = rig.phone.queryNodes.bind(rig.phone);
  rig.phone.readTree = () => {
    calls.walks++;
    return read();
  };
  rig.phone.queryNodes = (q) => {
    calls.queries++;
    return query(q);
  };
});
afterEach(async () => {
  await rig.close();
});

describe('typing into a field with a resource id', () => {
  it('costs two view-id queries on the phone and one read-back tree on the host, focused or not', async () => {
    const ex = makeExecutor(rig.device, rig.clock);
    await rig.phone.launch('com.acme.bank');
    let obs = await observe(ex);
    for (const text of ['first@acme.test', 'second@acme.test']) {
      const field = el(obs, 'Email');
      expect(field.resourceId).toBe('com.acme.bank:id/email');
      calls.walks = 0;
      calls.queries = 0;
      const r = await ex.run(
        {
          thought: 't',
          action: { tool: 'type', target_id: field.id, text },
          expect: { kind: 'element_state', target_id: field.id, state: `text=${text}` },
        },
        obs,
        { verification: 'none' },
      );
      expect(r.ok).toBe(true);
      expect(calls).toEqual({ walks: 1, queries: 2 });
      if (!r.post) throw new Error('no read-back observation');
      expect(el(r.post, 'Email').text).toBe(text);
      // Focus the field for the second round: a focused field is still named by its id.
      const tap = await ex.run(
        { thought: 't', action: { tool: 'tap', target_id: field.id }, expect: { kind: 'keyboard_shown' } },
        r.post,
      );
      expect(tap.ok).toBe(true);
      obs = await observe(ex);
      expect(el(obs, 'Email').flags.focused).toBe(true);
    }
  });
});
