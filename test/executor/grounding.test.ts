import { describe, expect, it } from 'vitest';
import type { Element, Observation } from '../../src/core/types.js';
import type { WireSnapshot } from '../../src/device/protocol/index.js';
import { ground, groundPoint, inPairedRow } from '../../src/executor/grounding.js';
import { followTarget } from '../../src/executor/inject.js';
import { MAX_MOVE_PX, recheckTarget } from '../../src/executor/recheck.js';

const W = 1080;
const H = 2400;

function elem(id: string, text: string, px: [number, number, number, number], extra: Partial<Element> = {}): Element {
  const [l, t, r, b] = px;
  const n = (v: number, s: number) => Math.round((v / s) * 1000);
  return {
    id,
    role: 'Button',
    className: 'android.widget.Button',
    text,
    desc: '',
    resourceId: '',
    bounds: { left: n(l, W), top: n(t, H), right: n(r, W), bottom: n(b, H) },
    boundsPx: { left: l, top: t, right: r, bottom: b },
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
    ...extra,
  };
}

function obs(elements: Element[]): Observation {
  return {
    seq: 1,
    takenAt: 0,
    screen: { w: W, h: H, aspect: 0.45, rotation: 0 },
    app: { package: 'p', activity: '.A', title: '' },
    windows: [],
    keyboard: { shown: false },
    elements,
    texts: [],
    pageHash: 'h',
    treeQuality: 'ok',
    visualFirst: false,
  };
}

