import { describe, expect, it } from 'vitest';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseWireSnapshot } from '../../src/perception/parse-wire.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

function parsed(xml: string, screen?: { w: number; h: number }) {
  const r = parseUiautomatorXml(xml, { screen });
  if (!r.ok) throw new Error(r.message);
  return r.tree;
}

describe('parseUiautomatorXml', () => {
  it('normalizes nodes: flags, editable from the class, hint, entities, pre-order', () => {
    const tree = parsed(
      dumpXml([
        appWindow([
          {
            cls: 'android.widget.EditText',
            text: 'a&b',
            hint: 'Email',
            id: 'email',
            b: [40, 500, 1040, 600],
            clickable: true,
          },
          { cls: 'android.widget.Button', text: 'Go', b: [40, 700, 1040, 800], clickable: true, enabled: false },
        ]),
      ]),
    );
    expect(tree.screen).toMatchObject({ w: 1080, h: 2400, rotation: 0, source: 'inferred' });
    const edit = tree.nodes.find((n) => n.className.endsWith('EditText'))!;
    expect(edit.flags.editable).toBe(true);
    expect(edit.text).toBe('a&b');
    expect(edit.hint).toBe('Email');
    expect(edit.resourceId).toBe('com.example.app:id/email');
    const button = tree.nodes.find((n) => n.text === 'Go')!;
    expect(button.flags.enabled).toBe(false);
    expect(tree.nodes.every((n, i) => n.idx === i && n.parent < i)).toBe(true);
  });

  it('treats several top-level nodes as windows and infers their types and layers', () => {
    const ime: N = {
      pkg: 'com.google.android.inputmethod.latin',
      b: [0, 1500, 1080, 2400],
      kids: [{ pkg: 'com.google.android.inputmethod.latin', text: 'q', b: [0, 1500, 100, 1600], clickable: true }],
    };
    const bar: N = {
      pkg: 'com.android.systemui',
      b: [0, 0, 1080, 80],
      kids: [{ pkg: 'com.android.systemui', text: '12:00', b: [20, 0, 200, 80] }],
    };
    // Keyboard first, as some devices dump it.
    const tree = parsed(dumpXml([ime, bar, appWindow([{ text: 'Send', b: [0, 1600, 1080, 1700], clickable: true }])]));
    const types = tree.windows.map((w) => w.type);
    expect(types).toEqual(['application', 'input_method', 'status_bar']);
    expect(tree.keyboard).toEqual({ shown: true, bounds: { left: 0, top: 1500, right: 1080, bottom: 2400 } });
    expect(tree.foreground?.package).toBe('com.example.app');
    // The button under the keyboard is occluded; the key is not.
    const { observation } = observeTree(tree);
    const labels = observation.elements.filter((e) => e.actionable).map((e) => e.label);
    expect(labels).toContain('q');
    expect(labels).not.toContain('Send');
  });

  it('records the rotation and a landscape screen', () => {
    const tree = parsed(
      dumpXml([{ b: [0, 0, 2400, 1080], kids: [{ text: 'Play', b: [100, 100, 300, 200], clickable: true }] }], 1),
    );
    expect(tree.screen).toMatchObject({ w: 2400, h: 1080, rotation: 1 });
    const { observation } = observeTree(tree);
    expect(observation.screen.aspect).toBe(2.22);
  });

  it('infers the screen of a dialog dumped alone (centred) and says so', () => {
    const dialog: N = {
      b: [27, 339, 1053, 1875],
      kids: [
        { text: 'Allow?', b: [80, 400, 1000, 500] },
        { cls: 'android.widget.Button', text: 'Allow', b: [80, 1700, 500, 1800], clickable: true },
      ],
    };
    const tree = parsed(dumpXml([dialog]));
    expect(tree.screen.w).toBe(1080);
    expect(tree.screen.h).toBe(339 + 1875);
    expect(tree.screen.source).toBe('inferred');
    expect(tree.notes.join()).toMatch(/inferred from a window/);
    expect(tree.windows[0].type).toBe('dialog');
  });

  it('uses a given screen size and rescales a tree written in another space', () => {
    // The tree is in a half-resolution space (540×1200) while the screen is 1080×2400.
    const tree = parsed(
      dumpXml([{ b: [0, 0, 540, 1200], kids: [{ text: 'OK', b: [100, 500, 200, 550], clickable: true }] }]),
      { w: 1080, h: 2400 },
    );
    expect(tree.screen).toMatchObject({ w: 1080, h: 2400, source: 'given' });
    const ok = tree.nodes.find((n) => n.text === 'OK')!;
    expect(ok.boundsPx).toEqual({ left: 200, top: 1000, right: 400, bottom: 1100 });
    expect(tree.notes.join()).toMatch(/rescaled/);
    const { observation } = observeTree(tree);
    const el = observation.elements.find((e) => e.label === 'OK')!;
    expect(el.bounds).toEqual({ left: 185, top: 417, right: 370, bottom: 458 });
  });

  it('takes the orientation from the tree when the given screen is the other way round', () => {
    const tree = parsed(dumpXml([{ b: [0, 0, 2400, 1080], kids: [] }], 1), { w: 1080, h: 2400 });
    expect(tree.screen).toMatchObject({ w: 2400, h: 1080 });
  });

  it('keeps a window offset from the origin (a car head unit app area) in screen space', () => {
    const tree = parsed(
      dumpXml([{ b: [640, 79, 1898, 965], kids: [{ text: 'Seat', b: [700, 100, 900, 200], clickable: true }] }]),
      { w: 1920, h: 1080 },
    );
    const { observation } = observeTree(tree);
    const seat = observation.elements.find((e) => e.label === 'Seat')!;
    expect(seat.boundsPx).toEqual({ left: 700, top: 100, right: 900, bottom: 200 });
    expect(seat.bounds.left).toBe(Math.round((700 / 1920) * 1000));
  });

  it('cuts the dump out of shell output around it and says so', () => {
    const xml = dumpXml([appWindow([{ text: 'OK', b: [0, 0, 100, 100], clickable: true }])]);
    const r = parseUiautomatorXml(`WARNING: linker: unused DT entry\n${xml}UI hierchary dumped to: /dev/tty\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tree.nodes.some((n) => n.text === 'OK')).toBe(true);
    expect(r.tree.notes.join()).toMatch(/ignored output around the dump: "WARNING.*" and "UI hierchary dumped to/);
  });

  it.each([
    ['<hierarchy rotation="0"/>', /empty hierarchy/],
    ['ERROR: null root node returned by UiTestAutomationBridge.', /null root node/],
  ])('reports an empty dump as empty, not as a screen with nothing on it: %j', (xml, re) => {
    const r = parseUiautomatorXml(xml, { screen: { w: 1080, h: 2400 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tree.nodes).toHaveLength(0);
    expect(r.tree.emptyReason).toMatch(re);
    const { observation } = observeTree(r.tree);
    expect(observation.treeQuality).toBe('empty');
    expect(observation.visualFirst).toBe(true);
    expect(observation.notes?.join()).toMatch(re);
  });

  it.each([
    ['', /input is empty/],
    ['<hierarchy><node bounds="[0,0][10,10]"></hierarchy>', /malformed XML.*does not match/],
    ['<html><body/></html>', /root element is <html>/],
    ['<hierarchy rotation="7"/>', /bad rotation/],
    [
      dumpXml([{ b: [0, 0, 10, 10] }]).replace('bounds="[0,0][10,10]"', 'bounds="0,0,10,10"'),
      /malformed bounds "0,0,10,10"/,
    ],
    [dumpXml([{ b: [0, 0, 10, 10] }]).replace(/ bounds="[^"]*"/, ''), /no bounds attribute/],
    [
      `<hierarchy rotation="0"><node bounds="[0,0][1080,2400]">${'<node bounds="[0,0][1,1]">'.repeat(2)}</hierarchy>`,
      /malformed XML/,
    ],
  ])('malformed input %# is a value naming the problem', (xml, re) => {
    const r = parseUiautomatorXml(xml);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('INVALID_ARGUMENT');
      expect(r.message).toMatch(re);
    }
  });
});

describe('parseWireSnapshot', () => {
  it.each([
    ['{not json', /not JSON/],
    [{ seq: 1 }, /takenAt|screen|foreground/],
    [JSON.stringify({ seq: 'x' }), /seq/],
  ])('rejects malformed snapshots with the field named (%#)', (input, re) => {
    const r = parseWireSnapshot(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(re);
  });
});
