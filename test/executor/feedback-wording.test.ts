import { describe, expect, it } from 'vitest';
import type { Element, Observation } from '../../src/core/types.js';
import { applyAudit, auditAction } from '../../src/executor/action-audit.js';
import { validate } from '../../src/executor/validator.js';
import { REGISTRY } from '../../src/tools/index.js';

/** Feedback that tells the model what happened: a deliberate search is not an unasked edit; a dead tap says why. */

const FLAGS: Element['flags'] = {
  clickable: false,
  longClickable: false,
  editable: false,
  scrollable: false,
  checkable: false,
  checked: false,
  enabled: true,
  focused: false,
  selected: false,
  password: false,
};

function page(elements: Element[]): Observation {
  return {
    seq: 1,
    takenAt: 0,
    screen: { w: 1080, h: 2400, aspect: 0.45, rotation: 0 },
    app: { package: 'p', activity: '.A', title: '' },
    windows: [],
    keyboard: { shown: false },
    elements,
    texts: [],
    pageHash: 'h',
    treeQuality: 'ok',
    visualFirst: false,
  } as Observation;
}

/** A focused search field at the top of the page, holding `text`. */
function searchField(id: string, resourceId: string, text: string): Element {
  return {
    id,
    role: 'EditText',
    className: 'android.widget.EditText',
    text,
    desc: '',
    resourceId,
    bounds: { left: 0, top: 100, right: 1000, bottom: 150 },
    boundsPx: { left: 0, top: 240, right: 1080, bottom: 360 },
    flags: { ...FLAGS, clickable: true, editable: true, focused: true },
    window: 1,
    actionable: true,
    label: 'Search',
    hint: 'Search',
  };
}

describe('text_appears after typing', () => {
  const search = (text: string) => searchField('eeee0005', 'com.android.contacts:id/search', text);
  const row = (text: string): Element => ({
    ...search(''),
    id: 'ffff0006',
    role: 'Text',
    className: 'android.widget.TextView',
    text,
    resourceId: '',
    flags: { ...FLAGS, clickable: true },
    bounds: { left: 0, top: 200, right: 1000, bottom: 260 },
    label: text,
  });
  const action = { tool: 'type' as const, target_id: 'eeee0005', text: 'Zed Quinlan' };
  const expectation = { kind: 'text_appears' as const, text: 'Zed Quinlan' };
  const pre = page([search('')]);

  it('the typed text only in its own field: not met, and the reason says so and how to check the field', () => {
    const post = { ...page([search('Zed Quinlan')]), texts: ['No contacts found'] };
    const v = validate(REGISTRY.table, expectation, pre, post, action, pre.elements[0]);
    expect(v.ok).toBe(false);
    expect(v.reason).toBe(
      '"Zed Quinlan" is only in the field just typed into: nothing else on the page shows it (no result matched?); to check the field itself expect element_state eeee0005 text=Zed Quinlan',
    );
  });

  it('an empty search says so whatever its expectation, on every search (issue 21 round 3)', () => {
    for (const q of ['Zed Quinlan', 'Zed']) {
      const post = { ...page([search(q)]), texts: ['No contacts found'] };
      const typed = { ...action, text: q };
      const v = validate(
        REGISTRY.table,
        { kind: 'element_state', state: `text=${q}` },
        page([search('')]),
        post,
        typed,
        search(''),
      );
      expect(v.ok).toBe(true);
      expect(v.signals).toContain('only_in_typed_field');
    }
    // A form field (no search) holding its text is no empty search.
    const email = { ...search(''), label: 'Email', hint: 'Email', resourceId: 'p:id/email' };
    const filled = page([{ ...email, text: 'a@b.c' }]);
    const v = validate(
      REGISTRY.table,
      { kind: 'element_state', state: 'text=a@b.c' },
      page([email]),
      filled,
      { ...action, text: 'a@b.c' },
      email,
    );
    expect(v.signals).not.toContain('only_in_typed_field');
  });

  it('a result row that shows the text: no such signal', () => {
    const post = page([search('Zed Quinlan'), row('Zed Quinlan')]);
    const v = validate(REGISTRY.table, expectation, pre, post, action, pre.elements[0]);
    expect(v.ok).toBe(true);
    expect(v.signals).toContain('text_present');
  });

  it('a tap (not typing) that fills a field: no such signal', () => {
    const post = page([search('Zed Quinlan')]);
    const tap = { tool: 'tap' as const, target_id: 'ffff0006' };
    const v = validate(REGISTRY.table, expectation, page([search(''), row('x')]), post, tap, row('x'));
    expect(v.ok).toBe(true);
    expect(v.signals).toContain('text_present');
  });
});

