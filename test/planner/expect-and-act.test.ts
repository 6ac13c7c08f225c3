import { describe, expect, it } from 'vitest';
import { parseAct } from '../../src/planner/act-tool.js';
import { formatExpect, parseExpect } from '../../src/planner/expect-dsl.js';
import { REGISTRY } from '../../src/tools/index.js';
import { SETTINGS_IDS, SETTINGS_TOOLS } from './fixtures.js';

const tools = SETTINGS_TOOLS;
const ctx = { catalog: REGISTRY.catalog, tools, ids: SETTINGS_IDS, subgoal: 'turn Wi-Fi off' };

describe('expect DSL', () => {
  it('parses every kind and round-trips', () => {
    for (const line of [
      'page_changes',
      'element_gone 1a2b3c4d',
      'text_appears Order placed',
      'element_state 1a2b3c4d off',
      'keyboard_shown',
      'app_foreground com.android.settings',
      'no_change',
    ]) {
      const r = parseExpect(line);
      expect(r.ok, line).toBe(true);
      if (r.ok) expect(formatExpect(r.value)).toBe(line);
    }
  });
  it("leaves out an element id that is the action's own target, and reads it back so", () => {
    expect(parseExpect('element_gone')).toEqual({ ok: true, value: { kind: 'element_gone' } });
    expect(parseExpect('element_state on')).toEqual({ ok: true, value: { kind: 'element_state', state: 'on' } });
    expect(parseExpect('element_state value=40')).toEqual({
      ok: true,
      value: { kind: 'element_state', state: 'value=40' },
    });
    expect(parseExpect('element_state [1a2b3c4d] off')).toEqual({
      ok: true,
      value: { kind: 'element_state', target_id: '1a2b3c4d', state: 'off' },
    });
    const own = { kind: 'element_state' as const, target_id: '1a2b3c4d', state: 'off' };
    expect(formatExpect(own, '1a2b3c4d')).toBe('element_state off');
    expect(formatExpect(own, '9b1c0d22')).toBe('element_state 1a2b3c4d off');
    expect(formatExpect({ kind: 'element_gone', target_id: '1a2b3c4d' }, '1a2b3c4d')).toBe('element_gone');
    // Without an id the action must have a target: a back has none to check.
    const tap = parseAct({ thought: 'x', tool: 'tap', target_id: '1a2b3c4d', expect: 'element_state off' }, ctx);
    expect(tap.ok && tap.value.decision.expect).toEqual({ kind: 'element_state', state: 'off' });
    const back = parseAct({ thought: 'x', tool: 'back', expect: 'element_gone' }, ctx);
    expect(back.ok ? '' : back.error).toMatch(/expect element_gone without an id needs an action with target_id/);
  });
  it('rejects a missing or unknown expectation with the grammar', () => {
    const r = parseExpect('');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('page_changes');
    expect(parseExpect('it works').ok).toBe(false);
    expect(parseExpect('element_state 1a2b3c4d').ok).toBe(false);
  });
});

describe('parseAct', () => {
  it('turns a valid call into a Decision', () => {
    const r = parseAct(
      {
        thought: 'switch it off',
        tool: 'tap',
        target_id: '1a2b3c4d',
        expect: 'element_state 1a2b3c4d off',
        subgoal_done: true,
      },
      ctx,
    );
    expect(r).toEqual({
      ok: true,
      value: {
        decision: {
          thought: 'switch it off',
          action: { tool: 'tap', target_id: '1a2b3c4d' },
          expect: { kind: 'element_state', target_id: '1a2b3c4d', state: 'off' },
          subgoal: 'turn Wi-Fi off',
        },
        subgoalDone: true,
      },
    });
  });
  it('rejects an invented id, an unknown tool and a missing expect', () => {
    const invented = parseAct({ thought: 'x', tool: 'tap', target_id: 'deadbeef', expect: 'page_changes' }, ctx);
    expect(invented.ok).toBe(false);
    if (!invented.ok) expect(invented.error).toContain('deadbeef');
    const unknown = parseAct({ thought: 'x', tool: 'fly', expect: 'page_changes' }, ctx);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toContain('available tools');
    const noExpect = parseAct({ thought: 'x', tool: 'tap', target_id: '1a2b3c4d' }, ctx);
    expect(noExpect.ok).toBe(false);
    const badExpectId = parseAct({ thought: 'x', tool: 'back', expect: 'element_gone cafebabe' }, ctx);
    expect(badExpectId.ok).toBe(false);
  });
  it('accepts terminal tools without expect and maps text to answer/reason/question', () => {
    const done = parseAct({ thought: 'x', tool: 'done', text: '14', target_id: null }, ctx);
    expect(done.ok && done.value.decision.action).toEqual({ tool: 'done', answer: '14' });
    const inf = parseAct({ thought: 'x', tool: 'infeasible', text: 'no SIM settings' }, ctx);
    expect(inf.ok && inf.value.decision.action).toEqual({ tool: 'infeasible', reason: 'no SIM settings' });
    expect(parseAct({ thought: 'x', tool: 'infeasible' }, ctx).ok).toBe(false);
  });
  it('requires a target or point for taps and maps control_action args', () => {
    expect(parseAct({ thought: 'x', tool: 'tap', expect: 'page_changes' }, ctx).ok).toBe(false);
    const pt = parseAct({ thought: 'x', tool: 'tap', point: { x: 10, y: 20 }, expect: 'page_changes' }, ctx);
    expect(pt.ok && pt.value.decision.action.point).toEqual({ x: 10, y: 20 });
    const slide = parseAct(
      {
        thought: 'x',
        tool: 'control_action',
        target_id: '77aa0011',
        op: 'set_progress',
        value: 40,
        expect: 'element_state 77aa0011 value=40',
      },
      ctx,
    );
    expect(slide.ok && slide.value.decision.action.args).toEqual({ action: 'set_progress', value: 40 });
  });
});

describe('parseAct: subgoal bookkeeping', () => {
  const meta: string[] = [...tools, 'read', 'note'];
  it('keeps plan=[] (nothing left after this action) apart from no plan at all', () => {
    const tap = { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'page_changes' };
    const empty = parseAct({ ...tap, plan: [] }, ctx);
    expect(empty.ok && empty.value.revisedPlan).toEqual([]);
    const none = parseAct(tap, ctx);
    expect(none.ok && 'revisedPlan' in none.value).toBe(false);
  });
  it('takes subgoal_done on a read, as on a note', () => {
    const read = parseAct(
      { thought: 't', tool: 'read', text: 'Acme…', subgoal_done: true, expect: '-' },
      { ...ctx, tools: meta },
    );
    expect(read.ok && read.value.subgoalDone).toBe(true);
    const plain = parseAct({ thought: 't', tool: 'read', text: 'Acme…', expect: '-' }, { ...ctx, tools: meta });
    expect(plain.ok && plain.value.subgoalDone).toBe(false);
  });
});
