import { describe, expect, it } from 'vitest';
import { shortestPrefixes } from '../../src/core/element-ref.js';
import { rectCenter } from '../../src/core/geometry.js';
import type { Observation } from '../../src/core/types.js';
import { compact, delta } from '../../src/perception/api.js';
import { headerLine, resourceTail, textLine } from '../../src/perception/compact.js';
import { diffObservations, isEmptyDelta } from '../../src/perception/delta.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { resolveElementId } from '../../src/perception/resolve.js';
import { fingerprintOverlap, ScrollEndTracker } from '../../src/perception/scroll-end.js';
import { byLabel, foodShopMenu, look, newPhone, open } from './phone.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

function observe(kids: N[]): Observation {
  const r = parseUiautomatorXml(dumpXml([appWindow(kids, 'com.foodshop')]));
  if (!r.ok) throw new Error(r.message);
  return observeTree(r.tree).observation;
}

describe('compact view', () => {
  it('has the DESIGN §3 header and one line per control, without XML or false booleans', async () => {
    const phone = newPhone();
    await open(phone, 'com.acme.bank');
    const r = await look(phone);
    const lines = r.compact.split('\n');
    expect(lines[0]).toBe('app com.acme.bank/.LoginActivity "Acme" · 1080x2400 (0.45)');
    expect(r.compact).not.toMatch(/<node|false|true|android\.widget|bounds=/);
    for (const l of lines.slice(1, -1)) {
      expect(l).toMatch(
        /^\[[0-9a-f]{8}(~\d+)?\]( (tap|fill|toggle|slide|scroll|long))?( [A-Z][A-Za-z]+)?( "[^"]*")?.* \d{1,4},\d{1,4}$/,
      );
    }
    expect(lines.at(-1)).toMatch(/^text: "/);
    // The centre shown is the element's normalized centre.
    const login = byLabel(r.observation, /^Log in/);
    const c = rectCenter(login.bounds);
    expect(r.compact).toContain(`[${login.id}] Button "Log in" ${Math.round(c.x)},${Math.round(c.y)}`);
  });

  it('shows resource-id tails only when they add something', () => {
    const o = observe([
      { cls: 'android.widget.Button', text: 'Continue', id: 'continue', clickable: true, b: [0, 400, 1080, 500] },
      { cls: 'android.widget.Button', text: 'OK', id: 'btn_submit_order', clickable: true, b: [0, 600, 1080, 700] },
      { cls: 'android.widget.Button', text: 'Go', id: 'a', clickable: true, b: [0, 800, 1080, 900] },
    ]);
    const text = compact(o);
    expect(text).toMatch(/\] Button "Continue" 500,188$/m);
    expect(text).toMatch(/\] Button "OK" #btn_submit_order 500,271$/m);
    expect(text).toMatch(/\] Button "Go" 500,354$/m);
    expect(resourceTail('com.x:id/y')).toBe('y');
  });

  it('summarizes and truncates non-actionable text', () => {
    const long = 'word '.repeat(80).trim();
    expect(textLine([long, 'b', 'b'], { maxTextItem: 10, maxTextLine: 320 })).toBe('text: "word word…" "b"');
    // A quiet page keeps its sentence whole: a cut would cost the model a read.
    const sentence = 'Nothing to configure here on the virtual phone.';
    expect(textLine([sentence, 'b'], { maxTextItem: 40, maxTextLine: 320 })).toBe(`text: "${sentence}" "b"`);
    const many = Array.from({ length: 100 }, (_, i) => `item ${i}`);
    const line = textLine(many, { maxTextItem: 40, maxTextLine: 100 })!;
    expect(line.length).toBeLessThan(130);
    expect(line.endsWith('" …')).toBe(true);
  });

  it('short ids are unique prefixes and resolve back to the element', () => {
    const ids = ['a1b2c3d4', 'a1b2ffff', '99887766', '99887766~1', '12345678'];
    // Unique among every id of the screen, shown or not (a label's id would make a prefix ambiguous).
    const m = shortestPrefixes(ids.slice(0, 4), [...ids, '123abcde']);
    expect(m.get('a1b2c3d4')).toBe('a1b2c');
    expect(m.get('99887766')).toBe('998');
    expect(m.get('99887766~1')).toBe('998~1');
    expect(shortestPrefixes(['12345678'], ids).get('12345678')).toBe('123');
    expect(shortestPrefixes(['12345678'], [...ids, '123abcde']).get('12345678')).toBe('1234');
    const o = observe([
      { cls: 'android.widget.Button', text: 'Pay', clickable: true, b: [0, 400, 1080, 500] },
      { cls: 'android.widget.Button', text: 'Cancel', clickable: true, b: [0, 600, 1080, 700] },
    ]);
    const pay = o.elements.find((e) => e.label === 'Pay')!;
    expect(resolveElementId(o, pay.id)).toMatchObject({ ok: true, element: { id: pay.id } });
    expect(resolveElementId(o, `[${pay.id.slice(0, 5)}]`)).toMatchObject({ ok: true, element: { id: pay.id } });
    expect(resolveElementId(o, 'deadbeef')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(resolveElementId(o, 'Pay')).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    expect(resolveElementId(o, `[${pay.id.slice(0, 3)}]`)).toMatchObject({ ok: true, element: { id: pay.id } });
    expect(headerLine(o)).toMatch(/^app com\.foodshop · 1080x2400 \(0\.45\)$/);
    expect(headerLine(o, { screenSize: false })).toBe('app com.foodshop');
  });
});

