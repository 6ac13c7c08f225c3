import type { Observation } from '../core/types.js';
import { checkGuard, type GuardConfig } from '../executor/guardrails/guard.js';

/**
 * Which controls on a screen the guard would hold for the user if tapped, and as what — so the
 * listing can say so before the model taps (the planner marks those lines). The rule is one: the
 * executor's `checkGuard`, asked about a tap on each control with the run's guard config, exactly
 * as the pipeline will ask when the tap comes. The words of a decision never enter it.
 */
export function heldTaps(obs: Observation, cfg?: GuardConfig): Record<string, string[]> {
  const held: Record<string, string[]> = {};
  for (const e of obs.elements) {
    if (!e.actionable) continue;
    const v = checkGuard({ tool: 'tap', target_id: e.id }, obs, e, cfg);
    if (v.needsConfirmation) held[e.id] = v.categories;
  }
  return held;
}
