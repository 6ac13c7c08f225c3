import { afterEach, describe, expect, it } from 'vitest';
import type { Decision, Observation } from '../../src/core/types.js';
import { applyAudit, auditAction } from '../../src/executor/action-audit.js';
import type { Executor } from '../../src/executor/executor.js';
import { samePage, stateChanges } from '../../src/executor/side-effects.js';
import { validate } from '../../src/executor/validator.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig, decision, el, makeExecutor, observe } from './helpers.js';

/**
 * The audit after the expectation check, on the virtual phone: a wrong switch or stepper touched
 * while the expectation named another element, and a navigating tap that opened the wrong page
 * while "element_gone <intended>" held by accident.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function start(app: string): Promise<{ ex: Executor; obs: Observation }> {
  rig = await bridgeRig({ seed: 1 });
  const ex = makeExecutor(rig.device, rig.clock);
  await rig.phone.launch(app);
  return { ex, obs: await observe(ex) };
}

/** Quick settings (the shade pulled down over Settings): Wi-Fi and Bluetooth tiles side by side. */
async function quickSettings(): Promise<{ ex: Executor; obs: Observation }> {
  const { ex } = await start('Settings');
  await rig!.phone.swipe(540, 20, 540, 1400, 400);
  await rig!.clock.sleep(500);
  return { ex, obs: await observe(ex) };
}

/** Run one decision and audit it the way the agent's validate port does. */
async function act(ex: Executor, pre: Observation, d: Decision) {
  const r = await ex.run(d, pre);
  const post = r.post ?? (await observe(ex, pre));
  const acted = pre.elements.find((e) => e.id === d.action.target_id);
  const checked = validate(REGISTRY.table, d.expect, pre, post, d.action, acted);
  const audit = auditAction({
    tools: REGISTRY.table,
    expect: d.expect,
    pre,
    post,
    action: d.action,
    acted,
    expectationHeld: checked.ok,
  });
  return { checked, audit, post, outcome: applyAudit(checked, audit) };
}

/** FoodShop's product page for the first menu item (update dialog dismissed). */
async function productPage(): Promise<{ ex: Executor; o: Observation }> {
  const { ex, obs } = await start('FoodShop');
  let o = obs;
  const later = await ex.run(decision({ tool: 'tap', target_id: el(o, 'Later').id }), o);
  o = later.post ?? (await observe(ex, o));
  const item = o.elements.find((e) => e.resourceId.endsWith('menu_item'));
  if (!item) throw new Error('no menu item');
  const opened = await ex.run(decision({ tool: 'tap', target_id: item.id }), o);
  return { ex, o: opened.post ?? (await observe(ex, o)) };
}

