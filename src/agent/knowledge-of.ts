import type { Element } from '../core/types.js';
import { titleOf } from '../device/protocol/scroll-target.js';
import { type AppMap, elementLabel, KNOWLEDGE_VERSION, type Knowledge, type MapPage } from '../store/app-map.js';

/**
 * The compact knowledge of an app map (issue 25), kept to what a later run cannot see on its
 * screen: where a control leads (the page it opened and what that page holds, its further-down
 * part included), and a describer's words only when they say more than the label. Labels lose the
 * value they showed when explored ("Internet — HomeNet" → "Internet", "Brightness 57%" →
 * "Brightness"): a value read on another run is stale and misleads. A page is filed under the
 * package its snapshot belongs to: only the map's own app's pages are kept (Explore records no
 * foreign page; see explore.ts).
 */

/** At most this many names a page holds are kept (what a control opening it can show). */
const MAX_HOLDS = 16;

/** A control's name without its value, by the perception's title/value split (scroll_to's). */
export function recordedLabel(e: Element): string {
  return titleOf(elementLabel(e));
}

/** Words a describer writes that say nothing of their own ("opens or does …", "The … screen, with …"). */
const FILLER = new Set(
  (
    'a an the this that it its is are be to of for in on at by with and or not ' +
    'screen page view opens open does do tap tapping taps press long switches switch turns toggles on off ' +
    'field adjusts scrolls shows show button control item entry option here then from into set turn ' +
    'change make go find my me please what how'
  ).split(' '),
);

/** A text's words, lower case (letters and digits of any script). */
export const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether a word is the describer's filler (or a goal's: "open", "turn"): it names nothing. */
export const isFiller = (w: string): boolean => FILLER.has(w);

/**
 * Whether `text` says anything beyond `known` (what the screen shows anyway) and filler: a word
 * none of them has. A known word's start counts as known (a describer cuts long labels: "hot…").
 */
export function saysMore(text: string, known: readonly string[]): boolean {
  const have = [...new Set(known.flatMap(words))];
  return words(text).some((w) => !FILLER.has(w) && !have.some((h) => h.startsWith(w)));
}

/** A switch that shows its state as its text (Android's default textOn/textOff): the text is no name. */
const STATE_TEXT = /^(on|off)$/i;

/**
 * A control a page holds by name: one named by text (a row, a labelled button), not an icon by
 * its description or its id, nor a switch by its state; and not a name with a number in it, which
 * is a value as often as not ("Games 17 GB", a keypad's "1").
 */
function heldName(e: Element): string | undefined {
  if (!e.actionable || e.labelFromId || !(e.text || (e.label && e.label !== e.desc))) return undefined;
  if (e.flags.checkable && STATE_TEXT.test(elementLabel(e))) return undefined;
  const name = recordedLabel(e);
  return /\p{N}/u.test(name) ? undefined : name;
}

const unique = (xs: readonly (string | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))];

export function knowledgeOf(map: AppMap): Knowledge {
  const own = map.pages.filter((p) => p.package === map.app.package);
  const byId = new Map(own.map((p) => [p.id, p]));
  const opens = new Map<string, string>();
  const scrolled = new Map<string, string[]>();
  for (const t of map.transitions) {
    if (t.to === t.from || !byId.has(t.from) || !byId.has(t.to)) continue;
    if (t.event.kind === 'touch') opens.set(`${t.from}|${t.event.element}`, t.to);
    if (t.event.kind === 'scroll') scrolled.set(t.from, [...(scrolled.get(t.from) ?? []), t.to]);
  }
  /** The page's named controls, then those its list shows further down (the pages a scroll reached). */
  const holds = (p: MapPage, seen = new Set<string>()): string[] => {
    seen.add(p.id);
    const below = (scrolled.get(p.id) ?? []).filter((id) => !seen.has(id)).map((id) => byId.get(id) as MapPage);
    return unique([...p.elements.map(heldName), ...below.flatMap((q) => holds(q, seen))]);
  };
  return {
    version: KNOWLEDGE_VERSION,
    app: map.app,
    pages: own.map((p) => {
      const shown = [p.title, p.activity, p.package, ...p.elements.map(elementLabel)];
      const held = holds(p).slice(0, MAX_HOLDS);
      return {
        id: p.id,
        activity: p.activity,
        title: p.title,
        ...(p.description && saysMore(p.description, shown) ? { description: p.description } : {}),
        ...(held.length ? { holds: held } : {}),
        elements: p.elements.flatMap((e) => {
          const label = recordedLabel(e);
          const note = p.notes[e.id];
          const description = note && saysMore(note, [elementLabel(e)]) ? note : undefined;
          const to = opens.get(`${p.id}|${e.id}`);
          if (!label || (!description && !to)) return [];
          return [{ id: e.id, label, ...(description ? { description } : {}), ...(to ? { opens: to } : {}) }];
        }),
      };
    }),
  };
}
