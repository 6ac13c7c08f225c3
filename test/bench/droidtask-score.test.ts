import { describe, expect, it } from 'vitest';
import type { Gold } from '../../bench/droidtask/fixture.js';
import { figures } from '../../bench/droidtask/report.js';
import type { StepRecord } from '../../bench/droidtask/run.js';
import { type ShownState, scoreStep } from '../../bench/droidtask/score.js';
import { rectCenter } from '../../src/core/geometry.js';
import type { Action, Element, Observation } from '../../src/core/types.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import { droidbotStateOf } from '../perception/droidbot-builder.js';
import { newPhone, open } from '../perception/phone.js';

/**
 * AutoDroid's step scoring on DroidBot states the project writes from the virtual phone's screens:
 * hits by the gold view, by the container that handles its tap, by bounds; the gold kind and text;
 * the two misses counted apart. (The real DroidTask run is test/shared/droidtask-bench.test.ts.)
 */

async function screenOf(pkg: string) {
  const phone = newPhone();
  await open(phone, pkg);
  const state = droidbotStateOf(await phone.readTree(), { tag: 't' });
  const read = readDroidbotState(state);
  if (!read.ok) throw new Error(read.message);
  const r = await perceive({ wire: read.snapshot });
  if (!r.ok) throw new Error(r.message);
  const shown: ShownState = { id: state.state_str, views: state.views, nodeOf: read.nodeOf };
  return { state, obs: r.observation, shown };
}

function element(obs: Observation, label: RegExp): Element {
  const e = obs.elements.find((x) => x.actionable && label.test(x.label ?? ''));
  if (!e) throw new Error(`no ${label}`);
  return e;
}

type Views = Awaited<ReturnType<typeof screenOf>>['state']['views'];

function goldOn(views: Views, text: string, kind: Gold['kind'] = 'tap', typed: string | null = null): Gold {
  const label = views.find((v) => v.text === text);
  if (!label) throw new Error(`no view ${text}`);
  let anchor = label;
  while (!anchor.clickable && anchor.parent >= 0) anchor = views[anchor.parent] as typeof label;
  const b = (v: typeof label) => v.bounds;
  return {
    kind,
    view: label.temp_id,
    bounds: b(label),
    text: typed,
    ...(anchor !== label ? { anchor: { view: anchor.temp_id, bounds: b(anchor) } } : {}),
  };
}

