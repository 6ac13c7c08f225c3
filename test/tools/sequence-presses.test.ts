import { describe, expect, it } from 'vitest';
import { memberPresses, sequenceMembers } from '../../src/executor/native-args.js';
import { actionSequence } from '../../src/tools/action-sequence.js';
import { controlAction } from '../../src/tools/control-action.js';
import { touchGesture } from '../../src/tools/touch-gesture.js';
import { waitUntil } from '../../src/tools/wait-until.js';
import { element, observation } from '../planner/fixtures.js';

/**
 * What an action_sequence's member presses is one rule (executor/native-args.ts `memberPresses`),
 * read by the guard's judgement of the sequence and by the burst cut (agent/burst-stop.ts): the
 * planner's members and the protocol's, each mapped by its own shape.
 */
describe('the members an action_sequence presses', () => {
  const obs = observation({ elements: [element('s1', 'Send', 1, { actionable: true })] });
  const presses = (actions: unknown[]) =>
    sequenceMembers({ tool: actionSequence.name, args: { actions } }, obs).map(memberPresses);

  it('counts clicks, long clicks and drawn gestures, in the planner shape', () => {
    expect(
      presses([
        { tool: controlAction.name, target_id: 's1', args: { action: 'click' } },
        { tool: controlAction.name, target_id: 's1', args: { action: 'long_click' } },
        { tool: controlAction.name, target_id: 's1', args: { action: 'set_text', text: 'hi' } },
        { tool: touchGesture.name, target_id: 's1', args: { frames: [] } },
        { tool: waitUntil.name, args: { condition: 'stable' } },
      ]),
    ).toEqual([true, true, false, true, false]);
  });

  it('counts the same in the protocol shape', () => {
    expect(
      presses([
        { action: 'control_action', request: { selector: { text: 'Send' }, action: 'click' } },
        { action: 'control_action', request: { selector: { text: 'Send' }, action: 'set_progress', value: 3 } },
        { action: 'touch_gesture', frames: [] },
      ]),
    ).toEqual([true, false, true]);
  });

  it('finds the element a member presses, by its id or its selector', () => {
    const ms = sequenceMembers(
      {
        tool: actionSequence.name,
        args: { actions: [{ action: 'control_action', request: { selector: { text: 'Send' }, action: 'click' } }] },
      },
      obs,
    );
    expect(ms[0]?.element?.id).toBe('s1');
  });
});
