import { describe, expect, it } from 'vitest';
import { ActionRequestSchema, LIMITS } from '../../src/device/protocol/actions.js';
import { checkActionGeometry, pinchStrokes, toPx } from '../../src/device/protocol/gesture.js';
import type { WireNode, WireSnapshot } from '../../src/device/protocol/wire.js';
import { visibleArea } from '../../src/testbed/sim/bridge/selector.js';

// Protocol limits that are enforced before any input, and the occlusion arithmetic on its own.
const screen = { width: 1080, height: 2400 };
const parse = (v: unknown) => ActionRequestSchema.safeParse(v);

describe('action schemas', () => {
  it('normalized 1000 is the last pixel, never one past the edge', () => {
    expect(toPx({ x: 1000, y: 1000 }, 'normalized', screen)).toEqual({ x: 1079, y: 2399 });
    expect(toPx({ x: 500, y: 250 }, 'normalized', screen)).toEqual({ x: 540, y: 600 });
  });

  it('touch_gesture: 1–5 fingers, 2–32 frames, at_ms from 0 strictly increasing, ≤ 10 s', () => {
    const f = (at: number, n = 1) => ({
      at_ms: at,
      points: Array.from({ length: n }, (_, i) => ({ x: 100 + i * 150, y: 500 })),
    });
    expect(parse({ action: 'touch_gesture', frames: [f(0), f(100)] }).success).toBe(true);
    expect(parse({ action: 'touch_gesture', frames: [f(0, 5), f(100, 5)] }).success).toBe(true);
    expect(parse({ action: 'touch_gesture', frames: [f(0, 6), f(100, 6)] }).success).toBe(false);
    expect(parse({ action: 'touch_gesture', frames: [f(0)] }).success).toBe(false);
    expect(parse({ action: 'touch_gesture', frames: Array.from({ length: 33 }, (_, i) => f(i * 10)) }).success).toBe(
      false,
    );
    expect(parse({ action: 'touch_gesture', frames: [f(10), f(100)] }).success).toBe(false);
    expect(parse({ action: 'touch_gesture', frames: [f(0), f(100), f(100)] }).success).toBe(false);
    expect(parse({ action: 'touch_gesture', frames: [f(0), f(10_001)] }).success).toBe(false);
    expect(parse({ action: 'touch_gesture', frames: [f(0, 2), f(100, 1)] }).success).toBe(false);
  });

  it('geometry: out-of-screen points and merging or crossing fingers are rejected, not clamped', () => {
    const g = (frames: unknown, coord_space = 'normalized') => {
      const r = parse({ action: 'touch_gesture', coord_space, frames });
      if (!r.success) throw new Error(r.error.message);
      return checkActionGeometry(r.data, screen);
    };
    const two = (a: number[], b: number[]) => [
      { x: a[0], y: a[1] },
      { x: b[0], y: b[1] },
    ];
    expect(
      g([
        { at_ms: 0, points: two([300, 500], [700, 500]) },
        { at_ms: 300, points: two([100, 500], [900, 500]) },
      ]).ok,
    ).toBe(true);
    // fingers swap sides: they cross in the middle at the same moment
    expect(
      g([
        { at_ms: 0, points: two([300, 500], [700, 500]) },
        { at_ms: 300, points: two([700, 500], [300, 500]) },
      ]).ok,
    ).toBe(false);
    expect(
      g([
        { at_ms: 0, points: two([500, 500], [500, 500]) },
        { at_ms: 300, points: two([100, 500], [900, 500]) },
      ]).ok,
    ).toBe(false);
    expect(
      g(
        [
          { at_ms: 0, points: [{ x: 0, y: 0 }] },
          { at_ms: 300, points: [{ x: 1080, y: 10 }] },
        ],
        'pixel',
      ).ok,
    ).toBe(false);
    expect(
      g(
        [
          { at_ms: 0, points: [{ x: 0, y: 0 }] },
          { at_ms: 300, points: [{ x: 1079, y: 2399 }] },
        ],
        'pixel',
      ).ok,
    ).toBe(true);
  });

  it('pinch: distances on the short side, fingers kept inside the screen', () => {
    const p = ActionRequestSchema.parse({ action: 'pinch', x: 500, y: 500, start_distance: 100, end_distance: 500 });
    if (p.action !== 'pinch') throw new Error('not a pinch');
    const [a, b] = pinchStrokes(p, screen);
    const last = (s: typeof a) => s?.points.at(-1) ?? { x: 0, y: 0 };
    expect(Math.abs(last(a).x - last(b).x)).toBe(540); // 500‰ of the 1080 px short side
    expect(checkActionGeometry(p, screen).ok).toBe(true);
    const wide = ActionRequestSchema.parse({ action: 'pinch', x: 100, y: 500, start_distance: 100, end_distance: 500 });
    expect(checkActionGeometry(wide, screen).ok).toBe(false);
    expect(
      parse({ action: 'pinch', x: 1, y: 1, start_distance: 1, end_distance: 2, duration_ms: 10_001 }).success,
    ).toBe(false);
  });

  it('action_sequence: members validated, burst, group waits ≤ 3 s, text ≤ 1024', () => {
    const wait = (ms: number) => ({
      action: 'wait_until',
      condition: 'appears',
      selector: { text: 'x' },
      timeout_ms: ms,
    });
    const set = (text: string) => ({
      action: 'control_action',
      request: { selector: { text: 'x' }, action: 'set_text', text },
    });
    expect(parse({ action: 'action_sequence', actions: [wait(3_000), set('a')] }).success).toBe(true);
    expect(parse({ action: 'action_sequence', actions: [wait(3_001)] }).success).toBe(false);
    expect(
      parse({ action: 'action_sequence', actions: Array.from({ length: LIMITS.maxBurstActions + 1 }, () => wait(10)) })
        .success,
    ).toBe(false);
    expect(parse({ action: 'action_sequence', actions: [set('a'.repeat(600)), set('b'.repeat(425))] }).success).toBe(
      false,
    );
    expect(parse({ action: 'action_sequence', actions: [{ action: 'tap', x: 1, y: 1 }] }).success).toBe(false);
    expect(
      parse({
        action: 'action_sequence',
        actions: [{ action: 'control_action', request: { selector: { text: 'x' }, action: 'set_progress' } }],
      }).success,
    ).toBe(false);
  });

  it('wait_until ≤ 30 s; scroll_to ≤ 20 scrolls / 30 s; selectors need a semantic field', () => {
    expect(
      parse({ action: 'wait_until', condition: 'appears', selector: { text: 'a' }, timeout_ms: 30_001 }).success,
    ).toBe(false);
    expect(
      parse({ action: 'scroll_to', container: { text: 'a' }, target: { text: 'b' }, max_scrolls: 21 }).success,
    ).toBe(false);
    expect(
      parse({ action: 'scroll_to', container: { text: 'a' }, target: { text: 'b' }, timeout_ms: 30_001 }).success,
    ).toBe(false);
    expect(parse({ action: 'read_control', selector: { package_name: 'p' } }).success).toBe(false);
    expect(
      parse({ action: 'read_control', selector: { bounds: { left: 0, top: 0, right: 1, bottom: 1 } } }).success,
    ).toBe(false);
    expect(parse({ action: 'read_control', selector: { package_name: 'p', class_name: 'Button' } }).success).toBe(true);
  });
});

