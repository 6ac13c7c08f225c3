import type { Rect } from '../core/geometry.js';

/**
 * How a control is named from what perception has (DESIGN §4). A row made of texts reads them in
 * order, and a row whose texts sit on separate lines (a title over a body: a note, a settings
 * entry) separates them — "Gate code — Gate code 7351#, the side door sticks." — each text as written.
 */

/** A text inside a control, with where it is drawn (none for a zero-size title). */
export interface LabelPart {
  text: string;
  rect?: Rect;
}

/** A lower line than the part before: its top is at or below the middle of the one before. */
function belowOf(a: LabelPart | undefined, b: LabelPart): boolean {
  if (!a?.rect || !b.rect) return false;
  return b.rect.top >= (a.rect.top + a.rect.bottom) / 2;
}

/** The parts in reading order, each once; a new line starts with " — " (the first) or " · ". */
export function joinParts(parts: readonly LabelPart[], max = 200): string {
  const seen = new Set<string>();
  let out = '';
  let lines = 0;
  let prev: LabelPart | undefined;
  for (const p of parts) {
    if (seen.has(p.text)) continue;
    seen.add(p.text);
    const below = out !== '' && belowOf(prev, p);
    prev = p;
    if (out === '') {
      out = p.text;
    } else if (below) {
      // The body as the app wrote it, even when it repeats the title: it is data (a note's text is
      // what gets sent), and a shortened one was sent as the note (relay, NOTE-01).
      out += `${lines === 0 ? ' — ' : ' · '}${p.text}`;
      lines++;
    } else out += ` ${p.text}`;
    if (out.length >= max) break;
  }
  return out.slice(0, max);
}

/** The parts, each once, space-separated (a field's or a slider's inner texts). */
export function uniqueJoin(parts: readonly string[], max = 200): string {
  const seen = new Set<string>();
  const out: string[] = [];
  let len = 0;
  for (const p of parts) {
    if (seen.has(p)) continue;
    seen.add(p);
    out.push(p);
    len += p.length + 1;
    if (len >= max) break;
  }
  return out.join(' ').slice(0, max);
}

export function truncateWord(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A name for a control that has none of its own (no text, description, hint or visible text
 * inside): a settings row cut off at the screen's edge, a password field whose dump has no hint.
 * In order: text inside it that is not visible (clipped), then its resource id in words
 * (`btn_safety_center` → "Safety center"); obfuscated ids (`a`, `b0`) name nothing. Without
 * either, the line still shows its role.
 */

// Words that only say what kind of view it is (`btn_`, `iv_`, `tv_`, `item`): a prefix of them is
// dropped, and an id of nothing else names nothing.
const KIND_WORD =
  /^(btn|button|iv|img|image|imageview|tv|text|txt|textview|et|edit|cb|sw|ll|rl|fl|cl|layout|view|item|root|row|cell|content|container|main|icon|slider|seekbar|switch|toggle|checkbox|list|widget|background|bg|wrapper|frame|panel)$/i;

export const OBFUSCATED_RE = /resource_name_obfuscated/;

function ridWords(rid: string): string[] {
  const slash = rid.lastIndexOf('/');
  const tail = slash >= 0 ? rid.slice(slash + 1) : rid;
  return tail
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * The words of a resource id that say more than a kind of view (`switch_widget`, `button1`,
 * `list` say nothing; `wifi_switch` says "wifi"), for deciding whether the listing shows the id.
 */
export function ridMeaning(rid: string): string[] {
  // R8's stand-in for a stripped name (`0_resource_name_obfuscated`) names nothing.
  if (OBFUSCATED_RE.test(rid)) return [];
  return ridWords(rid)
    .map((w) => w.replace(/\d+$/, ''))
    .filter((w) => w.length > 2 && !KIND_WORD.test(w));
}

/** `com.foo:id/btn_safety_center` → "Safety center"; '' when the id says nothing. */
export function humanizeRid(rid: string): string {
  const words = ridWords(rid);
  while (words.length > 1 && KIND_WORD.test(words[0])) words.shift();
  if (words.length === 1 && KIND_WORD.test(words[0])) return '';
  // Obfuscated ids ("a", "b0", "5o7", "ggm") have no word of four letters.
  if (!words.some((w) => /^\p{L}{4,}$/u.test(w))) return '';
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A control or a free text as row labelling sees it: where it is drawn and which control holds it. */
export interface Placed {
  vis: Rect;
  owner: number;
}

/**
 * The free text on `d`'s row (its middle within the control's height, give or take a quarter),
 * nearest on one side within `reach` px: the name Android lays out beside a control as a sibling.
 */
export function rowLabel<T extends Placed>(
  d: Placed,
  labels: readonly T[],
  used: ReadonlySet<T>,
  side: 'left' | 'right',
  reach: number,
): T | undefined {
  const h = d.vis.bottom - d.vis.top;
  let best: T | undefined;
  let bestGap = reach;
  for (const l of labels) {
    if (l.owner !== d.owner || used.has(l)) continue;
    const mid = (l.vis.top + l.vis.bottom) / 2;
    const gap = side === 'right' ? l.vis.left - d.vis.right : d.vis.left - l.vis.right;
    if (mid < d.vis.top - h * 0.25 || mid > d.vis.bottom + h * 0.25 || gap < -4 || gap >= bestGap) continue;
    best = l;
    bestGap = gap;
  }
  return best;
}
