import type { Approval } from '../core/approval.js';
import type { Observation } from '../core/types.js';
import { covers } from '../executor/consent-scope.js';
import { checkGuard, type GuardConfig } from '../executor/guardrails/guard.js';
import { REGISTRY } from '../tools/index.js';
import { tap } from '../tools/tap.js';

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
    const v = checkGuard(REGISTRY.table, { tool: tap.name, target_id: e.id }, obs, e, cfg);
    if (v.needsConfirmation) held[e.id] = v.categories;
  }
  return held;
}

/**
 * The marks without those an earlier approval covers (the confirmation dialog its action opened:
 * a tap there asks nobody, so its line must not say it will).
 */
export function uncoveredHeld(
  held: Record<string, string[]>,
  approval: Approval | undefined,
  obs: Observation,
): Record<string, string[]> {
  if (!approval) return held;
  const out: Record<string, string[]> = {};
  for (const [id, categories] of Object.entries(held)) {
    const e = obs.elements.find((x) => x.id === id);
    if (!covers(approval, { categories, package: obs.app.package }, obs, e)) out[id] = categories;
  }
  return out;
}
