/**
 * Element references as the model writes them, and the listing's shared legend of verbs. Defined
 * in core because three layers read them: perception writes the listing, the planner resolves the
 * ids a model sends back, and the reference model (which may import only core and the prompt's
 * format) reads the listing like a model.
 *
 * An element's id is its 8-hex fingerprint with an optional `~N` ordinal (DESIGN §3). The listing
 * shows the shortest prefix (≥ MIN_SHOWN_ID hex digits) that no other element of the same screen
 * shares; any longer prefix, or the full id, names the same element.
 */

export const MIN_SHOWN_ID = 3;

/** `[a1b]`, `a1b2c3d4`, `a1b2~1`: hex (MIN_SHOWN_ID..8 digits), optional ordinal, optional brackets. */
export const ELEMENT_REF_RE = /^\[?([0-9a-f]{3,8})(~\d+)?\]?$/i;

/**
 * The id at the start of a listing line: bare in the agent's lean listing (`e7a "Continue"`: the
 * brackets cost two tokens a line), bracketed in the full listing (MCP's observe, older run logs).
 */
export const LINE_ID_RE = /^\s*\[?([0-9a-f]{3,8}(?:~\d+)?)\]?(?=\s)/;

/** How a listing line writes its id: bare in the lean listing, else bracketed. */
export function lineId(shown: string, bare: boolean): string {
  return bare ? shown : `[${shown}]`;
}

export type RefResult =
  | { ok: true; id: string }
  | { ok: false; code: 'NOT_FOUND' | 'AMBIGUOUS' | 'INVALID_ARGUMENT'; message: string };

function split(id: string): [string, string | undefined] {
  const [hex = '', ord] = id.split('~');
  return [hex, ord];
}

/** The one id of `ids` that `ref` names: the id itself, or a prefix of exactly one (ordinal kept). */
export function resolveRef(ids: Iterable<string>, ref: string): RefResult {
  const m = ELEMENT_REF_RE.exec(ref.trim());
  if (!m) {
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `"${ref}" is not an element id (expected the id as listed, e.g. [e7a] or e7a3f2c1)`,
    };
  }
  const hex = (m[1] ?? '').toLowerCase();
  const ord = m[2]?.slice(1);
  const matches: string[] = [];
  for (const id of ids) {
    if (id === `${hex}${m[2] ?? ''}`) return { ok: true, id };
    const [h, k] = split(id);
    if (h.startsWith(hex) && k === ord) matches.push(id);
  }
  if (matches.length === 1 && matches[0] !== undefined) return { ok: true, id: matches[0] };
  if (matches.length > 1)
    return {
      ok: false,
      code: 'AMBIGUOUS',
      message: `"${ref}" matches ${matches.length} elements; use the id as listed`,
    };
  return {
    ok: false,
    code: 'NOT_FOUND',
    message: `no element "${ref}" on the current screen; re-read the observation`,
  };
}

/**
 * The shortest prefix of each id (≥ `min` hex digits) that no other id of `all` starts with;
 * ordinals stay attached. `all` is every id of the screen, so what is shown resolves against it.
 */
export function shortestPrefixes(
  shown: readonly string[],
  all: readonly string[],
  min = MIN_SHOWN_ID,
): Map<string, string> {
  const hexes = [...new Set(all.map((id) => split(id)[0]))].sort();
  const out = new Map<string, string>();
  for (const id of shown) {
    const [hex, ord] = split(id);
    // Sorted: the ids sharing the longest prefix with `hex` are its neighbours.
    const at = hexes.indexOf(hex);
    const common = (o: string | undefined) => {
      if (!o) return 0;
      let n = 0;
      while (n < hex.length && o[n] === hex[n]) n++;
      return n;
    };
    const need = Math.max(common(hexes[at - 1]), common(hexes[at + 1])) + 1;
    const len = Math.min(hex.length, Math.max(min, need));
    out.set(id, ord === undefined ? hex.slice(0, len) : `${hex.slice(0, len)}~${ord}`);
  }
  return out;
}

/** What acting on a listed element means. */
export type Verb = 'tap' | 'fill' | 'toggle' | 'slide' | 'scroll' | 'long';
export const VERBS: readonly Verb[] = ['tap', 'fill', 'toggle', 'slide', 'scroll', 'long'];

/**
 * The listing's legend: a line's class implies its verb, so the verb is written only where it
 * differs (a tappable list, a row that only scrolls). A line with neither verb nor class is a
 * tappable view.
 */
export const IMPLIED_VERB: Readonly<Record<string, Verb>> = {
  EditText: 'fill',
  Switch: 'toggle',
  CheckBox: 'toggle',
  Radio: 'toggle',
  SeekBar: 'slide',
  List: 'scroll',
};

export function impliedVerb(role: string | undefined): Verb {
  return (role && IMPLIED_VERB[role]) || 'tap';
}

/** A full id in the agent's own lines: bracketed (`tap [de60be04]`), or after an expectation's kind. */
const FULL_ID_IN_TEXT = /(\[|\b(?:element_state|element_gone|element) )([0-9a-f]{8}(?:~\d+)?)(?=\]|[\s,;:)]|$)/g;

/**
 * The agent's own lines (history, bans, notes) name elements by full id; the listing by the
 * shortest prefix unique on the screen. Each full id in `text` is written so the model reads one id
 * per element: an element on this screen (`ids`) as the listing shows it; one that is not, in the
 * form its line had when new (`forms`, idForms on the screen the step was decided on), lengthened
 * only where an id the listing shows (`listed`; all of `ids` when absent) starts with that form —
 * so a history id does not change from prompt to prompt because of elements the model never sees
 * (relay runs I and 5: `[a82b]` in one prompt, `[a82]` in the next, `a82` being a text node's too).
 */
export function asListedIds(
  text: string,
  ids: readonly string[],
  forms?: Readonly<Record<string, string>>,
  listed: readonly string[] = ids,
): string {
  const here = new Set(ids);
  return text.replace(FULL_ID_IN_TEXT, (all, lead: string, id: string) => {
    if (here.has(id)) {
      const shown = shortestPrefixes([id], [...ids, id]).get(id);
      return shown ? `${lead}${shown}` : all;
    }
    const need = shortestPrefixes([id], [...listed, id]).get(id);
    const first = forms?.[id];
    const form =
      first && need && first.length >= need.length && id.startsWith(first.split('~')[0] ?? '') ? first : need;
    return form ? `${lead}${form}` : all;
  });
}

/** The listed form of every full id in `texts` on a screen with `ids` (for asListedIds' `forms`). */
export function idForms(texts: readonly string[], ids: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const t of texts)
    for (const m of t.matchAll(FULL_ID_IN_TEXT)) {
      const id = m[2] ?? '';
      const shown = shortestPrefixes([id], [...ids, id]).get(id);
      if (shown && shown !== id) out[id] = shown;
    }
  return Object.keys(out).length ? out : undefined;
}