describe('feedback wording', () => {
  it('a search typed into a field is not "edited unasked", even when its expectation fails', () => {
    const field = (text: string) => searchField('cccc0003', 'com.files:id/search', text);
    const other: Element = {
      ...field(''),
      id: 'dddd0004',
      role: 'Button',
      className: 'android.widget.Button',
      text: 'Sort',
      label: 'Sort',
      resourceId: '',
      hint: undefined,
      flags: { ...FLAGS, clickable: true },
      bounds: { left: 0, top: 200, right: 300, bottom: 250 },
    };
    const pre = page([field(''), other]);
    const post = page([field('old invoice'), other]);
    const action = { tool: 'type' as const, target_id: 'cccc0003', text: 'old invoice' };
    const expectation = { kind: 'text_appears' as const, text: '旧发票.pdf' };
    const checked = validate(REGISTRY.table, expectation, pre, post, action, pre.elements[0]);
    expect(checked.ok).toBe(false);
    const audit = auditAction({
      tools: REGISTRY.table,
      expect: expectation,
      pre,
      post,
      action,
      acted: pre.elements[0],
      expectationHeld: false,
    });
    expect(audit.changes).toEqual([]);
    expect(applyAudit(checked, audit).reason ?? '').not.toMatch(/unasked|set it back/);
    // A field the action did not aim at that changed is still reported.
    const tap = { tool: 'tap' as const, target_id: 'dddd0004' };
    const sideways = auditAction({
      tools: REGISTRY.table,
      expect: { kind: 'page_changes' },
      pre,
      post,
      action: tap,
      acted: other,
      expectationHeld: false,
    });
    expect(sideways.addendum ?? '').toMatch(/"Search" was edited unasked/);
  });

  it('a tap on something that is not clickable says so and names what to tap instead', () => {
    const row: Element = {
      id: 'aaaa0001',
      role: 'Text',
      className: 'android.widget.TextView',
      text: 'Storage',
      desc: '',
      resourceId: '',
      bounds: { left: 0, top: 300, right: 1000, bottom: 360 },
      boundsPx: { left: 0, top: 720, right: 1080, bottom: 864 },
      flags: FLAGS,
      window: 1,
      actionable: false,
      label: 'Storage',
    };
    const chevron: Element = {
      ...row,
      id: 'bbbb0002',
      role: 'Image',
      text: '',
      desc: 'Open storage',
      label: 'Open storage',
      bounds: { left: 900, top: 310, right: 980, bottom: 350 },
      flags: { ...row.flags, clickable: true },
      actionable: true,
    };
    const obs = page([row, chevron]);
    const out = validate(REGISTRY.table, { kind: 'page_changes' }, obs, obs, { tool: 'tap', target_id: row.id }, row);
    expect(out.ok).toBe(false);
    expect(out.reason).toBe(
      'nothing changed: "Storage" [aaaa0001] is not clickable; tap its clickable child "Open storage" [bbbb0002] instead',
    );
    // A clickable target that did nothing keeps the general explanation.
    const dead = validate(
      REGISTRY.table,
      { kind: 'page_changes' },
      obs,
      obs,
      { tool: 'tap', target_id: chevron.id },
      chevron,
    );
    expect(dead.reason).toMatch(/input dropped, blocked by an overlay/);
  });
});

describe('a failed check says what was seen', () => {
  const slider: Element = {
    ...searchField('aaaa0001', 'com.android.settings:id/brightness', ''),
    role: 'SeekBar',
    className: 'android.widget.SeekBar',
    label: 'Brightness',
    hint: undefined,
    range: { min: 0, max: 255, current: 40 },
    flags: { ...FLAGS, clickable: true },
  };
  const tap = { tool: 'control_action' as const, target_id: slider.id, args: { action: 'set_progress', value: 40 } };
  it('a value= check names the value the control holds', () => {
    const before = page([{ ...slider, range: { min: 0, max: 255, current: 10 } }]);
    const v = validate(
      REGISTRY.table,
      { kind: 'element_state', state: 'value=99' },
      before,
      page([slider]),
      tap,
      slider,
    );
    expect(v.reason).toBe('"Brightness" [aaaa0001] is value=40 (0..255), not value=99');
  });
  it('a switch names its state, a text field its text', () => {
    const sw: Element = { ...slider, id: 'bbbb0002', role: 'Switch', label: 'Wi-Fi', range: undefined };
    const on = { ...sw, flags: { ...sw.flags, checkable: true, checked: true } };
    const off = { ...on, flags: { ...on.flags, checked: false } };
    const v = validate(
      REGISTRY.table,
      { kind: 'element_state', state: 'off' },
      page([off]),
      page([on]),
      { tool: 'tap' },
      off,
    );
    expect(v.reason).toBe('"Wi-Fi" [bbbb0002] is on, not off');
    const field = searchField('cccc0003', 'p:id/q', 'Zed');
    const t = validate(
      REGISTRY.table,
      { kind: 'element_state', state: 'text=Zoe' },
      page([searchField('cccc0003', 'p:id/q', '')]),
      page([field]),
      { tool: 'type', target_id: field.id, text: 'Zoe' },
      field,
    );
    expect(t.reason).toBe('"Search" [cccc0003] is text="Zed", not text=Zoe');
  });
  it('a text that did not appear names the texts alike it that did', () => {
    const cart = (n: number): Element => ({
      ...searchField('dddd0004', 'p:id/cart', ''),
      role: 'Button',
      label: undefined,
      text: `Cart (${n})`,
      flags: { ...FLAGS, clickable: true },
    });
    // A tap on "Cart (0)" that made it "Cart (1)", checked for a text.
    const checked = (text: string) =>
      validate(
        REGISTRY.table,
        { kind: 'text_appears', text },
        page([cart(0)]),
        page([cart(1)]),
        { tool: 'tap' },
        cart(0),
      ).reason;
    expect(checked('Cart (2)')).toBe('"Cart (2)" is not on the page (it shows "Cart (1)")');
    expect(checked('Zebra')).toBe('"Zebra" is not on the page');
  });
});
