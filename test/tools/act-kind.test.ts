import { describe, expect, it } from 'vitest';
import type { Element, Observation } from '../../src/core/types.js';
import { checkGuard } from '../../src/executor/guardrails/guard.js';
import type { ExecutorToolSpec, ToolTable } from '../../src/executor/tool-spec.js';
import { validate } from '../../src/executor/validator.js';
import { REGISTRY } from '../../src/tools/index.js';
import { element, observation } from '../planner/fixtures.js';

/**
 * The guard and the validator name no tool (issue 23): they judge an action by what its tool's
 * spec says it does (executor/act-kind.ts). A tool they have never heard of, handed over in the
 * table, is judged by its properties alone — and the registry's own tools keep their verdicts.
 */

const pay = element('e1', 'Pay ¥18', 1);
const shop = observation({ app: { package: 'com.shop', activity: '.Cart', title: 'Cart' }, elements: [pay] });

/** A table of the registry's tools plus one new tool `poke` with the given properties. */
function withPoke(props: Partial<ExecutorToolSpec>): ToolTable {
  return new Map([...REGISTRY.table, ['poke', { name: 'poke', needs: [['tap']], ...props }]]);
}

describe('the executor judges an action by its tool spec, not its name', () => {
  it('the guard holds a new tool that presses a Pay button, and not one that does not press', () => {
    const poke = { tool: 'poke', target_id: pay.id };
    expect(checkGuard(withPoke({ presses: () => true }), poke, shop, pay).categories).toEqual(['payment']);
    expect(checkGuard(withPoke({}), poke, shop, pay).needsConfirmation).toBe(false);
    // Read-only: not mutating at all, so nothing is judged and a dry run may send it.
    const ro = checkGuard(withPoke({ presses: () => true, readOnly: true }), poke, shop, pay);
    expect(ro).toMatchObject({ needsConfirmation: false, mutating: false });
  });

  it("the registry's tools keep their verdicts: a tap on Pay is held, a swipe on it is not", () => {
    expect(checkGuard(REGISTRY.table, { tool: 'tap', target_id: pay.id }, shop, pay).needsConfirmation).toBe(true);
    const swipe = { tool: 'swipe', target_id: pay.id, direction: 'up' as const };
    expect(checkGuard(REGISTRY.table, swipe, shop, pay).needsConfirmation).toBe(false);
  });

  it('the validator excuses an unchanged page only for a tool that may change nothing', () => {
    const label: Element = {
      ...element('e2', 'Total', 1),
      actionable: false,
      flags: { ...pay.flags, clickable: false },
    };
    const o: Observation = { ...shop, elements: [label] };
    const poke = { tool: 'poke', target_id: label.id };
    const expectChange = { kind: 'screen_changes' as const };
    const pressing = validate(withPoke({ presses: () => true, touch: true }), expectChange, o, o, poke, label);
    expect(pressing.ok).toBe(false);
    expect(pressing.reason).toMatch(/is not clickable; tap/);
    const reading = validate(withPoke({ readOnly: true }), expectChange, o, o, poke, label);
    expect(reading.ok).toBe(true);
  });
});
