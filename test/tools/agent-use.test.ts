import { describe, expect, it } from 'vitest';
import { parseAct } from '../../src/planner/act-tool.js';
import { matchInterrupt } from '../../src/planner/interrupts.js';
import { type AgentUse, agentTool } from '../../src/planner/tool-spec.js';
import { REGISTRY } from '../../src/tools/index.js';
import { element, observation, windowInfo } from '../planner/fixtures.js';

/**
 * The planner acts without the model in three places (an interrupt rule's tap, a banner swiped
 * away, a meta step's no-op) and names no tool for it: it finds the tool by its `agentUse`. The
 * registry must give exactly one tool per use, or those actions would be ambiguous or missing.
 */
const USES: readonly AgentUse[] = ['press', 'dismiss', 'pause'];

describe('the tools the agent uses by itself come from the registry by property', () => {
  it('each use has exactly one tool in the registry', () => {
    for (const use of USES) expect(REGISTRY.tools.filter((t) => t.agentUse === use).length, use).toBe(1);
  });

  it('a catalog without the tool for a use is a registry error that says what to add', () => {
    const none = new Map([...REGISTRY.catalog].filter(([, t]) => t.agentUse !== 'press'));
    expect(() => agentTool(none, 'press')).toThrow(/agentUse 'press'.*src\/tools/);
  });

  it("an interrupt rule's tap and a meta step's no-op are the registry's tools for those uses", () => {
    const obs = observation({
      windows: [windowInfo(2, 'dialog', 'com.foodshop', { layer: 5, title: 'Update available' })],
      elements: [
        element('aaaa0001', 'A new version is available', 2, { actionable: false }),
        element('aaaa0002', 'Update', 2),
        element('aaaa0003', 'Later', 2),
      ],
    });
    const m = matchInterrupt(obs, { goal: 'Order a latte.', taskApps: new Set() }, REGISTRY.catalog);
    expect(m?.kind !== 'hand_over' && m?.decision.action).toEqual({
      tool: agentTool(REGISTRY.catalog, 'press'),
      target_id: 'aaaa0003',
    });
    const tools = REGISTRY.plannerTools(REGISTRY.offered({ ops: new Set(['tap']) } as never));
    const note = parseAct(
      { thought: 'remember it', tool: 'note', text: 'the latte is 18 yuan' },
      { tools, catalog: REGISTRY.catalog, ids: new Set() },
    );
    expect(note.ok && note.value.decision.action).toEqual({ tool: agentTool(REGISTRY.catalog, 'pause'), ms: 0 });
  });
});
