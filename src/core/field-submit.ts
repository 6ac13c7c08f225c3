import type { Element } from './types.js';

/**
 * Whether a field takes the keyboard's enter as "submit" (issue 22): the IME action a search box
 * declares. Android lists ACTION_IME_ENTER on every focused editable, whatever its imeOptions, and
 * neither a helper's tree nor a dump carries imeOptions — so the tree's word for it is what the field
 * is: a search box (SearchView's field, a `search`/`query` id, a "Search…" hint or name). Elsewhere
 * enter does nothing or breaks a line (a note's body, a form's name field), and relay players who
 * were offered ime_enter there were told UNSUPPORTED or saw nothing happen. Where the device lists
 * the node's actions, ime_enter must be among them (the replay phone has no recorded enter: none).
 */

const SEARCH_CLASS = /SearchView|SearchAutoComplete/;
const SEARCH_WORD = /search|query|搜索|查找|检索|搜尋/i;

export function submitsOnEnter(
  e: Pick<Element, 'flags' | 'className' | 'resourceId' | 'hint' | 'label' | 'desc' | 'actions'>,
): boolean {
  if (!e.flags.editable || e.flags.password) return false;
  if (e.actions !== undefined && !e.actions.includes('ime_enter')) return false;
  const tail = e.resourceId.slice(e.resourceId.lastIndexOf('/') + 1);
  return (
    SEARCH_CLASS.test(e.className) ||
    SEARCH_WORD.test(tail) ||
    [e.hint, e.label, e.desc].some((s) => s !== undefined && SEARCH_WORD.test(s))
  );
}
