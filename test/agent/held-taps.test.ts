import { describe, expect, it } from 'vitest';
import { heldTaps } from '../../src/agent/held-taps.js';
import type { Element, Observation } from '../../src/core/types.js';

/** Which taps the guard would hold, per control, by the executor's own rule and the run's config. */

function control(id: string, text: string, over: Partial<Element> = {}): Element {
  return {
    id,
    role: 'Button',
    className: 'android.widget.Button',
    text,
    desc: '',
    resourceId: '',
    bounds: { left: 0, top: 0, right: 100, bottom: 50 },
    boundsPx: { left: 0, top: 0, right: 108, bottom: 120 },
    flags: {
      clickable: true,
      longClickable: false,
      editable: false,
      scrollable: false,
      checkable: false,
      checked: false,
      enabled: true,
      focused: false,
      selected: false,
      password: false,
    },
    window: 1,
    actionable: true,
    ...over,
  };
}

function screen(pkg: string, elements: Element[], texts: string[] = []): Observation {
  return {
    seq: 1,
    takenAt: 0,
    screen: { w: 1080, h: 2400, aspect: 0.45, rotation: 0 },
    app: { package: pkg, activity: '.A', title: '' },
    windows: [],
    keyboard: { shown: false },
    elements,
    texts,
    pageHash: 'h',
    treeQuality: 'ok',
    visualFirst: false,
  };
}

describe('heldTaps', () => {
  it('marks the controls a tap would hold, with their categories, and nothing else', () => {
    const obs = screen('com.shop', [
      control('aa000001', 'Checkout'),
      control('aa000002', 'Pay ¥18'),
      control('aa000003', 'Send'),
      control('aa000004', 'Delete draft'),
      control('aa000005', 'Back'),
      control('aa000006', 'Pay', { actionable: false }),
    ]);
    expect(heldTaps(obs)).toEqual({ aa000002: ['payment'], aa000003: ['send'], aa000004: ['delete'] });
  });

  it('a generic OK takes the risk of its dialog, as the guard judges it', () => {
    const obs = screen('com.files', [control('bb000001', 'OK'), control('bb000002', 'Cancel')], ['Delete 3 files?']);
    expect(heldTaps(obs)).toEqual({ bb000001: ['delete'] });
  });

  it("follows the run's guard config: a high-risk app holds every tap", () => {
    const obs = screen('com.bank', [control('cc000001', 'Accounts'), control('cc000002', 'Help')]);
    expect(heldTaps(obs)).toEqual({});
    expect(heldTaps(obs, { apps: { 'com.bank': { all: 'payment' } } })).toEqual({
      cc000001: ['payment'],
      cc000002: ['payment'],
    });
  });
});
