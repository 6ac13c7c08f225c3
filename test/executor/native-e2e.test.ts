import { afterEach, describe, expect, it } from 'vitest';
import type { Decision, Element, Observation } from '../../src/core/types.js';
import type { ControlInfo } from '../../src/device/protocol/index.js';
import type { Executor } from '../../src/executor/executor.js';
import { bridgeRig, decision, drive, el, makeExecutor, observe } from './helpers.js';

/** Native tools through the real bridge: limits reject bad input before any touch reaches the phone. */

type Rig = Awaited<ReturnType<typeof bridgeRig>>;
let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const native = (
  tool: Decision['action']['tool'],
  args: Record<string, unknown>,
  expect: Decision['expect'] = { kind: 'no_change' },
) => decision({ tool, args }, expect);

function selectorOf(e: Element) {
  return e.resourceId
    ? { resource_id: e.resourceId }
    : e.desc
      ? { content_desc: e.desc, class_name: e.className }
      : { text: e.text, class_name: e.className };
}

async function read(ex: Executor, o: Observation, sel: Record<string, unknown>): Promise<ControlInfo> {
  const r = await ex.run(native('read_control', { selector: sel }), o);
  if (!r.ok) throw new Error(`read_control failed: ${r.receipt.error?.message ?? r.outcome?.reason}`);
  return r.value as ControlInfo;
}

describe('selections (UTF-16, surrogate pairs)', () => {
  it('rejects a selection that splits the emoji before any input; [1,3] selects it and replace keeps the rest', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const t = await ex.run(
      decision(
        { tool: 'type', target_id: el(o, 'Email').id, text: 'A😀B中文' },
        { kind: 'element_state', target_id: el(o, 'Email').id, state: 'text=A😀B中文' },
      ),
      o,
    );
    expect(t.ok).toBe(true);
    o = t.post ?? o;
    const sel = { class_name: 'android.widget.EditText', text: 'A😀B中文' };
    const before = rig.inputs.count;
    const bad = await ex.run(native('control_action', { selector: sel, action: 'set_selection', start: 2, end: 3 }), o);
    expect(bad.receipt.error?.code).toBe('INVALID_ARGUMENT');
    expect(bad.receipt.error?.message).toMatch(/surrogate pair/);
    expect(bad.receipt.delivery).toBe('not_delivered');
    const outOfRange = await ex.run(
      native('control_action', { selector: sel, action: 'set_selection', start: 0, end: 9 }),
      o,
    );
    expect(outOfRange.receipt.error?.code).toBe('OUT_OF_RANGE');
    expect(rig.inputs.count).toBe(before);
    const good = await ex.run(
      native('control_action', { selector: sel, action: 'set_selection', start: 1, end: 3 }),
      o,
    );
    expect(good.receipt.error).toBeUndefined();
    expect((await read(ex, o, sel)).selection).toEqual({ start: 1, end: 3 });
    const rep = await ex.run(
      native(
        'control_action',
        { selector: sel, action: 'replace_selection', text: '🙂' },
        { kind: 'element_state', state: 'text=A🙂B中文' },
      ),
      o,
    );
    expect(rep.ok).toBe(true);
  });
});

describe('ranges and tokens', () => {
  async function product() {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    const o = await drive(ex, await observe(ex), [
      { tool: 'launch_app', package: 'com.foodshop' },
      'Later',
      'Espresso ¥18',
    ]);
    const bar = o.elements.find((e) => e.role === 'SeekBar');
    if (!bar) throw new Error('no SeekBar');
    return { rig, ex, o, sel: selectorOf(bar) };
  }

  it('set_progress is checked against the real min/max', async () => {
    const { rig, ex, o, sel } = await product();
    const c = await read(ex, o, sel);
    expect(c.range).toBeDefined();
    const before = rig.inputs.count;
    const bad = await ex.run(
      native('control_action', { selector: sel, action: 'set_progress', value: (c.range?.max ?? 0) + 50 }),
      o,
    );
    expect(bad.receipt.error?.code).toBe('OUT_OF_RANGE');
    expect(rig.inputs.count).toBe(before);
    const bar = o.elements.find((e) => e.role === 'SeekBar');
    const ok = await ex.run(
      native(
        'control_action',
        { selector: sel, action: 'set_progress', value: 80 },
        { kind: 'element_state', target_id: bar?.id, state: 'value=80' },
      ),
      o,
    );
    expect(ok.ok).toBe(true);
    expect(ok.receipt.error).toBeUndefined();
    expect((await read(ex, o, sel)).range?.current).toBe(80);
  });

  it('a native tool may name its control by target_id (the selector is derived from the element)', async () => {
    const { ex, o } = await product();
    const bar = o.elements.find((e) => e.role === 'SeekBar');
    const r = await ex.run(
      decision(
        { tool: 'control_action', target_id: bar?.id, args: { action: 'set_progress', value: 65 } },
        { kind: 'element_state', target_id: bar?.id, state: 'value=65' },
      ),
      o,
    );
    expect(r.ok).toBe(true);
  });

  it('expected_token of an older read → STALE, nothing written', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    let o = await drive(ex, await observe(ex), [{ tool: 'launch_app', package: 'com.acme.bank' }]);
    const field = el(o, 'Email');
    const sel = { resource_id: field.resourceId };
    expect(field.resourceId).not.toBe('');
    const t1 = (await read(ex, o, sel)).token;
    const typed = await ex.run(
      decision(
        { tool: 'type', target_id: field.id, text: 'abc' },
        { kind: 'element_state', target_id: field.id, state: 'text=abc' },
      ),
      o,
    );
    o = typed.post ?? o;
    const before = rig.inputs.count;
    const stale = await ex.run(
      native('control_action', { selector: sel, action: 'set_text', text: 'xyz', expected_token: t1 }),
      o,
    );
    expect(stale.receipt.error?.code).toBe('STALE');
    expect(rig.inputs.count).toBe(before);
    expect((await read(ex, o, sel)).text).toBe('abc');
  });

  it('action_sequence validates every member first: one bad member → nothing runs', async () => {
    const { rig, ex, o, sel } = await product();
    const before = rig.inputs.count;
    const r = await ex.run(
      native('action_sequence', {
        actions: [
          { action: 'control_action', request: { selector: sel, action: 'set_progress', value: 10 } },
          { action: 'control_action', request: { selector: sel, action: 'set_progress', value: 1000 } },
        ],
      }),
      o,
    );
    expect(r.receipt.error?.code).toBe('OUT_OF_RANGE');
    expect(r.receipt.error?.message).toMatch(/member 1/);
    expect(rig.inputs.count).toBe(before);
    expect((await read(ex, o, sel)).range?.current).toBe(50);
  });
});

