import type { Action, Element, ErrorCode, Observation, Selector } from '../core/types.js';
import { ground } from './grounding.js';
import { resourceIdMatches, selectorFor } from './native-args.js';
import type { ExecutorToolSpec } from './tool-spec.js';

export { selectorFor };

/**
 * What an action is aimed at, resolved on the observation it was decided on: the element a tap
 * lands on, the field text goes into, the control a native selector names. The guard classifies
 * this element; the re-check re-reads it.
 */

export type Aim =
  | { ok: true; element?: Element; px?: { x: number; y: number }; needsConfirmation?: string; how?: string }
  | { ok: false; code: ErrorCode; message: string };

/** Exact AND match of a protocol selector on an observed element (bounds are not compared; a resource id as listed or in full). */
export function matchesSelector(e: Element, s: Selector): boolean {
  if (s.resource_id !== undefined && !resourceIdMatches(e.resourceId, s.resource_id)) return false;
  if (s.text !== undefined && e.text !== s.text) return false;
  if (s.content_desc !== undefined && e.desc !== s.content_desc) return false;
  if (s.class_name !== undefined && e.className !== s.class_name) return false;
  return true;
}

export function selectorTarget(obs: Observation, s: Selector | undefined): Element | undefined {
  if (!s) return undefined;
  const hits = obs.elements.filter((e) => matchesSelector(e, s));
  return hits.length === 1 ? hits[0] : undefined;
}

/** The selector inside a native tool's args (control_action / read_control / wait_until / scroll_to). */
export function nativeSelector(a: Action): Selector | undefined {
  const args = a.args ?? {};
  const s = (args.selector ?? args.target) as Selector | undefined;
  return s && typeof s === 'object' ? s : undefined;
}

/** The element a native selector names, if one: a read or a control action aims at it. */
export function aimBySelector(a: Action, obs: Observation): Aim {
  return { ok: true, element: selectorTarget(obs, nativeSelector(a)) };
}

/** A touch at an element or a point, grounded (DESIGN §5): where it lands and whether a person must confirm the snap. */
export function aimTouch(a: Action, obs: Observation): Aim {
  const g = ground(a, obs);
  if (!g.ok) return g;
  return { ok: true, element: g.element, px: g.px, needsConfirmation: g.needsConfirmation, how: g.how };
}

export function aimAt(spec: Pick<ExecutorToolSpec, 'aim'>, a: Action, obs: Observation): Aim {
  return (spec.aim ?? aimBySelector)(a, obs);
}
