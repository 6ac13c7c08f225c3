/**
 * How perception writes a text it read (one space for any run of blanks, a visible mark for a line
 * break), and the text that goes into an element's fingerprint.
 */

const WS_RE = /\s+/g;
const BREAK_RE = /\s*\n\s*/g;
/** How a line break inside a text is listed: a visible mark, so "Medium Latte ¶ Large Coconut Latte" reads as two lines. */
export const LINE_BREAK = ' ¶ ';

export function cleanText(s: string): string {
  return s.trim().replace(BREAK_RE, LINE_BREAK).replace(WS_RE, ' ');
}

const STATE_WORD_RE = /\s+(?:ON|OFF)$/;

/** "Show a grid OFF" → "Show a grid": the state Android's switches append to their text. */
export function withoutStateWord(text: string): string {
  return text.replace(STATE_WORD_RE, '');
}

/**
 * The text that goes into a fingerprint: a control's own text, or its label when it has none. An
 * edit field contributes none: its text is what the user typed (or its hint, which uiautomator
 * drops once there is a value), and typing must not change which field it is.
 */
export function fingerprintText(e: { actionable: boolean; editable: boolean; text: string; label?: string }): string {
  if (!e.actionable) return cleanText(e.text);
  if (e.editable) return '';
  // Toggling a switch whose text carries its state must not make it another control.
  return withoutStateWord(cleanText(e.text)) || (e.label ?? '');
}