describe('gesture and wait limits', () => {
  it('bad gestures, waits and scrolls are rejected before any input', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    const o = await observe(ex);
    const before = rig.inputs.count;
    const finger = (x: number) => ({ x, y: 500 });
    const frames = (n: number, fingers: number, dt = 100) =>
      Array.from({ length: n }, (_, i) => ({
        at_ms: i * dt,
        points: Array.from({ length: fingers }, (_, k) => finger(100 + k * 150)),
      }));
    const cases: [string, Decision, RegExp][] = [
      ['6 fingers', native('touch_gesture', { frames: frames(2, 6) }), /fingers|5|too_big|at most/i],
      ['1 keyframe', native('touch_gesture', { frames: frames(1, 1) }), /frames|2/],
      ['33 keyframes', native('touch_gesture', { frames: frames(33, 1) }), /frames|32/],
      [
        'time not increasing',
        native('touch_gesture', {
          frames: [
            { at_ms: 0, points: [finger(100)] },
            { at_ms: 0, points: [finger(200)] },
          ],
        }),
        /increase/,
      ],
      [
        'longer than 10 s',
        native('touch_gesture', {
          frames: [
            { at_ms: 0, points: [finger(100)] },
            { at_ms: 10_001, points: [finger(200)] },
          ],
        }),
        /10000|10 ?000|at most/,
      ],
      [
        'off screen',
        native('touch_gesture', {
          coord_space: 'pixel',
          frames: [
            { at_ms: 0, points: [{ x: 100, y: 100 }] },
            { at_ms: 100, points: [{ x: 5000, y: 100 }] },
          ],
        }),
        /outside/,
      ],
      [
        'merging fingers',
        native('touch_gesture', {
          frames: [
            { at_ms: 0, points: [finger(300), finger(700)] },
            { at_ms: 300, points: [finger(500), finger(501)] },
          ],
        }),
        /merge|cross|within/,
      ],
      [
        'crossing fingers',
        native('touch_gesture', {
          frames: [
            { at_ms: 0, points: [finger(300), finger(700)] },
            { at_ms: 300, points: [finger(700), finger(300)] },
          ],
        }),
        /merge|cross|within/,
      ],
      [
        'pinch 20 s',
        native('pinch', { x: 500, y: 500, start_distance: 100, end_distance: 300, duration_ms: 20_000 }),
        /10000|at most|too_big|less than/i,
      ],
      [
        'wait_until 40 s',
        native('wait_until', { condition: 'appears', selector: { text: 'Settings' }, timeout_ms: 40_000 }),
        /30000|at most|less than/i,
      ],
      [
        'scroll_to 25 scrolls',
        native('scroll_to', { container: { class_name: 'x' }, target: { text: 'y' }, max_scrolls: 25 }),
        /20|at most|less than/i,
      ],
      [
        'package alone',
        native('read_control', { selector: { package_name: 'com.android.settings' } }),
        /never a target|at least one/,
      ],
    ];
    for (const [name, dcs, re] of cases) {
      const r = await ex.run(dcs, o);
      expect(r.ok, name).toBe(false);
      expect(r.receipt.error?.code, name).toBe('INVALID_ARGUMENT');
      expect(r.receipt.error?.message, name).toMatch(re);
      expect(r.receipt.delivery, name).toBe('not_delivered');
    }
    expect(rig.inputs.count).toBe(before);
  });

  it('a valid two-finger gesture and wait_until reach the phone', async () => {
    rig = await bridgeRig();
    const ex = makeExecutor(rig.device, rig.clock);
    const o = await observe(ex);
    const w = await ex.run(
      native('wait_until', { condition: 'appears', selector: { text: 'Settings' }, timeout_ms: 2_000 }),
      o,
    );
    expect(w.receipt.error).toBeUndefined();
    const g = await ex.run(
      native('pinch', { x: 500, y: 500, start_distance: 200, end_distance: 400, duration_ms: 400 }),
      o,
    );
    expect(g.receipt.delivery).toBe('delivered');
    expect(rig.inputs.calls).toContain('gesture');
  });
});
