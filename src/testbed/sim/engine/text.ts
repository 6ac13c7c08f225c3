import type { EditTextView } from '../kit/view.js';
import type { InputResult } from '../surface.js';
import type { Engine } from './engine.js';
import type { LaidNode } from './node.js';

/**
 * Editing a text field the way Android does: UTF-16 indices, a cursor/selection per field, inserts
 * at the cursor, and selections that must not split a surrogate pair (in `A😀B中文` the emoji is
 * [1,3]).
 */

export function editView(n: LaidNode): EditTextView | undefined {
  return n.view?.kind === 'edit' ? n.view : undefined;
}

function selectionOf(engine: Engine, n: LaidNode, value: string): { start: number; end: number } {
  const sel = (n.stateKey && engine.ui.selections.get(n.stateKey)) || n.selection;
  const len = value.length;
  if (!sel) return { start: len, end: len };
  const a = Math.min(len, Math.max(0, Math.min(sel.start, sel.end)));
  const b = Math.min(len, Math.max(0, Math.max(sel.start, sel.end)));
  return { start: a, end: b };
}

function commit(engine: Engine, n: LaidNode, value: string, cursor: number): void {
  const v = editView(n)!;
  v.onChange(value);
  if (n.stateKey) engine.ui.selections.set(n.stateKey, { start: cursor, end: cursor });
  engine.changed();
}

/** Replace the whole value (ACTION_SET_TEXT); the cursor goes to the end. */
export function setText(engine: Engine, n: LaidNode, text: string): void {
  commit(engine, n, text, text.length);
}

/** Insert at the cursor, replacing the selection (typing, IME commit, `input text`). */
export function insertText(engine: Engine, n: LaidNode, text: string): void {
  const v = editView(n)!;
  const { start, end } = selectionOf(engine, n, v.value);
  commit(engine, n, v.value.slice(0, start) + text + v.value.slice(end), start + text.length);
}

/** The delete key: remove the selection, or the code point before the cursor. */
export function deleteBackward(engine: Engine, n: LaidNode): void {
  const v = editView(n)!;
  const { start, end } = selectionOf(engine, n, v.value);
  if (start !== end) {
    commit(engine, n, v.value.slice(0, start) + v.value.slice(end), start);
    return;
  }
  if (start === 0) return;
  const low = v.value.charCodeAt(start - 1);
  const width = start >= 2 && low >= 0xdc00 && low <= 0xdfff && isHigh(v.value.charCodeAt(start - 2)) ? 2 : 1;
  commit(engine, n, v.value.slice(0, start - width) + v.value.slice(start), start - width);
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** True when UTF-16 index `i` falls between the halves of a surrogate pair. */
export function splitsSurrogate(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return false;
  const lo = s.charCodeAt(i);
  return isHigh(s.charCodeAt(i - 1)) && lo >= 0xdc00 && lo <= 0xdfff;
}

export function setSelection(engine: Engine, n: LaidNode, start: number, end: number): InputResult {
  const v = editView(n)!;
  const len = v.value.length;
  if (!Number.isInteger(start) || !Number.isInteger(end)) {
    return { ok: false, code: 'INVALID_ARGUMENT', message: 'selection indices must be integers (UTF-16 units)' };
  }
  if (start < 0 || end < 0 || start > len || end > len) {
    return {
      ok: false,
      code: 'OUT_OF_RANGE',
      message: `selection [${start},${end}] is outside the text (length ${len} in UTF-16 units)`,
    };
  }
  if (splitsSurrogate(v.value, start) || splitsSurrogate(v.value, end)) {
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `selection [${start},${end}] splits a surrogate pair; use UTF-16 indices on character boundaries`,
    };
  }
  if (n.stateKey) engine.ui.selections.set(n.stateKey, { start, end });
  engine.changed();
  return { ok: true };
}

export function replaceSelection(engine: Engine, n: LaidNode, text: string): InputResult {
  const v = editView(n)!;
  if (v.password) {
    return {
      ok: false,
      code: 'UNSUPPORTED',
      message: 'a password field does not expose its text; use set_text to replace the whole value',
    };
  }
  insertText(engine, n, text);
  return { ok: true };
}

/** `input text` accepts printable ASCII only, as Android's input command does. */
export function asciiProblem(text: string): string | undefined {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 0x7e || (c < 0x20 && c !== 0x0a && c !== 0x09)) {
      const cp = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
      return `input text supports ASCII only (found ${cp}); use set_text or the IME commit for Unicode text`;
    }
  }
  return undefined;
}
