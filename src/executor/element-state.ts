import type { Element } from '../core/types.js';
import { FRAME_VALUE_TOLERANCE } from '../perception/slider-frame.js';

/**
 * What `expect element_state <id> <state>` means on one element (DESIGN §3): on/off, enabled,
 * focused, selected, a value or text, and filled/empty. A password field is filled or empty by
 * perception's "filled (n chars)" count, never by its text (which is bullets, or the hint).
 */

/** Whether an edit field holds something: a password by its count, another field by its text. */
export function fieldFilled(e: Element): boolean {
  if (e.flags.password) return (e.filled ?? 0) > 0;
  // An empty field reports its hint as its text.
  return e.text.trim() !== '' && e.text !== e.hint;
}

/** `filled`, `filled (9 chars)` and `empty` name the same two states. */
function fillState(s: string): 'filled' | 'empty' | undefined {
  if (/^filled\b/.test(s)) return 'filled';
  if (s === 'empty') return 'empty';
  return undefined;
}

export function stateMatches(e: Element, state: string): boolean {
  const s = state.trim().toLowerCase();
  const f = e.flags;
  if (s === 'checked' || s === 'on') return f.checked;
  if (s === 'unchecked' || s === 'off') return f.checkable && !f.checked;
  if (s === 'enabled') return f.enabled;
  if (s === 'disabled') return !f.enabled;
  if (s === 'focused') return f.focused;
  if (s === 'selected') return f.selected;
  const fill = fillState(s);
  if (fill) return f.editable && fieldFilled(e) === (fill === 'filled');
  // A masked field's text is never compared: it is not what was typed.
  if (f.password) return false;
  const m = /^(?:text|value)\s*[=:]\s*(.*)$/.exec(state.trim());
  if (m) return e.text === m[1] || rangeIs(e, m[1] ?? '');
  return e.text === state;
}

/** A value read off the screenshot is a percent to a pixel: within the set_slider tolerance it holds. */
function rangeIs(e: Element, want: string): boolean {
  const r = e.range;
  if (!r) return false;
  if (String(r.current) === want) return true;
  const n = Number(want.replace(/%$/, ''));
  return !!r.fromFrame && Number.isFinite(n) && Math.abs(r.current - n) <= FRAME_VALUE_TOLERANCE;
}

/** An element's name in a failure note: its label and id. */
export function elementName(e: Element): string {
  return `"${e.label || e.text || e.desc || e.role}" [${e.id}]`;
}

const quoted = (t: string) => JSON.stringify(t.length > 60 ? `${t.slice(0, 59)}…` : t);

/** What the element shows of the state asked about: the value a check compared (`value=26`, `off`). */
function shownState(e: Element, state: string): string {
  const s = state.trim().toLowerCase();
  const f = e.flags;
  if (['on', 'off', 'checked', 'unchecked'].includes(s))
    return f.checkable ? (f.checked ? 'on' : 'off') : 'not a switch';
  if (s === 'enabled' || s === 'disabled') return f.enabled ? 'enabled' : 'disabled';
  if (s === 'focused') return 'not focused';
  if (s === 'selected') return 'not selected';
  if (/^value\s*[=:]/.test(s) && e.range)
    return `value=${e.range.current} (${e.range.fromFrame ? 'read off the screenshot' : `${e.range.min}..${e.range.max}`})`;
  if (/^value\s*[=:]/.test(s)) return `without a value (text=${quoted(e.text)})`;
  return `text=${quoted(e.text)}`;
}

/** Why an element is not in `state`, with what it shows instead, in words that say what to expect. */
export function stateMismatch(e: Element, state: string): string {
  const fill = fillState(state.trim().toLowerCase());
  const name = elementName(e);
  if (fill && !e.flags.editable) return `${name} is not a text field: it is never ${fill}`;
  if (fill === 'empty' && !e.flags.password && !e.hint)
    // No hint on the screen (a plain-ADB dump): the text may be the field's hint, shown as text.
    return `${name} shows ${quoted(e.text)}: typed text, or its hint shown as text (this screen names no hint); not known to be empty`;
  if (fill) {
    const now = fieldFilled(e) ? (e.flags.password ? `filled (${e.filled} chars)` : 'filled') : 'empty';
    return `${name} is ${now}, not ${fill}`;
  }
  if (e.flags.password)
    return `${name} is a password field: its text is never shown; expect element_state ${e.id} filled`;
  return `${name} is ${shownState(e, state)}, not ${state.trim()}`;
}
