import type { Action, Element, ErrorCode, Observation, Selector } from '../core/types.js';
import { findTimeline } from '../perception/timeline.js';
import { ground } from './grounding.js';
import { resourceIdMatches, selectorFor, withNativeSelector } from './native-args.js';

export { selectorFor, withNativeSelector };

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

export function aimAt(a: Action, obs: Observation): Aim {
  switch (a.tool) {
    case 'tap':
    case 'long_press': {
      const g = ground(a, obs);
      if (!g.ok) return g;
      return { ok: true, element: g.element, px: g.px, needsConfirmation: g.needsConfirmation, how: g.how };
    }
    case 'type': {
      if (a.text === undefined) return { ok: false, code: 'INVALID_ARGUMENT', message: 'type needs text' };
      let field: Element | undefined;
      if (a.target_id !== undefined || a.point) {
        const g = ground(a, obs);
        if (!g.ok) return g;
        field = g.element;
      } else field = obs.elements.find((e) => e.flags.editable && e.flags.focused);
      if (!field)
        return {
          ok: false,
          code: 'NOT_FOUND',
          message: 'no field to type into: give the target_id of an editable field, or focus one first',
        };
      if (!field.flags.editable)
        return {
          ok: false,
          code: 'NOT_EDITABLE',
          message: `"${field.text || field.desc || field.role}" is not an editable field; pick a field marked fill`,
        };
      return { ok: true, element: field };
    }
    case 'swipe': {
      if (a.target_id === undefined && !a.point) return { ok: true };
      const g = ground(a, obs);
      return g.ok ? { ok: true, element: g.element, px: g.px } : g;
    }
    case 'set_slider': {
      const e = a.target_id ? obs.elements.find((x) => x.id === a.target_id) : undefined;
      if (e && (e.role === 'SeekBar' || e.range)) return { ok: true, element: e };
      return {
        ok: false,
        code: e ? 'INVALID_ARGUMENT' : 'NOT_FOUND',
        message: e
          ? `"${e.label || e.role}" [${e.id}] is not a slider; set_slider takes a line marked slide`
          : `no slider with id ${a.target_id ?? '(none)'} on this screen: give the id of a line marked slide`,
      };
    }
    case 'seek_timeline': {
      const tl = findTimeline(obs, a.target_id);
      return tl
        ? { ok: true, element: tl }
        : {
            ok: false,
            code: 'NOT_FOUND',
            message: `no recording timeline${a.target_id ? ` with id ${a.target_id}` : ''} on this screen: give the timeline's id`,
          };
    }
    default:
      return { ok: true, element: selectorTarget(obs, nativeSelector(a)) };
  }
}
