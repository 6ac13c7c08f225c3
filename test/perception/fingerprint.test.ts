import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { assignOrdinals, fingerprint, pageHash, stripDigits } from '../../src/perception/fingerprint.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

function observe(kids: N[], previous?: Observation): Observation {
  const r = parseUiautomatorXml(dumpXml([appWindow(kids)]));
  if (!r.ok) throw new Error(r.message);
  return observeTree(r.tree, { previous }).observation;
}

function idOf(o: Observation, label: string): string {
  const e = o.elements.find((x) => x.label === label || x.text === label);
  if (!e) throw new Error(`no element ${label}: ${o.elements.map((x) => x.label).join(', ')}`);
  return e.id;
}

const row = (text: string, b: N['b'], extra: Partial<N> = {}): N => ({
  cls: 'android.widget.TextView',
  id: 'time',
  text,
  b,
  clickable: true,
  ...extra,
});

describe('fingerprint', () => {
  it('is 8 hex digits of resource id | class | text | desc | rounded bounds', () => {
    const fp = fingerprint({
      resourceId: 'a:id/x',
      role: 'Button',
      text: 'OK',
      desc: '',
      bounds: { left: 100, top: 200, right: 300, bottom: 260 },
    });
    expect(fp).toMatch(/^[0-9a-f]{8}$/);
  });

  it('strips digits of every script', () => {
    expect(stripDigits('3 分钟前')).toBe(' 分钟前');
    expect(stripDigits('¥129.00')).toBe('¥.');
    expect(stripDigits('٣ دقائق')).toBe(' دقائق');
  });

  it('keeps identity when "3 分钟前" becomes "4 分钟前"', () => {
    const a = observe([row('3 分钟前', [40, 400, 1040, 520])]);
    const b = observe([row('4 分钟前', [40, 400, 1040, 520])]);
    expect(idOf(b, '4 分钟前')).toBe(idOf(a, '3 分钟前'));
    expect(b.pageHash).toBe(a.pageHash);
  });

  it('keeps identity when a price changes', () => {
    const a = observe([row('Latte ¥129.00', [40, 400, 1040, 520], { id: 'price' })]);
    const b = observe([row('Latte ¥99.50', [40, 400, 1040, 520], { id: 'price' })]);
    expect(idOf(b, 'Latte ¥99.50')).toBe(idOf(a, 'Latte ¥129.00'));
  });

  it('absorbs ±2 px of jitter', () => {
    const base = observe([row('Continue', [100, 1000, 980, 1120])]);
    for (const d of [-2, -1, 1, 2]) {
      const j = observe([row('Continue', [100 + d, 1000 - d, 980 + d, 1120 + d])]);
      expect(idOf(j, 'Continue')).toBe(idOf(base, 'Continue'));
    }
  });

  it('keeps the id across a rounding edge when the previous observation is given', () => {
    // top 1007 px → 419.6 → 420 (key 420); top 1020 px → 425 → key 430: 13 px apart, on both sides of an edge.
    const a = observe([row('Next', [100, 1007, 980, 1200])]);
    const crossed = [row('Next', [100, 1020, 980, 1200])];
    expect(idOf(observe(crossed), 'Next')).not.toBe(idOf(a, 'Next'));
    expect(idOf(observe(crossed, a), 'Next')).toBe(idOf(a, 'Next'));
    // Far away, without the previous observation, it is another element.
    expect(idOf(observe([row('Next', [100, 1300, 980, 1500])]), 'Next')).not.toBe(idOf(a, 'Next'));
  });

  it('carries ids by content: a row keeps its id after a scroll or when the keyboard pushes it', () => {
    const list = (dy: number) => [
      row('Wi-Fi', [40, 400 + dy, 1040, 520 + dy]),
      row('Bluetooth', [40, 520 + dy, 1040, 640 + dy]),
      row('Display', [40, 640 + dy, 1040, 760 + dy]),
    ];
    const a = observe(list(0));
    const b = observe(list(-300), a);
    for (const l of ['Wi-Fi', 'Bluetooth', 'Display']) expect(idOf(b, l)).toBe(idOf(a, l));
    // The page hash is about what is where: the scroll is a page change all the same.
    expect(b.pageHash).not.toBe(a.pageHash);
    // Identical rows are ambiguous: they keep positional ids (with ordinals), never a guess.
    const twins = observe([row('Buy', [40, 400, 1040, 520]), row('Buy', [40, 600, 1040, 720])]);
    const moved = observe([row('Buy', [40, 100, 1040, 220]), row('Buy', [40, 300, 1040, 420])], twins);
    expect(new Set(moved.elements.map((e) => e.id)).size).toBe(2);
    expect(moved.elements.map((e) => e.id)).not.toContain(twins.elements[0]?.id);
  });

  it("a row's menu button follows its row, not its position", () => {
    const fileRow = (name: string, top: number): N => ({
      cls: 'android.widget.LinearLayout',
      b: [0, top, 1080, top + 150],
      kids: [
        { cls: 'android.widget.TextView', text: name, b: [40, top + 20, 800, top + 130] },
        {
          cls: 'android.widget.ImageButton',
          desc: 'More options',
          b: [900, top + 30, 1040, top + 120],
          clickable: true,
        },
      ],
    });
    const menuOf = (o: Observation, name: string) => {
      const label = o.elements.find((e) => e.text === name);
      const menus = o.elements.filter((e) => e.desc === 'More options');
      const cy = label ? (label.bounds.top + label.bounds.bottom) / 2 : -1;
      return menus.find((m) => m.bounds.top <= cy && m.bounds.bottom >= cy)?.id;
    };
    const all = observe([fileRow('a.pdf', 400), fileRow('b.pdf', 550), fileRow('c.pdf', 700)]);
    // After a search only c.pdf is left, in the first row.
    const searched = observe([fileRow('c.pdf', 400), fileRow('a.pdf', 550)], all);
    expect(menuOf(searched, 'c.pdf')).toBe(menuOf(all, 'c.pdf'));
    expect(menuOf(searched, 'c.pdf')).not.toBe(menuOf(all, 'a.pdf'));
    // Without a previous screen the first row's menu is still not the old first row's menu.
    const fresh = observe([fileRow('c.pdf', 400), fileRow('a.pdf', 550)]);
    expect(menuOf(fresh, 'c.pdf')).not.toBe(menuOf(all, 'a.pdf'));
  });

  it('changes when the element really changes', () => {
    const a = observe([row('Wi-Fi', [40, 400, 1040, 520])]);
    expect(idOf(observe([row('Bluetooth', [40, 400, 1040, 520])]), 'Bluetooth')).not.toBe(idOf(a, 'Wi-Fi'));
    expect(idOf(observe([row('Wi-Fi', [40, 400, 1040, 520], { id: 'other' })]), 'Wi-Fi')).not.toBe(idOf(a, 'Wi-Fi'));
    expect(idOf(observe([row('Wi-Fi', [40, 900, 1040, 1020])]), 'Wi-Fi')).not.toBe(idOf(a, 'Wi-Fi'));
    expect(idOf(observe([row('Wi-Fi', [40, 400, 1040, 520], { cls: 'android.widget.Button' })]), 'Wi-Fi')).not.toBe(
      idOf(a, 'Wi-Fi'),
    );
  });

  it('gives colliding fingerprints stable ordinal suffixes in document order', () => {
    expect(assignOrdinals(['aa', 'bb', 'aa', 'aa'])).toEqual(['aa', 'bb', 'aa~1', 'aa~2']);
    // Two identical overlapping buttons (a real pattern: duplicated accessibility nodes).
    const twins = [row('Buy', [40, 400, 1040, 520]), row('Buy', [40, 400, 1040, 520])];
    const o = observe([{ b: [0, 300, 1080, 600], kids: twins }]);
    const ids = o.elements.filter((e) => e.actionable).map((e) => e.id);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(`${ids[0]}~1`);
    const again = observe([{ b: [0, 300, 1080, 600], kids: twins }]);
    expect(again.elements.filter((e) => e.actionable).map((e) => e.id)).toEqual(ids);
  });

  it('page hash covers package, activity/title and the sorted fingerprints', () => {
    expect(pageHash('p', 'A', ['b', 'a'])).toBe(pageHash('p', 'A', ['a', 'b']));
    expect(pageHash('p', 'A', ['a'])).not.toBe(pageHash('p', 'B', ['a']));
    expect(pageHash('p', 'A', ['a'])).not.toBe(pageHash('q', 'A', ['a']));
    const a = observe([row('Wi-Fi', [40, 400, 1040, 520])]);
    const b = observe([row('Wi-Fi', [40, 400, 1040, 520]), row('Bluetooth', [40, 600, 1040, 720])]);
    expect(a.pageHash).not.toBe(b.pageHash);
  });

  it('an edit field keeps its id while text is typed into it', () => {
    const field = (text: string): N => ({
      cls: 'android.widget.EditText',
      id: 'email',
      hint: 'Email',
      text,
      b: [40, 400, 1040, 520],
      clickable: true,
    });
    const a = observe([field('Email')]);
    const b = observe([field('a@b.c')]);
    expect(b.elements[0].id).toBe(a.elements[0].id);
  });
});