describe('occlusion arithmetic', () => {
  const win = (
    id: number,
    type: 'application' | 'input_method' | 'dialog',
    layer: number,
    top: number,
    bottom: number,
  ) => ({
    id,
    type,
    layer,
    bounds: { left: 0, top, right: 1080, bottom },
    package: 'p',
    title: '',
    focused: false,
    touchable: true,
  });
  const node = (top: number, bottom: number) =>
    ({ id: 0, window: 100, bounds: { left: 100, top, right: 500, bottom } }) as unknown as WireNode;
  const snap = (keyboard: boolean) =>
    ({
      screen: { width: 1080, height: 2400, rotation: 0, density: 420 },
      windows: [win(100, 'application', 1, 0, 2400), ...(keyboard ? [win(3, 'input_method', 2, 1400, 2300)] : [])],
      keyboard: keyboard
        ? { shown: true, bounds: { left: 0, top: 1400, right: 1080, bottom: 2300 } }
        : { shown: false },
    }) as unknown as WireSnapshot;
  const app = win(100, 'application', 1, 0, 2400);

  it('a node entirely behind the keyboard has no area; one partly above keeps that part', () => {
    expect(visibleArea(snap(true), node(1500, 1600), app)).toBe(0);
    expect(visibleArea(snap(true), node(1300, 1500), app)).toBe(400 * 100);
    expect(visibleArea(snap(false), node(1500, 1600), app)).toBe(400 * 100);
  });
});
