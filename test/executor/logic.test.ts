import { describe, expect, it } from 'vitest';
import { Deadline, VirtualClock } from '../../src/core/clock.js';
import { seededRandom } from '../../src/core/random.js';
import type { Action, Element, Observation } from '../../src/core/types.js';
import {
  checkNativeRequest,
  checkProgress,
  checkSelection,
  splitsSurrogate,
} from '../../src/executor/native-validate.js';
import { JITTER_MS, Pacer, pollUntil, SWIPE_MIN_MS, TAP_MS } from '../../src/executor/pacing.js';
import { validate } from '../../src/executor/validator.js';
import { REGISTRY } from '../../src/tools/index.js';

describe('UTF-16 selections', () => {
  const t = 'A😀B中文';
  it('the emoji in A😀B中文 is [1,3]; indices inside it are rejected', () => {
    expect(t.length).toBe(6);
    expect(checkSelection(t, 1, 3)).toEqual({ ok: true, value: { start: 1, end: 3 } });
    expect(splitsSurrogate(t, 2)).toBe(true);
    expect(checkSelection(t, 2, 3)).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    expect(checkSelection(t, 1, 2)).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    expect(checkSelection(t, 4, 6)).toMatchObject({ ok: true });
    expect(checkSelection(t, 0, 7)).toMatchObject({ ok: false, code: 'OUT_OF_RANGE' });
    expect(checkSelection(t, 3, 1)).toMatchObject({ ok: false, code: 'OUT_OF_RANGE' });
  });
  it('set_progress respects the real range and needs one', () => {
    expect(checkProgress({ min: 0, max: 100, current: 5 }, 100)).toMatchObject({ ok: true });
    expect(checkProgress({ min: 0, max: 100, current: 5 }, 101)).toMatchObject({ ok: false, code: 'OUT_OF_RANGE' });
    expect(checkProgress(undefined, 3)).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
  });
  it('native requests are built from protocol schemas and screen geometry', () => {
    const screen = { width: 1080, height: 2400 };
    expect(
      checkNativeRequest(
        { action: 'control_action', request: { selector: { text: 'A' }, action: 'set_progress' } },
        screen,
      ),
    ).toMatchObject({ ok: false, message: /needs value/ });
    const g = checkNativeRequest(
      {
        action: 'touch_gesture',
        frames: [
          { at_ms: 0, points: [{ x: 10, y: 10 }] },
          { at_ms: 50, points: [{ x: 20, y: 20 }] },
        ],
      },
      screen,
    );
    expect(g).toMatchObject({ ok: true, value: { action: 'touch_gesture', coord_space: 'normalized' } });
  });
});

describe('pacing', () => {
  it('taps 40–60 ms, jitter 150–400 ms, swipes ≥ 300 ms on a curved path — seeded', () => {
    const a = new Pacer(seededRandom(42));
    const b = new Pacer(seededRandom(42));
    for (let i = 0; i < 200; i++) {
      const tap = a.tapMs();
      expect(tap).toBeGreaterThanOrEqual(TAP_MS.min);
      expect(tap).toBeLessThanOrEqual(TAP_MS.max);
      const j = a.jitterMs();
      expect(j).toBeGreaterThanOrEqual(JITTER_MS.min);
      expect(j).toBeLessThanOrEqual(JITTER_MS.max);
      expect(b.tapMs()).toBe(tap);
      expect(b.jitterMs()).toBe(j);
    }
    expect(a.swipeMs({ x: 0, y: 0 }, { x: 0, y: 10 }, 50)).toBe(SWIPE_MIN_MS);
    const path = a.curvedPath({ x: 540, y: 1800 }, { x: 540, y: 600 });
    expect(path[0]).toEqual({ x: 540, y: 1800 });
    expect(path.at(-1)).toEqual({ x: 540, y: 600 });
    // Curved: the middle leaves the straight line x = 540.
    expect(Math.abs((path[6]?.x ?? 540) - 540)).toBeGreaterThan(10);
  });

  it('polls every ~120 ms with early exit, up to 6 s, on the injected clock', async () => {
    const clock = new VirtualClock();
    const t0 = clock.now();
    let n = 0;
    const early = await pollUntil(async () => ({ done: ++n === 4 }), Deadline.after(clock, 60_000));
    expect(early).toMatchObject({ ok: true, polls: 4 });
    expect(clock.now() - t0).toBe(360);
    const t1 = clock.now();
    const never = await pollUntil(async () => ({ done: false, error: 'READ_FAILED' }), Deadline.after(clock, 60_000));
    expect(never.ok).toBe(false);
    expect(never.lastError).toBe('READ_FAILED');
    expect(clock.now() - t1).toBe(6_000);
  });
});

