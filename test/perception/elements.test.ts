import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { compactView } from '../../src/perception/compact.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

function observe(roots: N[]) {
  const r = parseUiautomatorXml(dumpXml(roots));
  if (!r.ok) throw new Error(r.message);
  return observeTree(r.tree);
}

function actionable(o: Observation) {
  return o.elements.filter((e) => e.actionable);
}

const text = (t: string, b: N['b'], extra: Partial<N> = {}): N => ({
  cls: 'android.widget.TextView',
  text: t,
  b,
  ...extra,
});

describe('element extraction', () => {
  it('a clickable container without text takes the label of its descendants', () => {
    const { observation } = observe([
      appWindow([
        {
          cls: 'android.widget.LinearLayout',
          id: 'row',
          clickable: true,
          b: [0, 300, 1080, 450],
          kids: [
            {
              b: [40, 310, 1000, 440],
              kids: [text('Wi-Fi', [40, 310, 600, 370]), text('Connected', [40, 380, 600, 440])],
            },
          ],
        },
      ]),
    ]);
    const [row] = actionable(observation);
    // A title over a summary: separated, as a reader sees two lines.
    expect(row.label).toBe('Wi-Fi — Connected');
    expect(row.text).toBe('');
    // Its labels are attached to it and not repeated on the text line.
    const labels = observation.elements.filter((e) => !e.actionable);
    expect(labels.map((l) => l.actionableAncestorId)).toEqual([row.id, row.id]);
    expect(observation.texts).toEqual([]);
  });

  it('text of a control that has its own name stays on the text line', () => {
    const { observation } = observe([
      appWindow([
        {
          cls: 'android.widget.Button',
          desc: 'Play',
          clickable: true,
          b: [0, 300, 500, 450],
          kids: [text('3:14', [10, 310, 200, 440])],
        },
        text('Now playing', [0, 100, 1080, 200]),
      ]),
    ]);
    expect(actionable(observation)[0].label).toBe('Play');
    expect(observation.texts).toEqual(['3:14', 'Now playing']);
  });

  it('drops invisible, zero-area and off-screen nodes', () => {
    const { observation, extract } = observe([
      appWindow([
        text('hidden', [0, 100, 500, 200], { clickable: true, visible: false }),
        text('flat', [0, 300, 0, 300], { clickable: true }),
        text('below', [0, 2500, 500, 2600], { clickable: true }),
        text('shown', [0, 500, 500, 600], { clickable: true }),
      ]),
    ]);
    expect(actionable(observation).map((e) => e.label)).toEqual(['shown']);
    expect(extract.dropped).toMatchObject({ invisible: 1, zero_area: 1, off_screen: 1 });
  });

  it('clips list rows to the scrolling container and drops the ones scrolled out', () => {
    const { observation } = observe([
      appWindow([
        {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          id: 'list',
          scrollable: true,
          b: [0, 200, 1080, 1000],
          kids: [
            text('Row A', [0, 150, 1080, 300], { clickable: true }),
            text('Row B', [0, 300, 1080, 450], { clickable: true }),
            text('Row C', [0, 1000, 1080, 1150], { clickable: true }),
          ],
        },
      ]),
    ]);
    const rows = actionable(observation).filter((e) => e.role !== 'List');
    expect(rows.map((e) => e.label)).toEqual(['Row A', 'Row B']);
    expect(rows[0].boundsPx.top).toBe(200);
  });

  it('drops what a modal dialog window covers, keeps the dialog and the system bars', () => {
    const { observation } = observe([
      appWindow([
        text('Behind', [0, 300, 1080, 400], { clickable: true }),
        text('Far below', [0, 2000, 1080, 2100], { clickable: true }),
      ]),
      {
        pkg: 'com.android.permissioncontroller',
        b: [60, 900, 1020, 1500],
        kids: [
          {
            pkg: 'com.android.permissioncontroller',
            cls: 'android.widget.Button',
            text: 'Allow',
            clickable: true,
            b: [100, 1300, 500, 1450],
          },
        ],
      },
    ]);
    expect(actionable(observation).map((e) => e.label)).toEqual(['Allow']);
  });

  it('a toast window in a dump hides nothing (it is not a modal dialog)', () => {
    const { observation } = observe([
      appWindow([
        text('Latte', [0, 300, 1080, 400], { clickable: true }),
        text('Checkout', [0, 1900, 1080, 2000], { clickable: true }),
      ]),
      { b: [300, 1950, 780, 2050], kids: [text('Added to cart', [320, 1960, 760, 2040])] },
    ]);
    expect(observation.windows.map((w) => w.type)).toEqual(['application', 'toast']);
    expect(actionable(observation).map((e) => e.label)).toEqual(['Latte', 'Checkout']);
    expect(observation.texts).toContain('Added to cart');
  });

  it('drops what a later-drawn clickable backdrop covers in the same window (drawing order)', () => {
    const sheetRoot: N = {
      b: [0, 0, 1080, 2400],
      kids: [
        text('Content behind', [0, 300, 1080, 400], { clickable: true, order: 1 }),
        // Listed last but drawn second: the sheet (drawn third) stays on top of it.
        {
          id: 'sheet',
          order: 3,
          b: [0, 1600, 1080, 2400],
          kids: [text('Share', [0, 1700, 1080, 1800], { clickable: true })],
        },
        { id: 'touch_outside', cls: 'android.view.View', clickable: true, order: 2, b: [0, 0, 1080, 2400] },
      ],
    };
    const { observation } = observe([appWindow([sheetRoot])]);
    const labels = actionable(observation).map((e) => e.label || e.resourceId);
    expect(labels).toContain('Share');
    expect(labels).not.toContain('Content behind');
    // Nameless but for its resource id: named by it, in words.
    expect(labels).toContain('Touch outside');
  });

  it('collapses layout-only containers and merges a wrapper with the same bounds', () => {
    const { observation, extract } = observe([
      appWindow([
        {
          cls: 'android.widget.FrameLayout',
          id: 'continue_wrapper',
          clickable: true,
          b: [100, 1000, 980, 1120],
          kids: [
            {
              cls: 'android.widget.Button',
              id: 'continue',
              text: 'Continue',
              clickable: true,
              b: [100, 1000, 980, 1120],
            },
          ],
        },
      ]),
    ]);
    const els = actionable(observation);
    expect(els).toHaveLength(1);
    expect(els[0]).toMatchObject({ role: 'Button', label: 'Continue' });
    expect(extract.dropped.merged).toBe(1);
    // Only the window root, content frame and wrapper existed besides the button: no elements for them.
    expect(observation.elements).toHaveLength(1);
  });

  it('merges a settings row and its switch into one toggle named by the row', () => {
    const { observation } = observe([
      appWindow([
        {
          cls: 'android.widget.LinearLayout',
          clickable: true,
          b: [0, 300, 1080, 450],
          kids: [
            text('Bluetooth', [40, 330, 600, 420]),
            {
              cls: 'android.widget.Switch',
              id: 'switch_widget',
              checkable: true,
              checked: true,
              b: [900, 330, 1040, 420],
            },
          ],
        },
      ]),
    ]);
    const els = actionable(observation);
    expect(els).toHaveLength(1);
    expect(els[0]).toMatchObject({
      role: 'Switch',
      label: 'Bluetooth',
      flags: expect.objectContaining({ checked: true }),
    });
    // `#switch_widget` names a kind of view, not this one: the class says it.
    expect(compactView(observation)).toMatch(/\] Switch "Bluetooth" on 500,157$/m);
  });

  it('a check box without a name takes the text beside it on its row', () => {
    const { observation } = observe([
      appWindow([
        { cls: 'android.widget.CheckBox', checkable: true, clickable: true, b: [40, 1000, 120, 1080] },
        text('Remember me', [130, 1010, 500, 1070]),
        text('Far away below', [130, 1300, 500, 1360]),
      ]),
    ]);
    expect(actionable(observation)[0]).toMatchObject({ role: 'CheckBox', label: 'Remember me' });
    expect(observation.texts).toEqual(['Far away below']);
  });

  it('recognises seek bars, edit fields, scroll containers and long-clickable nodes', () => {
    const { observation } = observe([
      appWindow([
        { cls: 'android.widget.SeekBar', desc: 'Brightness', text: '40.0', b: [40, 300, 1040, 360] },
        {
          cls: 'android.widget.EditText',
          hint: 'Email',
          text: 'Email',
          id: 'email',
          clickable: true,
          focused: true,
          b: [40, 400, 1040, 500],
        },
        {
          cls: 'android.widget.EditText',
          hint: 'Password',
          text: '••••',
          password: true,
          clickable: true,
          b: [40, 520, 1040, 620],
        },
        {
          cls: 'android.widget.ScrollView',
          scrollable: true,
          id: 'scroller',
          b: [0, 700, 1080, 1500],
          kids: [text('Item', [0, 700, 1080, 800])],
        },
        text('Photo', [0, 1600, 500, 1800], { cls: 'android.widget.ImageView', longClickable: true }),
      ]),
    ]);
    const lines = compactView(observation).split('\n').slice(1);
    expect(lines[0]).toMatch(/^\[[0-9a-f]{8}\] SeekBar "Brightness" 40\.0 500,138$/);
    expect(lines[1]).toMatch(/^\[[0-9a-f]{8}\] EditText "Email" focused \d+,\d+$/);
    expect(lines[2]).toMatch(/^\[[0-9a-f]{8}\] EditText "Password" \[password\] (empty|filled \(\d+ chars\)) \d+,\d+$/);
    expect(lines[3]).toMatch(/^\[[0-9a-f]{8}\] List #scroller 500,459$/);
    expect(lines[4]).toMatch(/^\[[0-9a-f]{8}\] long Image "Photo" 232,709$/);
    expect(lines.join('\n')).not.toContain('••••');
  });
});
