/**
 * scroll_to's target (helper/PROTOCOL.md §7, scroll_to): how it matches, what a receipt says of it.
 *
 * `target_match: "title"`: a row is asked for as a listing shows it ("Bluetooth — Connected",
 * "Sourdough ¥18", "Team offsite — 10:00…") or by its title alone ("Bluetooth"), while one node of
 * the row may hold the whole line ("Bluetooth, Connected") or only its title. A text matches a
 * node's by title when both have the same title: the text up to the first separator a row puts
 * after its title, a cut's "…" dropped, and a trailing price or count removed (a bare number is
 * part of a title: "iPhone 15"). A cut text ("Team offs…") matches a title that begins with it. The
 * helper's Java mirrors this (Titles.java); both run the cases of helper/conformance/title-cases.json.
 */

export const TARGET_MATCHES = ['exact', 'title'] as const;
export type TargetMatch = (typeof TARGET_MATCHES)[number];

/**
 * What a row prints after its title: the separators perception joins a row's texts with (" — ",
 * " · ", " ¶ "), a summary's comma (", ", "，", "、"), a dash, a bar, a colon, a new line.
 */
const AFTER_TITLE = / — | – | · | ¶ | \| |, |，|、|; |；|: |：|\n/u;
/** Spaces spelled out (not \s, whose meaning differs between JS and Java), so both sides trim alike. */
const WS = '[ \\t\\r\\n\\u00a0\\u2009\\u202f\\u3000]';
/** A price or a count printed beside the title: "¥18", "$4.50", "18元", "50%". */
const TRAILING_PRICE = new RegExp(`${WS}+(?:[¥$€£₩₹]${WS}?[0-9.,]+|[0-9.,]+${WS}?(?:%|[¥$€£元]))$`, 'u');
const EDGES = new RegExp(`^${WS}+|${WS}+$`, 'gu');
const CUT = /…$/u;

const trim = (s: string) => s.replace(EDGES, '');

/** A text's title (see above); the text itself, trimmed, when nothing is left of it. */
export function titleOf(text: string): string {
  const whole = text.replace(CUT, '');
  const first = trim(whole.split(AFTER_TITLE)[0] ?? whole);
  return trim(first.replace(TRAILING_PRICE, '')) || first || trim(text);
}

/** Whether a node's text (or description) answers the wanted one by title. */
export function titleMatches(actual: string, wanted: string): boolean {
  if (actual === wanted) return true;
  const want = titleOf(wanted);
  if (!want || !actual) return false;
  const have = titleOf(actual);
  return CUT.test(wanted) ? have.startsWith(want) : have === want;
}

/** The selector fields a title match compares by title; every other field still matches exactly. */
interface Titled {
  text?: string;
  content_desc?: string;
}

/**
 * The nodes a target names: those matching it exactly; with `title`, when none does, those whose
 * text and description match it by title (and every other field exactly). An exact node always
 * wins, so a title never hides the row named in full.
 */
export function targetHits<N, S extends Titled>(
  nodes: readonly N[],
  target: S,
  how: {
    match: TargetMatch;
    exact: (n: N, s: S) => boolean;
    fields: (n: N) => { text: string; desc: string };
  },
): { hits: N[]; by: TargetMatch } {
  const exact = nodes.filter((n) => how.exact(n, target));
  if (exact.length > 0 || how.match === 'exact' || (target.text === undefined && target.content_desc === undefined))
    return { hits: exact, by: 'exact' };
  const { text, content_desc, ...rest } = target;
  const hits = nodes.filter((n) => {
    const f = how.fields(n);
    return (
      how.exact(n, rest as S) &&
      (text === undefined || titleMatches(f.text, text)) &&
      (content_desc === undefined || titleMatches(f.desc, content_desc))
    );
  });
  return { hits, by: 'title' };
}

/** A found node's label, as a receipt's `found` names it: its text, else its description. */
export function labelOfNode(f: { text: string; desc: string }): string {
  return f.text || f.desc;
}

/**
 * What a scroll_to that did not find its target adds about the list (its receipt's `list_end`), so a
 * model knows whether to search further or give up.
 */
export function listEndNote(listEnd: boolean): string {
  return listEnd
    ? 'the list ended there: the target is not in it this way'
    : 'the list goes on: scroll_to again to search further';
}
