import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { applyNoise, type NoiseKind } from '../../src/testbed/reference-model/noise.js';
import { extractScreen } from '../../src/testbed/reference-model/read-request.js';
import { REGISTRY } from '../../src/tools/index.js';

/**
 * The shapes a capable model uses (summary on done, app by label, look, note, plan revision), made
 * by the reference model's noise: each must be something the planner accepts, so CI keeps them working.
 */

const screen = extractScreen(
  '<screen untrusted>\napp com.android.launcher3\n[1a2b3c4d] tap "Settings" 500,500\n</screen>',
);
const tools: string[] = ['tap', 'launch_app', 'done', 'look', 'note', 'read', 'back', 'wait'];
const offered = new Set<string>(tools);

function shape(kind: NoiseKind, args: Record<string, unknown> & { thought: string; tool: string }) {
  const random = seededRandom(7);
  for (let i = 0; i < 400; i++) {
    const r = applyNoise(
      {
        args,
        screen,
        history: [{ step: 1, action: 'launch_app Settings', ok: true, met: true }],
        moreSubgoals: false,
        offered,
        remainingPlan: ['toggle "Wi-Fi" off', 'done'],
      },
      1,
      random,
    );
    if (r.noise === kind) return JSON.parse(r.text) as Record<string, unknown>;
  }
  throw new Error(`noise ${kind} never chosen`);
}

describe('reference-model noise: the shapes of a capable model', () => {
  const ctx = { catalog: REGISTRY.catalog, tools, ids: new Set(['1a2b3c4d']) };
  it('done with a summary, parsed as done with its text', () => {
    const out = shape('done_summary', { thought: 'ok', tool: 'done' });
    const r = parseAct(out, ctx);
    expect(r.ok && r.value.decision.action).toMatchObject({ tool: 'done', answer: expect.stringMatching(/^Done — /) });
  });
  it('app_foreground by label', () => {
    const out = shape('label_foreground', {
      thought: 'open',
      tool: 'launch_app',
      package: 'Settings',
      expect: 'page_changes',
    });
    const r = parseAct(out, ctx);
    expect(r.ok && r.value.decision.expect).toEqual({ kind: 'app_foreground', package: 'Settings' });
  });
  it('look and note, only when offered', () => {
    const look = parseAct(
      shape('look', { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'page_changes' }),
      ctx,
    );
    expect(look.ok && look.value.look).toBeDefined();
    const note = parseAct(
      shape('note', { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'page_changes' }),
      ctx,
    );
    expect(note.ok && note.value.note).toBe('next: toggle "Wi-Fi" off');
    const random = seededRandom(3);
    for (let i = 0; i < 200; i++) {
      const r = applyNoise(
        { args: { thought: 't', tool: 'back', expect: 'page_changes' }, screen, history: [], moreSubgoals: false },
        1,
        random,
      );
      expect(r.noise === 'look' || r.noise === 'note').toBe(false);
    }
  });
  it('a plan revision rides on an action', () => {
    const out = shape('plan_revision', { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'page_changes' });
    const r = parseAct(out, ctx);
    expect(r.ok && r.value.revisedPlan).toEqual(['toggle "Wi-Fi" off', 'done']);
    expect(r.ok && r.value.decision.action.tool).toBe('tap');
  });
  it('a read that completes a subgoal already reached, instead of a dummy wait', () => {
    const already = {
      thought: '"Settings" is already on',
      tool: 'wait',
      value: 0,
      expect: 'no_change',
      subgoal_done: true,
    };
    const r = parseAct(shape('read_done', already), ctx);
    expect(r.ok && r.value.read).toEqual({ target_id: '1a2b3c4d', text: undefined });
    expect(r.ok && r.value.subgoalDone).toBe(true);
  });
  it('plan=[] on the action that completes the last subgoal, instead of subgoal_done', () => {
    const last = { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'page_changes', subgoal_done: true };
    const r = parseAct(shape('plan_empty', last), ctx);
    expect(r.ok && r.value.revisedPlan).toEqual([]);
    expect(r.ok && r.value.subgoalDone).toBe(false);
    expect(r.ok && r.value.decision.action.tool).toBe('tap');
  });
});
