import type { Action, Element } from '../core/types.js';
import type { ExecutorToolSpec } from './tool-spec.js';

/**
 * What an action does, by its tool's spec (DESIGN §2: the executor names no tool; the registry's
 * tools say it of themselves). The guard, the validator, the audit and Explore ask these, one rule
 * each. A tool the table lacks is taken at its worst: it may change the phone and presses nothing
 * the guard could read.
 */
type Spec = Partial<ExecutorToolSpec> | undefined;

/** Dispatching it could change the phone's state (a dry run sends none of these; the guard judges them). */
export function mutates(spec: Spec): boolean {
  return !(spec?.terminal || spec?.readOnly);
}

/** It presses its target: the target's command words say what it does. */
export function presses(spec: Spec, a: Action): boolean {
  return !!spec?.presses?.(a);
}

/** A press by a touch at the target (a tap, a long press): not clickable means it did nothing by design. */
export function touchPresses(spec: Spec, a: Action): boolean {
  return !!spec?.touch && presses(spec, a);
}

/**
 * Aimed at no element it presses nothing (back, home, launching an app, scrolling a list to a
 * row), so the page's words are not judged: the tools Explore lets move about freely, for the
 * same reason (`explore: 'free'` is "moves about and presses nothing").
 */
export function pressesNothing(spec: Spec): boolean {
  return spec?.explore === 'free';
}

export function entersText(spec: Spec, a: Action): boolean {
  return !!spec?.entersText?.(a);
}

export function submits(spec: Spec, a: Action): boolean {
  return !!spec?.submits?.(a);
}

/**
 * It may rightly leave the page unchanged: it reads, waits or ends the run, or it focuses (a tap
 * on a field, a control brought on screen). Its unchanged page is not "nothing happened".
 */
export function mayChangeNothing(spec: Spec, a: Action, target?: Element): boolean {
  return !mutates(spec) || !!spec?.showsNothing?.(a, target);
}

/** How it opens an app, if it does: by the names it gives (a launch), or by the launcher icon it presses. */
export function opensApp(spec: Spec, a: Action): 'by_name' | 'by_icon' | undefined {
  return spec?.opensApp?.(a);
}
