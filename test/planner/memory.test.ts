import { describe, expect, it } from 'vitest';
import { parseAct } from '../../src/planner/act-tool.js';
import { InterruptTracker, matchInterrupt } from '../../src/planner/interrupts.js';
import { Blacklist } from '../../src/planner/memory/blacklist.js';
import { LoopBreaker } from '../../src/planner/memory/loop-breaker.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { actionSignature, describeAction, REGISTRY } from '../../src/tools/index.js';
import { element, observation } from './fixtures.js';

const dialogWindow = (id: number, title: string, pkg = 'com.foodshop') => ({
  id,
  type: 'dialog' as const,
  layer: 5,
  bounds: { left: 0, top: 0, right: 1000, bottom: 1000 },
  package: pkg,
  title,
  focused: true,
  touchable: true,
});

describe('blacklist and loop breaker', () => {
  it('an action that worked without moving the page state (a pinch on a map) is progress, not a loop', () => {
    const stuck = new LoopBreaker();
    expect(
      [stuck.check('p', 'pinch'), stuck.check('p', 'pinch'), stuck.check('p', 'pinch')].map((v) => v.kind),
    ).toEqual(['ok', 'ok', 'change_strategy']);
    const zooming = new LoopBreaker();
    for (let i = 0; i < 5; i++) {
      expect(zooming.check('p', 'pinch').kind).toBe('ok');
      zooming.progressed('p', 'pinch');
    }
  });

  it('bans an action after two failures on the same page only', () => {
    const b = new Blacklist();
    expect(b.recordFailure('p1', 'tap [1a2b3c4d]')).toBe(false);
    expect(b.recordFailure('p2', 'tap [1a2b3c4d]')).toBe(false);
    expect(b.recordFailure('p1', 'tap [1a2b3c4d]')).toBe(true);
    expect(b.list('p1')).toEqual(['tap [1a2b3c4d]']);
    expect(b.isBanned('p2', 'tap [1a2b3c4d]')).toBe(false);
    expect(Blacklist.fromJSON(b.toJSON()).isBanned('p1', 'tap [1a2b3c4d]')).toBe(true);
  });
  it('does not ban an action that moved the run to another page, however often it comes back', () => {
    // The Apps button opens the drawer each time; something brings the home screen back.
    const lb = new LoopBreaker();
    for (let i = 0; i < 5; i++) {
      expect(lb.check('home:s1', 'tap [a1b2c3d4]').kind).toBe('ok');
      expect(lb.check('drawer:s2', 'home').kind).toBe('ok');
    }
    // A toggle flipped back and forth on one page is still a circle (state changes, page does not).
    const flip = new LoopBreaker();
    const verdicts = [1, 0, 1, 0, 1].map((i) => flip.check(`alarm:${i}`, 'tap [0f0f0f0f]').kind);
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'change_strategy']);
  });

  it('forces a change of strategy at the third repeat, then hands over', () => {
    const lb = new LoopBreaker(3, 1);
    expect(lb.check('p', 'back').kind).toBe('ok');
    expect(lb.check('p', 'back').kind).toBe('ok');
    expect(lb.check('p', 'back').kind).toBe('change_strategy');
    expect(lb.check('q', 'back').kind).toBe('ok');
    lb.check('p', 'back');
    lb.check('p', 'back');
    expect(lb.check('p', 'back').kind).toBe('hand_over');
  });
  it('signatures ignore point jitter and never show typed text', () => {
    expect(actionSignature({ tool: 'tap', point: { x: 501, y: 299 } })).toBe(
      actionSignature({ tool: 'tap', point: { x: 499, y: 301 } }),
    );
    const d = describeAction({ tool: 'type', target_id: 'abcdef01', text: 'hunter2' }, 'Password');
    expect(d).not.toContain('hunter2');
    expect(d).toBe('type [abcdef01] "Password" text=(7 chars)');
    // The text hash keeps signatures apart but is not shown: "~6100" in a history line reads as tokens.
    expect(d).not.toMatch(/~[0-9a-f]{4}/);
    expect(actionSignature({ tool: 'type', target_id: 'abcdef01', text: 'a' })).not.toBe(
      actionSignature({ tool: 'type', target_id: 'abcdef01', text: 'b' }),
    );
    // A secret placeholder is what the model wrote: shown as such, not as its own length.
    expect(describeAction({ tool: 'type', target_id: 'abcdef01', text: '⟨secret1⟩' }, 'Password')).toBe(
      'type [abcdef01] "Password" text=⟨secret1⟩',
    );
  });
});

