import type { Approval } from '../core/approval.js';
import type { Element, Observation, WindowInfo } from '../core/types.js';
import type { ConfirmationRequest, ConfirmCategory } from './guardrails/confirm.js';

/**
 * How far one consent reaches (CHANGES, issue 21): the user who approved "tap Delete" has approved
 * the deletion, and the app's own "Delete 1 item?" that the tap opens is part of it — asking again
 * is a second consent for one act. The reach is tight: the dialog must have appeared with the
 * approved action (not on screen when it was approved), in the same app over the same page, asking
 * for the same kind of act; it covers one tap there, and only until the run's next own action.
 */

export type { Approval };

/** Kinds an approval never carries over: an unsure aim, typed personal data. */
const PER_ACTION: ReadonlySet<string> = new Set<ConfirmCategory>(['ambiguous_target', 'personal_data']);
const DIALOG_TYPES: ReadonlySet<string> = new Set(['dialog', 'system', 'overlay']);

function dialogKey(w: WindowInfo, obs: Observation): string {
  // uiautomator dumps have no window titles: the dialog's texts name it then.
  const texts = obs.elements.filter((e) => e.window === w.id && !e.actionable).map((e) => e.text || e.desc);
  return `${w.package}|${w.title || texts.join(' · ')}`;
}

function dialogs(obs: Observation): string[] {
  return obs.windows.filter((w) => DIALOG_TYPES.has(w.type)).map((w) => dialogKey(w, obs));
}

/** The approval of `request`, given on `obs` at `step`, as it is remembered (and checkpointed). */
export function approvalOf(step: number, request: ConfirmationRequest, obs: Observation): Approval {
  return {
    step,
    summary: request.summary,
    categories: request.categories,
    package: obs.app.package,
    activity: obs.app.activity,
    dialogs: dialogs(obs),
  };
}

/**
 * Whether `approval` already covers a guarded tap on `target` asking for `categories`: a control in
 * a dialog the approved action opened, on the page it was approved on, for the same kind of act.
 */
export function covers(
  approval: Approval | undefined,
  ask: { categories: readonly string[]; package: string },
  obs: Observation,
  target: Element | undefined,
): boolean {
  if (!approval || !target || ask.categories.length === 0) return false;
  if (ask.categories.some((c) => PER_ACTION.has(c) || !approval.categories.includes(c))) return false;
  if (ask.package !== approval.package || obs.app.package !== approval.package) return false;
  if (obs.app.activity !== approval.activity) return false;
  const w = obs.windows.find((x) => x.id === target.window);
  if (!w || !DIALOG_TYPES.has(w.type) || w.package !== approval.package) return false;
  return !approval.dialogs.includes(dialogKey(w, obs));
}