describe('grounding', () => {
  const single = elem('a1', 'Continue', [400, 1000, 680, 1100]);
  it('target id → the element centre in pixels', () => {
    const g = ground({ target_id: 'a1' }, obs([single]));
    expect(g).toMatchObject({ ok: true, how: 'target_id', px: { x: 540, y: 1050 } });
  });

  it('an unknown id without a point is NOT_FOUND', () => {
    expect(ground({ target_id: 'zz' }, obs([single]))).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('snaps a near miss within 6% of the width, not a far one', () => {
    // 6% of 1080 = 64.8 px: 50 px above the button snaps, 80 px does not.
    const near = groundPoint({ x: 500, y: Math.round(((1000 - 50) / H) * 1000) }, obs([single]));
    expect(near).toMatchObject({ ok: true, how: 'snapped', px: { x: 540, y: 1050 } });
    const far = groundPoint({ x: 500, y: Math.round(((1000 - 80) / H) * 1000) }, obs([single]));
    expect(far).toMatchObject({ ok: true, how: 'raw' });
  });

  it('never snaps across into a paired-button row: raw point and a confirmation instead', () => {
    const cancel = elem('c1', 'Cancel', [100, 2000, 520, 2100]);
    const ok = elem('c2', 'Delete', [560, 2000, 980, 2100]);
    const o = obs([cancel, ok]);
    expect(inPairedRow(ok, o.elements)).toBe(true);
    // Between the two buttons (in the gap), nearer "Delete".
    const g = groundPoint({ x: Math.round((548 / W) * 1000), y: Math.round((2050 / H) * 1000) }, o);
    expect(g).toMatchObject({ ok: true, how: 'raw' });
    expect(g.ok && g.needsConfirmation).toMatch(/paired-button row/);
    // Inside a button there is no snapping at all.
    expect(groundPoint({ x: Math.round((700 / W) * 1000), y: Math.round((2050 / H) * 1000) }, o)).toMatchObject({
      how: 'inside',
      element: { id: 'c2' },
    });
  });

  it('rejects points outside the normalized space', () => {
    expect(groundPoint({ x: 1200, y: 10 }, obs([]))).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
  });
});

describe('pre-injection re-check', () => {
  const e = elem('a1', 'Search', [900, 2100, 1060, 2200]);
  const snap = (top: number, extra: Partial<WireSnapshot['nodes'][number]> = {}): WireSnapshot => ({
    seq: 2,
    takenAt: 0,
    screen: { width: W, height: H, rotation: 0, density: 420 },
    foreground: { package: 'p', activity: '.A' },
    keyboard: { shown: false },
    windows: [],
    nodes: [
      {
        id: 0,
        parent: -1,
        window: 1,
        className: 'android.widget.Button',
        package: 'p',
        text: 'Search',
        desc: '',
        resourceId: '',
        bounds: { left: 900, top, right: 1060, bottom: top + 100 },
        flags: {
          clickable: true,
          longClickable: false,
          editable: false,
          scrollable: false,
          checkable: false,
          checked: false,
          enabled: true,
          focusable: true,
          focused: false,
          selected: false,
          password: false,
          visible: true,
        },
        actions: [],
        ...extra,
      },
    ],
  });
  it(`passes when the target moved ≤ ${MAX_MOVE_PX} px and aborts STALE beyond`, () => {
    expect(recheckTarget(e, snap(2100 + MAX_MOVE_PX))).toMatchObject({ ok: true });
    expect(recheckTarget(e, snap(1420))).toMatchObject({ ok: false, code: 'STALE', movedPx: 680 });
  });
  it('a vanished or disabled target is STALE', () => {
    expect(recheckTarget(e, snap(2100, { text: 'Other' }))).toMatchObject({ ok: false, code: 'STALE' });
    expect(recheckTarget(e, snap(2100, { flags: { ...snap(0).nodes[0]!.flags, enabled: false } }))).toMatchObject({
      ok: false,
      code: 'STALE',
    });
  });
});

describe('a point keeps its point (DESIGN §5, issue 21)', () => {
  const track = elem('s1', '', [40, 1000, 1040, 1100], { role: 'SeekBar', className: 'android.widget.SeekBar' });
  const ok = elem('b1', 'OK', [400, 1130, 680, 1230]);
  const y = Math.round((1050 / H) * 1000);
  it('a point inside the id’s own element is the point, not the centre', () => {
    const g = ground({ target_id: 's1', point: { x: 200, y } }, obs([track]));
    expect(g).toMatchObject({ ok: true, how: 'inside', element: { id: 's1' } });
    if (g.ok) expect(g.px.x).toBe(216);
    // A point outside the id's element: the id wins, at its centre.
    expect(ground({ target_id: 's1', point: { x: 500, y: 900 } }, obs([track]))).toMatchObject({
      how: 'target_id',
      px: { x: 540, y: 1050 },
    });
  });
  it('a point on a slider or a drawn surface that is not actionable is not snapped to a button nearby', () => {
    const bar = { ...track, actionable: false, flags: { ...track.flags, clickable: false } };
    const near = Math.round((1110 / H) * 1000);
    expect(groundPoint({ x: 500, y: near }, obs([bar, ok]))).toMatchObject({ how: 'snapped', element: { id: 'b1' } });
    expect(groundPoint({ x: 300, y }, obs([bar, ok]))).toMatchObject({ how: 'inside', element: { id: 's1' } });
    const map = elem('m1', '', [0, 200, 1080, 1080], {
      role: 'View',
      className: 'android.view.TextureView',
      actionable: false,
    });
    const fab = elem('f1', 'Locate', [900, 1090, 1060, 1180]);
    expect(groundPoint({ x: 900, y: Math.round((1070 / H) * 1000) }, obs([map, fab]))).toMatchObject({
      how: 'inside',
      element: { id: 'm1' },
    });
  });
  it('a kept point follows its element by the same offset when the re-check finds it moved', () => {
    const moved = { left: 40, top: 600, right: 1040, bottom: 700 };
    expect(followTarget({ x: 216, y: 1050 }, track, moved, true)).toEqual({ x: 216, y: 650 });
    expect(followTarget({ x: 216, y: 1050 }, track, moved, false)).toEqual({ x: 540, y: 650 });
  });
});