function el(id: string, over: Partial<Element['flags']> = {}, text = ''): Element {
  return {
    id,
    role: 'Switch',
    className: 'android.widget.Switch',
    text,
    desc: '',
    resourceId: '',
    bounds: { left: 0, top: 0, right: 10, bottom: 10 },
    boundsPx: { left: 0, top: 0, right: 10, bottom: 10 },
    flags: {
      clickable: true,
      longClickable: false,
      editable: false,
      scrollable: false,
      checkable: true,
      checked: false,
      enabled: true,
      focused: false,
      selected: false,
      password: false,
      ...over,
    },
    window: 1,
    actionable: true,
  };
}
function page(hash: string, elements: Element[], extra: Partial<Observation> = {}): Observation {
  return {
    seq: 1,
    takenAt: 0,
    screen: { w: 1080, h: 2400, aspect: 0.45, rotation: 0 },
    app: { package: 'p', activity: '.A', title: '' },
    windows: [],
    keyboard: { shown: false },
    elements,
    texts: [],
    pageHash: hash,
    treeQuality: 'ok',
    visualFirst: false,
    ...extra,
  };
}

describe('validator', () => {
  const tap: Action = { tool: 'tap', target_id: 's1' };
  it('an unchanged page after an action is a failure, whatever was expected', () => {
    const p = page('h', [el('s1')]);
    const r = validate(REGISTRY.table, { kind: 'text_appears', text: 'x' }, p, page('h', [el('s1')]), tap);
    expect(r).toMatchObject({ ok: false, unchanged: true });
  });
  it('a toggle flip is a change even though the page hash stays', () => {
    const r = validate(
      REGISTRY.table,
      { kind: 'element_state', target_id: 's1', state: 'checked' },
      page('h', [el('s1')]),
      page('h', [el('s1', { checked: true })]),
      tap,
    );
    expect(r).toMatchObject({ ok: true, unchanged: false });
  });
  it('a typed field whose id a web form renumbered is checked where it is; another field is not it', () => {
    const at = { left: 63, top: 367, right: 1021, bottom: 509 };
    const field = (id: string, rid: string, text: string, box = at): Element => ({
      ...el(id, { editable: true, checkable: false }, text),
      role: 'EditText',
      className: 'android.widget.EditText',
      resourceId: rid,
      boundsPx: box,
    });
    const before = field('f1', 'form-input-control-0001', '');
    const typed: Action = { tool: 'type', target_id: 'f1', text: 'Humanoid' };
    const want = { kind: 'element_state' as const, target_id: 'f1', state: 'text=Humanoid' };
    const renumbered = validate(
      REGISTRY.table,
      want,
      page('a', [before]),
      page('b', [field('f9', 'form-input-control-0003', 'Humanoid')]),
      typed,
      before,
    );
    expect(renumbered).toMatchObject({ ok: true });
    // A field of that class elsewhere on the screen is another field.
    const elsewhere = validate(
      REGISTRY.table,
      want,
      page('a', [before]),
      page('b', [field('f9', 'form-input-control-0003', 'Humanoid', { ...at, top: 900, bottom: 1042 })]),
      typed,
      before,
    );
    expect(elsewhere).toMatchObject({ ok: false, reason: expect.stringMatching(/not on the page/) });
  });
  it('focusing a field is exempt from the page-change rule', () => {
    const field = { ...el('f1'), role: 'EditText', flags: { ...el('f1').flags, editable: true } };
    const r = validate(
      REGISTRY.table,
      { kind: 'no_change' },
      page('h', [field]),
      page('h', [field]),
      { tool: 'tap', target_id: 'f1' },
      field,
    );
    expect(r.ok).toBe(true);
    const r2 = validate(
      REGISTRY.table,
      { kind: 'element_state', target_id: 'f1', state: 'enabled' },
      page('h', [field]),
      page('h', [field]),
      { tool: 'tap', target_id: 'f1' },
      field,
    );
    expect(r2.ok).toBe(true);
  });
  it('launching the app already in front passes (by package or label); another app unchanged fails', () => {
    const front = page('h', [el('s1')], {
      app: { package: 'com.android.messaging', activity: '.M', title: 'Messages' },
    });
    const byPkg = validate(REGISTRY.table, { kind: 'page_changes' }, front, front, {
      tool: 'launch_app',
      package: 'com.android.messaging',
    });
    expect(byPkg).toMatchObject({ ok: true, unchanged: true });
    expect(byPkg.signals).toContain('already_in_app');
    expect(
      validate(REGISTRY.table, { kind: 'page_changes' }, front, front, { tool: 'launch_app', package: 'Messages' }).ok,
    ).toBe(true);
    expect(
      validate(REGISTRY.table, { kind: 'page_changes' }, front, front, { tool: 'launch_app', package: 'Settings' }).ok,
    ).toBe(false);
  });
  it('a password field that got filled is a change (its text is never shown, its length is)', () => {
    const pw = { ...el('p1'), flags: { ...el('p1').flags, editable: true, password: true } };
    const r = validate(REGISTRY.table, { kind: 'no_change' }, page('h', [pw]), page('h', [{ ...pw, filled: 10 }]), {
      tool: 'type',
      target_id: 'p1',
      text: 'x',
    });
    expect(r).toMatchObject({ ok: false, unchanged: false });
  });
  it('an element already in the expected state passes though nothing changed; one that is not, fails', () => {
    const typed = { ...el('f1'), text: 'Maya Brandt', flags: { ...el('f1').flags, editable: true } };
    const retype: Action = { tool: 'type', target_id: 'f1', text: 'Maya Brandt' };
    const held = validate(
      REGISTRY.table,
      { kind: 'element_state', target_id: 'f1', state: 'text=Maya Brandt' },
      page('h', [typed]),
      page('h', [typed]),
      retype,
      typed,
    );
    expect(held).toMatchObject({ ok: true, unchanged: true });
    expect(held.signals).toContain('already_in_state');
    const other = validate(
      REGISTRY.table,
      { kind: 'element_state', target_id: 'f1', state: 'text=Maya B.' },
      page('h', [typed]),
      page('h', [typed]),
      retype,
      typed,
    );
    expect(other).toMatchObject({ ok: false, unchanged: true });
  });
  it('page_changes, element_gone, text_appears, keyboard_shown and app_foreground use their signals', () => {
    const a = page('h1', [el('s1')]);
    const b = page('h2', [el('s2')], {
      texts: ['Order placed'],
      keyboard: { shown: true },
      app: { package: 'q', activity: '.B', title: '' },
    });
    expect(validate(REGISTRY.table, { kind: 'page_changes' }, a, b, tap).ok).toBe(true);
    expect(validate(REGISTRY.table, { kind: 'element_gone', target_id: 's1' }, a, b, tap).ok).toBe(true);
    expect(validate(REGISTRY.table, { kind: 'text_appears', text: 'order placed' }, a, b, tap).ok).toBe(true);
    expect(validate(REGISTRY.table, { kind: 'text_appears', text: 'Payment failed' }, a, b, tap).ok).toBe(false);
    expect(validate(REGISTRY.table, { kind: 'keyboard_shown' }, a, b, tap).ok).toBe(true);
    expect(validate(REGISTRY.table, { kind: 'app_foreground', package: 'q' }, a, b, tap).ok).toBe(true);
    expect(validate(REGISTRY.table, { kind: 'app_foreground', package: 'p' }, a, b, tap).ok).toBe(false);
  });
});