describe('state delta', () => {
  it('lists added, removed and changed controls and text', () => {
    const a = observe([
      {
        cls: 'android.widget.Switch',
        text: 'Wi-Fi',
        checkable: true,
        checked: true,
        clickable: true,
        b: [0, 300, 1080, 400],
      },
      { cls: 'android.widget.Button', text: 'Scan', clickable: true, b: [0, 500, 1080, 600] },
      { cls: 'android.widget.TextView', text: 'Connected', b: [0, 700, 1080, 800] },
    ]);
    const b = observe([
      {
        cls: 'android.widget.Switch',
        text: 'Wi-Fi',
        checkable: true,
        checked: false,
        clickable: true,
        b: [0, 300, 1080, 400],
      },
      { cls: 'android.widget.Button', text: 'Turn on', clickable: true, b: [0, 900, 1080, 1000] },
      { cls: 'android.widget.TextView', text: 'Off', b: [0, 700, 1080, 800] },
    ]);
    const d = diffObservations(a, b);
    expect(d.changed.map((c) => `${c.before} → ${c.after}`)).toEqual(['"Wi-Fi" on → "Wi-Fi" off']);
    expect(d.added.map((e) => e.label)).toEqual(['Turn on']);
    expect(d.removed.map((e) => e.label)).toEqual(['Scan']);
    expect(d.textsAdded).toEqual(['Off']);
    expect(d.textsRemoved).toEqual(['Connected']);
    const text = delta(a, b);
    expect(text.split('\n')[0]).toBe('delta vs previous (same screen)');
    expect(text).toMatch(/^\+ \[[0-9a-f]{8}\] Button "Turn on" 500,396$/m);
    expect(text).toMatch(/^- \[[0-9a-f]{8}\] "Scan"$/m);
    expect(text).toMatch(/^~ \[[0-9a-f]{8}\] "Wi-Fi" on → off$/m);
    expect(text).toMatch(/^text\+: "Off"$/m);
    expect(text).toMatch(/^text-: "Connected"$/m);
    expect(isEmptyDelta(diffObservations(b, b))).toBe(true);
    expect(delta(b, b)).toMatch(/\(same page\)\nno change$/);
  });
});

