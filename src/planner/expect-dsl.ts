import { ELEMENT_REF_RE } from '../core/element-ref.js';
import type { Expect } from '../core/types.js';

/**
 * The model writes `expect` as one short line (`element_state 1a2b3c4d on`), which costs a few
 * tokens instead of a nested schema, and code turns it into the structured Expect of DESIGN §3.
 */

/**
 * The expectations a model may write, as the prompt lists them. An element's `[id]` may be left
 * out when it is the action's own target (`tap [1a2b3c4d]` expect `element_gone`): the history
 * writes them so, which keeps every line short.
 */
export const EXPECT_FORMS =
  'page_changes | element_gone [id] | text_appears <text> | element_state [id] <on|off|filled|empty|focused|value=N|text=S> | keyboard_shown | app_foreground <app> | no_change';
/** What a left-out `<id>` means; the expect line says it once (the listing's ids are bracketed too). */
export const OWN_TARGET_NOTE = '[id] left out = the target';

/** Judged by the screenshot alone: listed only where the screen is drawn (maps, canvases). */
export const FRAME_FORM = 'frame_changes (screenshot only: maps, canvases)';

export const EXPECT_HELP = `expect (one line): ${EXPECT_FORMS} | ${FRAME_FORM}`;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseExpect(line: string): ParseResult<Expect> {
  const s = line.trim();
  if (!s) return { ok: false, error: `expect is missing; ${EXPECT_HELP}` };
  const m = /^([a-z_]+)\s*(.*)$/s.exec(s);
  const kind = m?.[1] ?? '';
  const rest = (m?.[2] ?? '').trim();
  const unquote = (t: string) => t.replace(/^["'“”]+|["'“”]+$/g, '');
  switch (kind) {
    case 'page_changes':
    case 'keyboard_shown':
    case 'no_change':
    case 'frame_changes':
    case 'screen_changes':
      return { ok: true, value: { kind } };
    case 'element_gone': {
      // No id: the action's own target (parseAct checks the action has one).
      if (!rest) return { ok: true, value: { kind } };
      return { ok: true, value: { kind, target_id: rest.replace(/[[\]]/g, '').split(/\s+/)[0] } };
    }
    case 'text_appears': {
      const text = unquote(rest);
      if (!text) return { ok: false, error: 'expect text_appears needs the text' };
      return { ok: true, value: { kind, text } };
    }
    case 'element_state': {
      const [first = '', ...state] = rest.split(/\s+/);
      // `element_state on`: the action's own target.
      if (first && !ELEMENT_REF_RE.test(first)) return { ok: true, value: { kind, state: unquote(rest) } };
      if (!first || state.length === 0) return { ok: false, error: 'expect element_state needs "[id] <state>"' };
      return { ok: true, value: { kind, target_id: first.replace(/[[\]]/g, ''), state: unquote(state.join(' ')) } };
    }
    case 'app_foreground': {
      if (!rest) return { ok: false, error: "expect app_foreground needs the app's name or package" };
      // A label may have spaces ("Acme Bank"); a package never does.
      return { ok: true, value: { kind, package: unquote(rest) } };
    }
    default:
      return { ok: false, error: `unknown expect "${kind}"; ${EXPECT_HELP}` };
  }
}

/** An expectation as the model writes it; an element id equal to `own` (the action's target) is left out. */
export function formatExpect(e: Expect, own?: string): string {
  const id = e.target_id && e.target_id !== own ? ` ${e.target_id}` : '';
  switch (e.kind) {
    case 'element_gone':
      return `element_gone${id}`;
    case 'text_appears':
      return `text_appears ${e.text ?? ''}`.trim();
    case 'element_state':
      return `element_state${id} ${e.state ?? ''}`.trim();
    case 'app_foreground':
      return `app_foreground ${e.package ?? ''}`.trim();
    default:
      return e.kind;
  }
}