describe("history lines in the act call's own shape", () => {
  const tools = [
    'tap',
    'scroll_to',
    'action_sequence',
    'control_action',
    'wait_until',
    'launch_app',
    'wait',
    'swipe',
    'pinch',
  ] as const;
  const ids = new Set(['1a2b3c4d', '2b3c4d5e']);
  const shown = (raw: Record<string, unknown>) => {
    const r = parseAct({ thought: 't', expect: 'page_changes', ...raw }, { catalog: REGISTRY.catalog, tools, ids });
    if (!r.ok) throw new Error(r.error);
    return describeAction(r.value.decision.action);
  };

  it("writes steps/op/value/text as the model sends them, never the protocol's args or actions", () => {
    const seq = shown({
      tool: 'action_sequence',
      steps: [
        { tool: 'control_action', target_id: '1a2b3c4d', op: 'set_text', text: 'hello' },
        { tool: 'wait_until', op: 'stable' },
      ],
    });
    expect(seq).toBe(
      'action_sequence steps=[control_action [1a2b3c4d] op=set_text text=(5 chars); wait_until op=stable]',
    );
    expect(shown({ tool: 'control_action', target_id: '1a2b3c4d', op: 'set_progress', value: 40 })).toBe(
      'control_action [1a2b3c4d] op=set_progress value=40',
    );
    expect(shown({ tool: 'scroll_to', text: 'About phone', direction: 'up' })).toBe(
      'scroll_to direction=up text="About phone"',
    );
    expect(shown({ tool: 'wait_until', op: 'appears', text: 'Saved' })).toBe('wait_until op=appears text=Saved');
    expect(shown({ tool: 'launch_app', package: 'Settings' })).toBe('launch_app package=Settings');
    expect(shown({ tool: 'wait', value: 500, expect: 'no_change' })).toBe('wait value=500');
    expect(shown({ tool: 'pinch', target_id: '2b3c4d5e', scale: 2.5 })).toBe('pinch [2b3c4d5e] scale=2.5');
    for (const line of [seq, shown({ tool: 'scroll_to', text: 'x' })])
      expect(line).not.toMatch(/[{}]|"actions"|args|action=/);
  });

  it('shows each field once (a scroll_to direction is not repeated from its args)', () => {
    const line = shown({ tool: 'scroll_to', text: 'About phone', direction: 'down' });
    expect(line.match(/direction=/g)).toHaveLength(1);
  });
});

describe('page memory', () => {
  it('replays per goal, subgoal and page; evicts; survives JSON', () => {
    const m = new PageMemory();
    const decision = {
      thought: 't',
      action: { tool: 'tap' as const, target_id: '1a2b3c4d' },
      expect: { kind: 'page_changes' as const },
    };
    m.remember({ goal: 'g', subgoal: 's', pageHash: 'p1', decision, subgoalDone: true });
    m.rememberPlan('g', ['s']);
    expect(m.lookup('g', 's', 'p1')?.decision).toEqual(decision);
    expect(m.lookup('g', 'other', 'p1')).toBeUndefined();
    expect(m.lookup('g', 's', 'p2')).toBeUndefined();
    const copy = new PageMemory(JSON.parse(JSON.stringify(m.toJSON())));
    expect(copy.lookup('g', 's', 'p1')?.subgoalDone).toBe(true);
    expect(copy.plan('g')).toEqual(['s']);
    copy.evict('g', 's', 'p1');
    expect(copy.lookup('g', 's', 'p1')).toBeUndefined();
  });
});

const NO_TASK = { goal: '', taskApps: new Set<string>() };

describe('interrupt rules', () => {
  it('dismisses an update dialog by rule, at most 3 tries', () => {
    const obs = observation({
      windows: [dialogWindow(2, 'Update available')],
      elements: [
        element('aaaa0001', 'A new version is available', 2, { actionable: false }),
        element('aaaa0002', 'Update', 2),
        element('aaaa0003', 'Later', 2),
      ],
    });
    const m = matchInterrupt(obs, NO_TASK, REGISTRY.catalog);
    if (m?.kind === 'hand_over') throw new Error(m.reason);
    expect(m?.kind).toBe('update');
    expect(m?.decision.action).toEqual({ tool: 'tap', target_id: 'aaaa0003' });
    const t = new InterruptTracker();
    expect([t.attempt(m!.key), t.attempt(m!.key), t.attempt(m!.key), t.attempt(m!.key)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
  it('grants a runtime permission prompt the task needs, to the app it works in', () => {
    const obs = observation({
      windows: [
        { ...dialogWindow(1, 'Contacts', 'com.android.contacts'), type: 'application' },
        dialogWindow(3, 'Permission', 'com.android.permissioncontroller'),
      ],
      elements: [
        element('bbbb0001', 'Allow Contacts to access your contacts?', 3, { actionable: false }),
        element('bbbb0002', 'Allow', 3),
        element('bbbb0003', "Don't allow", 3),
      ],
    });
    const m = matchInterrupt(
      obs,
      { goal: 'Add contact Ann.', taskApps: new Set(['com.android.contacts']) },
      REGISTRY.catalog,
    );
    expect(m?.kind !== 'hand_over' && m?.decision.action.target_id).toBe('bbbb0002');
  });
  it('leaves a dialog that belongs to the task alone', () => {
    const obs = observation({
      windows: [dialogWindow(2, 'Confirm payment')],
      elements: [
        element('cccc0001', 'Pay ¥18.00 now? Special offer applied', 2, { actionable: false }),
        element('cccc0002', 'Pay', 2),
        element('cccc0003', 'Cancel', 2),
      ],
    });
    expect(matchInterrupt(obs, NO_TASK, REGISTRY.catalog)).toBeUndefined();
  });
  it('ignores the app window itself', () => {
    const obs = observation({
      windows: [{ ...dialogWindow(1, 'Menu'), type: 'application' }],
      elements: [element('dddd0001', 'Special offer', 1), element('dddd0002', 'Close', 1)],
    });
    expect(matchInterrupt(obs, NO_TASK, REGISTRY.catalog)).toBeUndefined();
  });
});