describe('side effects of a wrong element', () => {
  it('names the switch flipped by mistake and the tap that puts it back', async () => {
    const { ex, obs } = await quickSettings();
    rig!.phone.world.settings.bluetooth = false;
    const pre = await observe(ex, obs);
    const wifi = el(pre, 'Wi-Fi');
    const bt = el(pre, 'Bluetooth');
    // The model meant "Wi-Fi off" but grounded on Bluetooth.
    const r = await act(
      ex,
      pre,
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
    );
    expect(r.checked.ok).toBe(false);
    expect(r.audit.changes).toEqual([expect.objectContaining({ kind: 'checked', id: bt.id, from: 'off', to: 'on' })]);
    expect(r.audit.undo).toEqual([`tap [${bt.id}] expect element_state ${bt.id} off`]);
    expect(r.outcome.reason).toContain('"Bluetooth" off→on');
    expect(rig!.phone.world.settings.bluetooth).toBe(true);
    // Following the undo puts the phone back as it was.
    const u = await act(
      ex,
      r.post,
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: bt.id, state: 'off' }),
    );
    expect(u.outcome.ok).toBe(true);
    expect(rig!.phone.world.settings.bluetooth).toBe(false);
  });

  it('overrules an expectation that held by accident while another switch flipped', async () => {
    const { ex, obs } = await quickSettings();
    const wifi = el(obs, 'Wi-Fi');
    const bt = el(obs, 'Bluetooth');
    expect(wifi.flags.checked).toBe(true);
    // "Wi-Fi on" already holds, so only the audit notices the Bluetooth tap.
    const r = await act(
      ex,
      obs,
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: wifi.id, state: 'on' }),
    );
    expect(r.checked.ok).toBe(true);
    expect(r.outcome.ok).toBe(false);
    expect(r.outcome.signals).toContain('audit_failed');
    expect(r.outcome.reason).toMatch(/hit "Bluetooth".*instead of "Wi-Fi"/);
  });

  it('leaves the intended action alone', async () => {
    const { ex, obs } = await quickSettings();
    const wifi = el(obs, 'Wi-Fi');
    const r = await act(
      ex,
      obs,
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
    );
    expect(r.outcome).toMatchObject({ ok: true });
    expect(r.audit).toEqual({ changes: [], undo: [] });
  });

  it('names a quantity bumped by a stray "+" and presses "−" to undo it', async () => {
    const { ex, o } = await productPage();
    const plus = el(o, '+');
    const ice = o.elements.find((e) => /^Ice/.test(e.label ?? e.text));
    if (!ice) throw new Error('no Ice switch');
    const r = await act(
      ex,
      o,
      decision({ tool: 'tap', target_id: plus.id }, { kind: 'element_state', target_id: ice.id, state: 'on' }),
    );
    expect(r.checked.ok).toBe(false);
    const qty = r.audit.changes.find((c) => c.kind === 'count');
    expect(qty).toMatchObject({ from: '1', to: '2' });
    const minus = el(o, '−');
    expect(r.audit.undo[0]).toMatch(new RegExp(`^tap \\[${minus.id}\\] expect `));
    const u = await act(ex, r.post, decision({ tool: 'tap', target_id: minus.id }, { kind: 'page_changes' }));
    // Against the page before the stray "+", the counter is the same again.
    expect(samePage(o, u.post)).toBe(true);
    expect(stateChanges(o, u.post).filter((c) => c.kind === 'count')).toEqual([]);
  });
  it('names a field focused by mistake and undoes it with back', async () => {
    const { ex, o } = await productPage();
    const qty = o.elements.find((e) => e.flags.editable);
    const shot = o.elements.find((e) => /^Extra shot/.test(e.label ?? e.text));
    if (!qty || !shot) throw new Error('no quantity field / Extra shot');
    const r = await act(
      ex,
      o,
      decision({ tool: 'tap', target_id: qty.id }, { kind: 'element_state', target_id: shot.id, state: 'on' }),
    );
    expect(r.post.keyboard.shown).toBe(true);
    expect(r.outcome.ok).toBe(false);
    expect(r.audit.undo).toEqual(['back expect page_changes']);
    const b = await act(ex, r.post, decision({ tool: 'back' }, { kind: 'page_changes' }));
    expect(b.post.keyboard.shown).toBe(false);
    expect(b.post.elements.some((e) => e.id === shot.id)).toBe(true);
  });

  it('names a cart count raised by a stray "Add to cart"', async () => {
    const { ex, o } = await productPage();
    const add = o.elements.find((e) => /^Add to cart/.test(e.text));
    const ice = o.elements.find((e) => /^Ice/.test(e.label ?? e.text));
    if (!add || !ice) throw new Error('no Add to cart / Ice');
    const r = await act(
      ex,
      o,
      decision({ tool: 'tap', target_id: add.id }, { kind: 'element_state', target_id: ice.id, state: 'on' }),
    );
    expect(r.checked.ok).toBe(false);
    expect(r.audit.changes).toContainEqual(expect.objectContaining({ kind: 'badge', from: '0', to: '1' }));
    expect(r.outcome.reason).toMatch(/instead of "Ice.*changed .*0→1 unasked/);
    expect(rig!.phone.world.cart).toHaveLength(1);
  });
});

describe('toasts are not page changes', () => {
  it('does not count a toast fading out as the page changing', async () => {
    const { ex, o } = await productPage();
    const add = o.elements.find((e) => /^Add to cart/.test(e.text));
    if (!add) throw new Error('no Add to cart');
    // Adding to the cart is a change (the cart count), with a toast on top.
    const added = await act(ex, o, decision({ tool: 'tap', target_id: add.id }, { kind: 'page_changes' }));
    expect(added.outcome.ok).toBe(true);
    expect(added.post.windows.some((w) => w.type === 'toast')).toBe(true);
    await rig!.clock.sleep(6_000);
    const later = await observe(ex, added.post);
    expect(later.windows.some((w) => w.type === 'toast')).toBe(false);
    expect(later.pageHash).not.toBe(added.post.pageHash);
    // A tap that did nothing while the toast faded: neither "a new page" nor "something changed".
    const slider = el(later, 'Sweetness');
    const noop = decision({ tool: 'tap', target_id: slider.id }, { kind: 'page_changes' });
    const v = validate(REGISTRY.table, noop.expect, added.post, later, noop.action, slider);
    expect(v.ok).toBe(false);
    expect(v.reason).toMatch(/only a toast|nothing on the page changed/);
    expect(
      validate(REGISTRY.table, { kind: 'element_gone', target_id: slider.id }, added.post, later, noop.action, slider)
        .reason,
    ).toMatch(/nothing on the page changed/);
  });
});

