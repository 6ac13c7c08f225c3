import { idForms } from '../core/element-ref.js';
import type { Action, Observation } from '../core/types.js';
import type { ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { PlannedStep } from '../planner/act-tool.js';
import type { LlmUsage } from '../planner/llm/client.js';
import { describeAction as describeWith } from '../planner/memory/signature.js';
import type { Planner } from '../planner/planner.js';
import type { HistoryEntry, Subgoal } from '../planner/prompt/types.js';
import { REGISTRY } from '../tools/index.js';
import type { Perceived } from './ports.js';
import type { Session } from './session.js';

/** Small pieces of the loop, kept apart so loop.ts reads as the DESIGN §1 sequence. */

/** The frame gate's decision: the screen has not changed while we wait, so wait again (no model call). */
export const GATE_WAIT: PlannedStep = {
  decision: {
    thought: 'screen unchanged; keep waiting',
    action: pause(1000),
    expect: { kind: 'no_change' },
  },
  subgoalDone: false,
};

import { fnvHex as hashText } from '../core/hash.js';
import { pause } from '../tools/wait.js';

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

/** A history line with the forms its ids had on the screen the step was decided on (asListedIds keeps them). */
export function onScreen(entry: HistoryEntry, obs: Observation): HistoryEntry {
  const texts = [entry.action, entry.expect, entry.note ?? ''];
  const ids = idForms(
    texts,
    obs.elements.map((e) => e.id),
  );
  return ids ? { ...entry, ids } : entry;
}

export function labelOf(obs: Observation, id?: string): string | undefined {
  if (!id) return undefined;
  const e = obs.elements.find((x) => x.id === id);
  return e ? (e.label ?? (e.text || e.desc)) || undefined : undefined;
}

/**
 * Whether the text typed into this target may be shown in the history: a known field that is no
 * password field. The run's credentials reach the model only as placeholders (agent/secrets.ts),
 * which typedText shows as they are; a password field's text is only ever counted.
 */
export function typedShown(obs: Observation, id: string | undefined): boolean {
  const e = id ? obs.elements.find((x) => x.id === id) : undefined;
  return !!e && !e.flags.password;
}

/**
 * An action as the model sent it (history, bans, resume notes), named on the screen it was decided
 * on: its target's label (or the one given), its typed text shown as typed unless the target is a
 * password field or not on that screen.
 */
export function describeOn(action: Action, obs: Observation, label = labelOf(obs, action.target_id)): string {
  return describeWith(action, REGISTRY.catalog, label, typedShown(obs, action.target_id));
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

/** A new plan from the screen `seen`: the run's plan, apps and last steps go with `reason` (a plan revised blind repeats them). */
export function replanOn(
  s: Session,
  seen: Perceived,
  reason: string,
): Promise<{ plan: Subgoal[]; current: number; usage: LlmUsage }> {
  const st = s.state;
  return replan(
    s.deps.planner,
    {
      goal: st.goal,
      plan: st.plan.map((p) => ({ ...p })),
      screen: seen.compact,
      aspect: seen.obs.screen.aspect,
      apps: s.run.apps,
      reason,
      history: st.history.slice(-5),
    },
    s.run.signal,
  );
}

/** What the person was asked about, without the app (`tap "Pay ¥18"`): the control, named for the model. */
export function askedAbout(req: Pick<ConfirmationRequest, 'summary' | 'package'>): string {
  const suffix = ` in ${req.package || 'the current app'}`;
  return req.summary.endsWith(suffix) ? req.summary.slice(0, -suffix.length) : req.summary;
}
