import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { decision, drive, makeExecutor, observe, ScriptedConfirmation } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/**
 * Typed fields over plain ADB: a uiautomator dump from the virtual phone writes an empty field's
 * hint as its text and carries no `hint` attribute, so only what the field showed before the agent
 * typed tells an emptied field from a filled one, and a search box from its last query.
 */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig({ agentIme: true });
});
afterAll(async () => {
  await rig?.close();
});

const field = (o: Observation) => {
  const f = o.elements.find((e) => e.flags.editable && !e.flags.password);
  if (!f) throw new Error(`no edit field on ${o.app.package}${o.app.activity}`);
  return f;
};

describe('typed fields over adb', () => {
  it('a message field back to what it showed before typing is empty (its hint), after Send', async () => {
    const ex = makeExecutor(rig.adb, rig.clock, { confirm: new ScriptedConfirmation() });
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.messaging' }]);
    const thread = o.elements.find((e) => e.actionable && (e.label ?? e.text).includes('妈妈'));
    o = await drive(ex, o, [{ tool: 'tap', target_id: thread?.id ?? '' }]);
    const before = field(o);
    // The dump names no hint: the field's text is its hint, and nothing says so.
    expect(before.hint).toBeUndefined();
    const shown = before.text;
    expect(shown).not.toBe('');
    const typed = await ex.run(
      decision(
        { tool: 'type', target_id: before.id, text: 'on my way' },
        { kind: 'element_state', target_id: before.id, state: 'text=on my way' },
      ),
      o,
    );
    expect(typed.ok, typed.error).toBe(true);
    o = typed.post ?? o;
    // The field keeps its name while it holds what was typed.
    expect(field(o).label).toBe(shown);
    const send = o.elements.find((e) => e.actionable && (e.desc === 'Send' || e.label === 'Send'));
    const sent = await ex.run(
      decision(
        { tool: 'tap', target_id: send?.id ?? '' },
        { kind: 'element_state', target_id: field(o).id, state: 'empty' },
      ),
      o,
    );
    expect(sent.error).toBeUndefined();
    expect(sent.ok).toBe(true);
    expect(field(sent.post ?? o).text).toBe(shown);
    await ex.run(decision({ tool: 'home' }), sent.post ?? o);
  });

  it('a search whose text is only in the box it was typed into is not met; the box keeps its name', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.android.contacts' }]);
    const allow = o.elements.find((e) => e.resourceId.endsWith('permission_allow_button'));
    if (allow) o = await drive(ex, o, [{ tool: 'tap', target_id: allow.id }]);
    const box = field(o);
    const name = box.label;
    const typed = await ex.run(
      decision(
        { tool: 'type', target_id: box.id, text: 'Bartholomew Finch' },
        { kind: 'text_appears', text: 'Bartholomew Finch' },
      ),
      o,
    );
    expect(typed.receipt.delivery).toBe('delivered');
    expect(typed.ok).toBe(false);
    expect(typed.error).toMatch(
      /only in the field just typed into: nothing else on the page shows it \(no result matched\?\)/,
    );
    expect(typed.error).toContain(`expect element_state ${box.id} text=Bartholomew Finch`);
    const post = typed.post ?? (await observe(ex));
    expect(field(post).text).toBe('Bartholomew Finch');
    expect(field(post).label).toBe(name);
    await ex.run(decision({ tool: 'home' }), post);
  });

  it('a field nothing was typed into: `empty` is not claimed "filled" when the dump cannot tell', async () => {
    const ex = makeExecutor(rig.adb, rig.clock);
    const o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const f = field(o);
    const r = await ex.run(
      decision({ tool: 'wait', ms: 0 }, { kind: 'element_state', target_id: f.id, state: 'empty' }),
      o,
    );
    expect(r.ok).toBe(false);
    expect(r.error).not.toMatch(/is filled/);
    expect(r.error).toMatch(/typed text, or its hint shown as text \(this screen names no hint\)/);
    await ex.run(decision({ tool: 'home' }), r.post ?? o);
  });
});
