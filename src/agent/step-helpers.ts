import type { Observation } from '../core/types.js';
import type { ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { PlannedStep } from '../planner/act-tool.js';
import type { LlmUsage } from '../planner/llm/client.js';
import type { Planner } from '../planner/planner.js';
import type { HistoryEntry, Subgoal } from '../planner/prompt/types.js';

/** Small pieces of the loop, kept apart so loop.ts reads as the DESIGN §1 sequence. */

/** The frame gate's decision: the screen has not changed while we wait, so wait again (no model call). */
export const GATE_WAIT: PlannedStep = {
  decision: {
    thought: 'screen unchanged; keep waiting',
    action: { tool: 'wait', ms: 1000 },
    expect: { kind: 'no_change' },
  },
  subgoalDone: false,
};

import { fnvHex as hashText } from '../core/hash.js';

export { hashText };

/**
 * What is on the screen beyond its structure: every element with its text and state, and the
 * non-actionable texts. Two observations with the same page hash but different state keys differ
 * in content (a field emptied, a bubble added, a switch flipped).
 */
export function screenState(obs: Observation): string {
  const parts = obs.elements.map(
    (e) => `${e.id}:${e.text}:${+e.flags.checked}${+e.flags.selected}${+e.flags.enabled}:${e.range?.current ?? ''}`,
  );
  return hashText(`${parts.join('|')}#${obs.texts.join('|')}`);
}

export function labelOf(obs: Observation, id?: string): string | undefined {
  if (!id) return undefined;
  const e = obs.elements.find((x) => x.id === id);
  return e ? (e.label ?? (e.text || e.desc)) || undefined : undefined;
}

/** Revise the plan (repeated failures, or a resume on another screen); subgoals that were done and survive keep their mark. */
export async function replan(
  planner: Planner,
  req: {
    goal: string;
    plan: Subgoal[];
    screen: string;
    aspect: number;
    apps?: readonly string[];
    reason: string;
    history?: readonly HistoryEntry[];
  },
  signal?: AbortSignal,
): Promise<{ plan: Subgoal[]; current: number; usage: LlmUsage }> {
  const { goal, plan, screen, aspect, apps, reason } = req;
  const history = req.history && [...req.history];
  const p = await planner.makePlan({ goal, screen, aspect, apps, previous: { plan, reason, history } }, signal);
  const wasDone = new Set(plan.filter((s) => s.done).map((s) => s.text));
  const next = p.plan.map((s) => ({ text: s.text, done: wasDone.has(s.text) }));
  const open = next.findIndex((s) => !s.done);
  return { plan: next, current: open < 0 ? next.length : open, usage: p.usage };
}

/** What the person was asked about, without the app (`tap "Pay ¥18"`): the control, named for the model. */
export function askedAbout(req: Pick<ConfirmationRequest, 'summary' | 'package'>): string {
  const suffix = ` in ${req.package || 'the current app'}`;
  return req.summary.endsWith(suffix) ? req.summary.slice(0, -suffix.length) : req.summary;
}
