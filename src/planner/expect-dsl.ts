import type { Expect } from '../core/types.js';

/**
 * The model writes `expect` as one short line (`element_state 1a2b3c4d on`), which costs a few
 * tokens instead of a nested schema, and code turns it into the structured Expect of DESIGN §3.
 */

/** The expectations a model may write, as the prompt lists them. */
export const EXPECT_FORMS =
  'page_changes | element_gone <id> | text_appears <text> | element_state <id> <on|off|filled|empty|focused|value=N|text=S> | keyboard_shown | app_foreground <app name or package> | no_change';
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
      if (!rest) return { ok: false, error: 'expect element_gone needs an element id' };
      return { ok: true, value: { kind, target_id: rest.replace(/[[\]]/g, '').split(/\s+/)[0] } };
    }
    case 'text_appears': {
      const text = unquote(rest);
      if (!text) return { ok: false, error: 'expect text_appears needs the text' };
      return { ok: true, value: { kind, text } };
    }
    case 'element_state': {
      const [id, ...state] = rest.split(/\s+/);
      if (!id || state.length === 0) return { ok: false, error: 'expect element_state needs "<id> <state>"' };
      return { ok: true, value: { kind, target_id: id.replace(/[[\]]/g, ''), state: unquote(state.join(' ')) } };
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

export function formatExpect(e: Expect): string {
  switch (e.kind) {
    case 'element_gone':
      return `element_gone ${e.target_id ?? ''}`.trim();
    case 'text_appears':
      return `text_appears ${e.text ?? ''}`.trim();
    case 'element_state':
      return `element_state ${e.target_id ?? ''} ${e.state ?? ''}`.trim();
    case 'app_foreground':
      return `app_foreground ${e.package ?? ''}`.trim();
    default:
      return e.kind;
  }
}
