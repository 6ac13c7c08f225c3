import { describe, expect, it } from 'vitest';
import type { Element } from '../../src/core/types.js';
import type { WireSnapshot } from '../../src/device/protocol/index.js';
import { findField } from '../../src/executor/text-input.js';

/**
 * Issue 21 round 3: an app that re-creates the field it is typing into (a new node, elsewhere,
 * focused, holding the text) must still be read back — the typing worked, and "ask the user to
 * type it" was wrong.
 */

type Node = WireSnapshot['nodes'][number];
const flags: Node['flags'] = {
  clickable: true,
  longClickable: false,
  editable: true,
  scrollable: false,
  checkable: false,
  checked: false,
  enabled: true,
  focusable: true,
  focused: false,
  selected: false,
  password: false,
  visible: true,
};
const node = (id: number, resourceId: string, top: number, extra: Partial<Node> = {}): Node => ({
  id,
  parent: -1,
  window: 1,
  className: 'android.widget.EditText',
  package: 'p',
  text: '',
  desc: '',
  resourceId,
  bounds: { left: 40, top, right: 1040, bottom: top + 120 },
  flags,
  actions: [],
  ...extra,
});
const snap = (nodes: Node[]): WireSnapshot => ({
  seq: 2,
  takenAt: 0,
  screen: { width: 1080, height: 2400, rotation: 0, density: 420 },
  foreground: { package: 'p', activity: '.A' },
  keyboard: { shown: true },
  windows: [],
  nodes,
});
const typedInto: Element = {
  id: 'aaaa0001',
  role: 'EditText',
  className: 'android.widget.EditText',
  text: '',
  desc: '',
  resourceId: 'p:id/name_old',
  bounds: { left: 37, top: 125, right: 963, bottom: 175 },
  boundsPx: { left: 40, top: 300, right: 1040, bottom: 420 },
  flags: {
    clickable: true,
    longClickable: false,
    editable: true,
    scrollable: false,
    checkable: false,
    checked: false,
    enabled: true,
    focused: true,
    selected: false,
    password: false,
  },
  window: 1,
  actionable: true,
};

describe('reading typed text back', () => {
  it('finds the re-created field by focus when it has another id and place', () => {
    const recreated = node(7, 'p:id/name_new', 1400, { text: 'Humanoid', flags: { ...flags, focused: true } });
    const other = node(3, 'p:id/other', 900, { text: 'x' });
    expect(findField(typedInto, snap([other, recreated]))?.id).toBe(7);
  });
  it('does not guess among several unfocused fields', () => {
    const a = node(3, 'p:id/a', 900);
    const b = node(4, 'p:id/b', 1400);
    expect(findField(typedInto, snap([a, b]))).toBeUndefined();
  });
});
