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

/** Why an element is not in `state`, in words that say what to expect instead. */
export function stateMismatch(e: Element, state: string): string {
  const fill = fillState(state.trim().toLowerCase());
  const name = `"${e.label || e.text || e.desc || e.role}" [${e.id}]`;
  if (fill && !e.flags.editable) return `${name} is not a text field: it is never ${fill}`;
  if (fill) {
    const now = fieldFilled(e) ? (e.flags.password ? `filled (${e.filled} chars)` : 'filled') : 'empty';
    return `${name} is ${now}, not ${fill}`;
  }
  if (e.flags.password)
    return `${name} is a password field: its text is never shown; expect element_state ${e.id} filled`;
  return `element ${e.id} is not "${state}"`;
}