describe('a committing control pressed by mistake', () => {
  it('reports "Save" hit instead of a day toggle: it left the editor and its effect is elsewhere', async () => {
    const { ex, obs } = await start('Clock');
    const opened = await ex.run(decision({ tool: 'tap', target_id: el(obs, 'Add alarm').id }), obs);
    let editor = opened.post ?? (await observe(ex, obs));
    for (const [field, text] of [
      ['Hour', '07'],
      ['Minute', '30'],
    ] as const) {
      const t = await ex.run(
        decision(
          { tool: 'type', target_id: el(editor, field).id, text },
          { kind: 'element_state', target_id: el(editor, field).id, state: `text=${text}` },
        ),
        editor,
      );
      editor = t.post ?? (await observe(ex, editor));
    }
    const fri = el(editor, 'Fri');
    const save = el(editor, 'Save');
    const before = rig!.phone.world.alarms.length;
    const r = await act(
      ex,
      editor,
      decision({ tool: 'tap', target_id: save.id }, { kind: 'element_state', target_id: fri.id, state: 'on' }),
    );
    expect(r.checked.ok).toBe(false);
    expect(rig!.phone.world.alarms.length).toBe(before + 1);
    expect(r.audit.changes).toEqual([expect.objectContaining({ kind: 'pressed', id: save.id, label: 'Save' })]);
    expect(r.outcome.reason).toMatch(/hit "Save".*instead of "Fri".*left the page/);
  });
});

describe('where a navigating tap landed', () => {
  it('fails a tap on "Help" whose expectation "Promo gone" held because the page went away', async () => {
    const { ex, obs } = await start('Browser');
    const help = el(obs, 'Help · 帮助 — https://docs.example.com/help');
    const promo = obs.elements.find((e) => (e.label ?? e.text).startsWith('Promo'));
    if (!promo) throw new Error('no Promo bookmark');
    const r = await act(
      ex,
      obs,
      decision({ tool: 'tap', target_id: help.id }, { kind: 'element_gone', target_id: promo.id }),
    );
    expect(r.checked.ok).toBe(true);
    expect(r.outcome.ok).toBe(false);
    expect(r.outcome.reason).toMatch(/landed on "Help.*not on "Promo.*wrong page/);
  });

  it('accepts the tap on the intended bookmark, and a tap whose expectation names what was tapped', async () => {
    const { ex, obs } = await start('Browser');
    const promo = obs.elements.find((e) => (e.label ?? e.text).startsWith('Promo'));
    if (!promo) throw new Error('no Promo bookmark');
    const r = await act(
      ex,
      obs,
      decision({ tool: 'tap', target_id: promo.id }, { kind: 'element_gone', target_id: promo.id }),
    );
    expect(r.outcome.ok).toBe(true);
    await rig!.phone.launch('Browser');
    await rig!.phone.key('back');
    await rig!.phone.launch('Browser');
    const again = await observe(ex, r.post);
    const help = again.elements.find((e) => (e.label ?? e.text).startsWith('Help'));
    if (!help) throw new Error(`no Help bookmark on ${again.app.activity}`);
    const h = await act(
      ex,
      again,
      decision({ tool: 'tap', target_id: help.id }, { kind: 'element_gone', target_id: help.id }),
    );
    expect(h.outcome.ok).toBe(true);
  });
});

describe('the audit of a burst', () => {
  // Relay (Flash, SET-04): a burst's part clicked "Dark theme" under the model's expect page_changes;
  // the expect failed and the audit called the switch's flip unasked and told the model to undo it.
  it("a switch a member clicked is the burst's own change, not an unasked one", async () => {
    const { ex, obs } = await start('Settings');
    const open = await ex.run(decision({ tool: 'tap', target_id: el(obs, 'Display').id }), obs);
    const display = open.post ?? (await observe(ex, obs));
    const dark = el(display, 'Dark theme');
    const burst = decision({
      tool: 'action_sequence',
      args: {
        actions: [
          { tool: 'control_action', target_id: dark.id, args: { action: 'click' } },
          { tool: 'wait_until', args: { condition: 'stable' } },
        ],
      },
    });
    const { checked, audit } = await act(ex, display, burst);
    expect(checked.ok).toBe(false); // the page did not change: the expect failed
    expect(audit.changes.map((c) => c.label)).not.toContain('Dark theme');
    expect(audit.addendum ?? '').not.toMatch(/unasked/);
  });
});
