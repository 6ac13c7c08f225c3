import type { Action, Element, Observation, Selector } from '../core/types.js';
import { resourceTail } from '../perception/compact.js';

/**
 * The model names elements by id; the helper protocol names them by selector. This turns a native
 * tool's planner args (act-native.ts) into protocol args on the observation the action was decided
 * on: the selector of the named element, scroll_to's container (the named list, or the scrollable
 * list on screen when none is named) and action_sequence members in protocol shape. A resource id
 * given as the listing shows it (`#menu`) is the full one on that observation (`com.foodshop:id/menu`).
 */

/**
 * A selector's resource id names an element's in full (`com.foo:id/menu`) or as the listing shows
 * it (`menu`, the part after the last "/"). One rule, for every selector resolved on our side.
 */
export function resourceIdMatches(actual: string | undefined, wanted: string): boolean {
  if (!actual) return false;
  return actual === wanted || (!wanted.includes('/') && resourceTail(actual) === wanted);
}

/** A selector with its listed (short) resource id made the full one the observation has, where exactly one does. */
export function fullSelector<T>(s: T, obs: Observation): T {
  if (!s || typeof s !== 'object') return s;
  const rid = (s as { resource_id?: unknown }).resource_id;
  if (typeof rid !== 'string' || rid.includes('/')) return s;
  const full = new Set(obs.elements.map((e) => e.resourceId).filter((r) => r && resourceIdMatches(r, rid)));
  return full.size === 1 ? { ...s, resource_id: [...full][0] } : s;
}

/** Every selector-valued field of a protocol request, made full on the observation. */
export function fullSelectors(args: Record<string, unknown>, obs: Observation): Record<string, unknown> {
  const out = { ...args };
  for (const k of ['selector', 'target', 'container']) if (out[k]) out[k] = fullSelector(out[k], obs);
  if (out.request && typeof out.request === 'object')
    out.request = fullSelectors(out.request as Record<string, unknown>, obs);
  return out;
}

/** Native tools may name their target by element id: the protocol selector is derived from it. */
export function selectorFor(e: Element): Selector {
  if (e.resourceId) return { resource_id: e.resourceId };
  if (e.text) return { text: e.text, class_name: e.className };
  if (e.desc) return { content_desc: e.desc, class_name: e.className };
  return { class_name: e.className };
}

const area = (e: Element) => (e.boundsPx.right - e.boundsPx.left) * (e.boundsPx.bottom - e.boundsPx.top);

function contains(outer: Element, inner: Element): boolean {
  const a = outer.boundsPx;
  const b = inner.boundsPx;
  return a.left <= b.left && a.top <= b.top && a.right >= b.right && a.bottom >= b.bottom;
}

/** A container selector that names exactly one node: its resource id, else its class and bounds. */
export function containerSelector(c: Element, obs: Observation): Selector {
  const s = selectorFor(c);
  const twins = obs.elements.filter(
    (e) => e.flags.scrollable && e.resourceId === c.resourceId && e.className === c.className,
  );
  return twins.length <= 1 && c.resourceId ? s : { class_name: c.className, bounds: c.boundsPx };
}

/**
 * The list scroll_to scrolls: the named element when it scrolls, else the smallest scrollable one
 * around it; with no name, the largest scrollable element of the focused window (the page's list).
 */
export function scrollContainer(obs: Observation, named?: Element): Element | undefined {
  const scrollables = obs.elements.filter((e) => e.flags.scrollable);
  if (named) {
    if (named.flags.scrollable) return named;
    return scrollables.filter((s) => contains(s, named)).sort((a, b) => area(a) - area(b))[0];
  }
  const focused = new Set(obs.windows.filter((w) => w.focused).map((w) => w.id));
  const inFocus = scrollables.filter((s) => focused.has(s.window));
  return (inFocus.length > 0 ? inFocus : scrollables).sort((a, b) => area(b) - area(a))[0];
}

export function byId(obs: Observation, id: unknown): Element | undefined {
  return typeof id === 'string' ? obs.elements.find((e) => e.id === id) : undefined;
}

/** The action with the protocol selector of the element its id names (kept when the args carry one). */
export function bindSelector(a: Action, obs: Observation): Action {
  const args = { ...(a.args ?? {}) };
  const el = byId(obs, a.target_id);
  if (!el || (args.selector && typeof args.selector === 'object')) return a;
  return { ...a, args: { ...args, selector: selectorFor(el) } };
}

/** The action with every selector in its args made full on the observation (a listed `#menu` → `com.foo:id/menu`). */
export function withFullSelectors(a: Action, obs: Observation): Action {
  return a.args ? { ...a, args: fullSelectors(a.args, obs) } : a;
}

export interface SequenceMember {
  /** The member's tool (control_action, wait_until, touch_gesture). */
  tool: string;
  /** What it does: the control op, `wait <condition>`, or the tool. */
  op: string;
  /** The element it acts on, by its id or its selector on this observation. */
  element?: Element;
}

/**
 * Whether a sequence member presses what it acts on: a click or long click, or a drawn gesture (its
 * op is the protocol's touch_gesture action). One rule for two readers: the guard judges these
 * members by their target's words, and a burst is cut before the first one the guard would hold
 * (agent/burst-stop.ts) — so the cut and the hold cannot disagree about what presses.
 */
export function memberPresses(m: SequenceMember): boolean {
  return m.op === 'click' || m.op === 'long_click' || m.op === 'touch_gesture';
}

/**
 * Whether an action is a sequence: its arguments carry members (`args.actions`, the protocol's
 * action_sequence request and the planner's shape of it alike). Decided by the data, so the
 * executor names no tool.
 */
export function isSequence(a: Action): boolean {
  return Array.isArray(a.args?.actions);
}

/** A sequence's members, in planner or protocol shape, with the elements they act on. */
export function sequenceMembers(a: Action, obs: Observation): SequenceMember[] {
  const members = isSequence(a) ? (a.args?.actions as unknown[]) : [];
  return members.map((m) => {
    const r = (m && typeof m === 'object' ? m : {}) as Record<string, unknown>;
    const args = (r.args ?? r.request ?? r) as Record<string, unknown>;
    const tool = String(r.tool ?? r.action ?? '?');
    // A member that names a condition waits for it (the only member with one): `wait stable`.
    const op = typeof args.condition === 'string' ? `wait ${args.condition}`.trim() : String(args.action ?? tool);
    const sel = (args.selector ?? {}) as { resource_id?: string; text?: string; content_desc?: string };
    const element =
      byId(obs, r.target_id) ??
      obs.elements.find(
        (x) =>
          (!!sel.resource_id && resourceIdMatches(x.resourceId, sel.resource_id)) ||
          (!!sel.text && x.text === sel.text) ||
          (!!sel.content_desc && x.desc === sel.content_desc),
      );
    return { tool, op, element };
  });
}