describe('DroidTask step scoring', () => {
  it('a tap hits by the element of the gold view or its container, or by a point in its bounds', async () => {
    const { state, obs, shown } = await screenOf('com.android.settings');
    const shownWithViews = shown;
    const gold = goldOn(state.views, 'Network & internet');
    expect(gold.anchor).toBeDefined();
    const row = element(obs, /^Network & internet/);
    const tap = (a: Action) => scoreStep(a, obs, shownWithViews, gold, shownWithViews);
    expect(tap({ tool: 'tap', target_id: row.id })).toMatchObject({ correct: true, hit: true });
    const c = rectCenter(row.bounds);
    expect(tap({ tool: 'tap', point: { x: c.x, y: c.y } })).toMatchObject({
      correct: true,
      why: expect.stringMatching(/in the gold bounds/),
    });
    expect(tap({ tool: 'control_action', target_id: row.id, args: { action: 'click' } })).toMatchObject({
      correct: true,
    });
    const other = element(obs, /^Battery/);
    expect(tap({ tool: 'tap', target_id: other.id })).toMatchObject({ correct: false, miss: 'wrong_element' });
    expect(tap({ tool: 'long_press', target_id: row.id })).toMatchObject({ correct: false, miss: 'wrong_kind' });
    expect(tap({ tool: 'done', answer: 'x' })).toMatchObject({ correct: false, miss: 'wrong_kind' });
    expect(scoreStep(undefined, obs, shownWithViews, gold, shownWithViews)).toMatchObject({
      correct: false,
      miss: 'no_action',
    });
  });

  it('on a scrolled screen of the same chain only the same view counts', async () => {
    const { state, obs, shown } = await screenOf('com.android.settings');
    const here = shown;
    const gold = goldOn(state.views, 'Network & internet');
    const elsewhere = { ...here, id: 'another-scroll-of-it' };
    const row = element(obs, /^Network & internet/);
    expect(scoreStep({ tool: 'tap', target_id: row.id }, obs, elsewhere, gold, here)).toMatchObject({ correct: true });
    const c = rectCenter(row.bounds);
    // Bounds belong to the state the gold was recorded on.
    expect(scoreStep({ tool: 'tap', point: { x: c.x, y: c.y } }, obs, elsewhere, gold, here).correct).toBe(false);
  });

  it('input needs the gold field and text; typing where the gold taps the field first is its own miss', async () => {
    const { state, obs, shown } = await screenOf('com.acme.bank');
    const here = shown;
    const email = element(obs, /^Email/);
    const fieldView = state.views.find((v) => v.resource_id?.endsWith('/email'));
    expect(fieldView).toBeDefined();
    const b = fieldView?.bounds ?? [
      [0, 0],
      [0, 0],
    ];
    const input: Gold = { kind: 'input', view: fieldView?.temp_id ?? -1, bounds: b, text: 'Ann Lee' };
    const score = (a: Action, g: Gold) => scoreStep(a, obs, here, g, here);
    expect(score({ tool: 'type', target_id: email.id, text: '  ann  lee ' }, input)).toMatchObject({
      correct: true,
      textOk: true,
    });
    expect(score({ tool: 'type', target_id: email.id, text: 'Ann' }, input)).toMatchObject({
      correct: false,
      miss: 'wrong_text',
    });
    expect(score({ tool: 'tap', target_id: email.id }, input)).toMatchObject({ correct: false, miss: 'wrong_kind' });
    const focusTap: Gold = { ...input, kind: 'tap', text: null };
    expect(score({ tool: 'type', target_id: email.id, text: 'Ann Lee' }, focusTap)).toMatchObject({
      correct: false,
      miss: 'typed_without_tap',
    });
    expect(score({ tool: 'tap', target_id: email.id }, focusTap)).toMatchObject({ correct: true });
  });

  it('a done step needs done; anything else there is checking before done', async () => {
    const { obs, shown } = await screenOf('com.android.settings');
    const here = shown;
    const done: Gold = { kind: 'done', view: null, bounds: null, text: null };
    expect(scoreStep({ tool: 'done' }, obs, here, done, here).correct).toBe(true);
    const row = element(obs, /^Battery/);
    expect(scoreStep({ tool: 'tap', target_id: row.id }, obs, here, done, here)).toMatchObject({
      correct: false,
      miss: 'checked_before_done',
    });
  });

  it('completion: every step right; the lenient figure also forgives only a final done', () => {
    const rec = (task: string, step: number, goldKind: Gold['kind'], correct: boolean): StepRecord => ({
      task,
      app: 'a',
      step,
      goldKind,
      flags: [],
      score: {
        correct,
        goldKind,
        kind: correct ? (goldKind === 'input' ? 'input' : goldKind === 'done' ? 'done' : 'tap') : 'other',
        tool: 'x',
        why: '',
        ...(correct ? {} : { miss: 'wrong_kind' }),
      },
      action: '',
      scrolls: 0,
      meta: 0,
      usage: { ...emptyUsage(), promptTokens: 100 * step, calls: 1 },
    });
    const f = figures([
      rec('t1', 1, 'tap', true),
      rec('t1', 2, 'done', true),
      rec('t2', 1, 'tap', true),
      rec('t2', 2, 'done', false),
      rec('t3', 1, 'tap', false),
      rec('t3', 2, 'done', true),
    ]);
    expect(f).toMatchObject({ steps: 6, correct: 4, tasks: 3, complete: 1, completeLenient: 2 });
    expect(f.actionAccuracy).toBeCloseTo(4 / 6);
    expect(f.byKind.done).toEqual({ steps: 3, correct: 2 });
    expect(f.promptTokensPerStep).toEqual({ median: 100, p95: 200, mean: 150 });
  });
});