describe('state delta of a field over plain adb (no hints)', () => {
  // uiautomator names a hint-less field by its text, which the line shows as its label.
  const field = (focused: boolean): N => ({
    cls: 'android.widget.EditText',
    text: 'Maya Sato',
    clickable: true,
    focused,
    b: [0, 300, 1080, 400],
  });
  const other = (focused: boolean): N => ({
    cls: 'android.widget.EditText',
    text: 'Phone',
    clickable: true,
    focused,
    b: [0, 500, 1080, 600],
  });

  it('names a lost focus as "not focused" and leaves out the states both sides share', () => {
    const text = delta(observe([field(true), other(false)]), observe([field(false), other(true)]));
    expect(text).toMatch(/^~ \[[0-9a-f]{8}\] "Maya Sato" focused → not focused$/m);
    expect(text).toMatch(/^~ \[[0-9a-f]{8}\] "Phone" not focused → focused$/m);
    expect(text).not.toContain('hint');
  });
});

describe('scroll end', () => {
  it('needs two of three signals', () => {
    const o = (ids: string[], texts: string[] = [], scrollable = true): Observation => ({
      ...observe([]),
      elements: ids.map((id) => ({
        id,
        role: id === 'list' ? 'List' : 'Text',
        className: '',
        text: '',
        desc: '',
        resourceId: id === 'list' ? 'x:id/list' : '',
        bounds: { left: 0, top: 100, right: 1000, bottom: 900 },
        boundsPx: { left: 0, top: 100, right: 1000, bottom: 900 },
        flags: {
          clickable: false,
          longClickable: false,
          editable: false,
          scrollable: id === 'list' && scrollable,
          checkable: false,
          checked: false,
          enabled: true,
          focused: false,
          selected: false,
          password: false,
        },
        window: 0,
        actionable: id === 'list',
      })),
      texts,
    });
    const container = o(['list']).elements[0];
    const t = new ScrollEndTracker(container);
    expect(t.record(o(['list', 'a', 'b', 'c'])).atEnd).toBe(false);
    expect(t.record(o(['list', 'c', 'd', 'e'])).atEnd).toBe(false);
    // Only overlap (second swipe moved nothing): one signal is not enough.
    const v = t.record(o(['list', 'c', 'd', 'e']));
    expect(v.signals.overlap).toBe(1);
    expect(v.atEnd).toBe(false);
    // Overlap + an end-of-list text.
    expect(t.record(o(['list', 'c', 'd', 'e'], ['没有更多了'])).atEnd).toBe(true);
    // End text + container no longer scrollable, without overlap.
    const t2 = new ScrollEndTracker(container);
    t2.record(o(['list', 'a']));
    expect(t2.record(o(['list', 'z'], ["You're all caught up"], false))).toMatchObject({
      atEnd: true,
      signals: { notScrollable: true, endText: "You're all caught up" },
    });
    expect(fingerprintOverlap(['a', 'b'], ['b', 'c'])).toBe(0.5);
  });

  it('finds the end of the FoodShop menu by swiping the virtual phone', async () => {
    const phone = newPhone();
    const r = await foodShopMenu(phone);
    const list = r.observation.elements.find((e) => e.resourceId.endsWith(':id/menu'))!;
    expect(list.flags.scrollable).toBe(true);
    const tracker = new ScrollEndTracker(list);
    tracker.record(r.observation);
    const x = Math.round((list.boundsPx.left + list.boundsPx.right) / 2);
    const y1 = Math.round(list.boundsPx.top + (list.boundsPx.bottom - list.boundsPx.top) * 0.8);
    const y2 = Math.round(list.boundsPx.top + (list.boundsPx.bottom - list.boundsPx.top) * 0.2);
    let swipes = 0;
    let verdict = tracker.verdict();
    while (!verdict.atEnd && swipes < 30) {
      await phone.swipe(x, y1, x, y2, 400);
      await phone.clock.sleep(500);
      swipes++;
      verdict = tracker.record((await look(phone, { screenshot: false })).observation);
      if (swipes === 1) expect(verdict.atEnd).toBe(false);
    }
    expect(verdict.atEnd).toBe(true);
    expect(swipes).toBeGreaterThan(1);
    expect(verdict.reasons.length).toBeGreaterThanOrEqual(2);
  });
});
