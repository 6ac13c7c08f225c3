import type { Observation } from '../core/types.js';
import { titleOf } from '../device/protocol/scroll-target.js';
import { elementLabel, type Knowledge, type KnowledgePage } from '../store/app-map.js';
import { isFiller, recordedLabel, saysMore, words } from './knowledge-of.js';

/**
 * What an app map taught about the screen in front of the agent (issue 25): only what the screen
 * does not show — where a control on it leads (`"Display" opens a page with Brightness level, Dark
 * theme, …`), what the page holds out of view, a describer's words that say more than the label.
 * The page is found by its hash, else by its activity (and title) with the most recorded controls on
 * screen; controls by id or by name without value. Lines naming a word of the goal come first.
 * Other pages cost the prompt nothing; a line that would only repeat a label is never written.
 */

/** At most this many lines a step, and this many names per line, each this long. */
const MAX_LINES = 6;
const MAX_NAMES = 4;
const NAME_CHARS = 28;

const clip = (s: string) => (s.length > NAME_CHARS ? `${s.slice(0, NAME_CHARS - 1).trimEnd()}…` : s);

/** The screen's controls: their names without values, by id, and every name with and without its value. */
function screenNames(obs: Observation): { ids: Map<string, string>; names: Set<string> } {
  const names = new Set<string>();
  for (const e of obs.elements) {
    names.add(elementLabel(e));
    names.add(recordedLabel(e));
  }
  return { ids: new Map(obs.elements.map((e) => [e.id, recordedLabel(e)])), names };
}

type Screen = ReturnType<typeof screenNames>;
type Recorded = KnowledgePage['elements'][number];

const named = (s: Screen, e: Recorded) => s.names.has(e.label) || s.names.has(titleOf(e.label));

/** The recorded control's name on the screen now (an id may stay while its text changed), if it is there. */
const nameOnScreen = (s: Screen, e: Recorded): string | undefined =>
  s.ids.get(e.id) || (named(s, e) ? titleOf(e.label) : undefined);

function pageFor(k: Knowledge, obs: Observation, s: Screen): KnowledgePage | undefined {
  const exact = k.pages.find((p) => p.id === obs.pageHash);
  if (exact) return exact;
  // Content that moved changes the hash: the same activity (and title), by the controls still there —
  // an activity hosting several pages (an editor and its file loader) is told apart by them.
  let best: { page: KnowledgePage; score: number } | undefined;
  for (const page of k.pages) {
    if (page.activity !== obs.app.activity || (page.title && page.title !== obs.app.title)) continue;
    const score =
      page.elements.filter((e) => nameOnScreen(s, e) !== undefined).length +
      (page.holds ?? []).filter((n) => s.names.has(n)).length;
    if (score > 0 && (!best || score > best.score)) best = { page, score };
  }
  return best?.page;
}

/** Names in goal order: those sharing a word with the goal first, then as listed. */
function byGoal(names: readonly string[], goal: ReadonlySet<string>): string[] {
  const hits = (n: string) => words(n).some((w) => goal.has(w));
  return [...names.filter(hits), ...names.filter((n) => !hits(n))];
}

function namesLine(names: readonly string[], goal: ReadonlySet<string>): string {
  const shown = byGoal(names, goal).slice(0, MAX_NAMES).map(clip);
  return `${shown.join(', ')}${names.length > MAX_NAMES ? ', …' : ''}`;
}

function pageLines(k: Knowledge, page: KnowledgePage, s: Screen, goal: ReadonlySet<string>): string[] {
  const where = `${k.app.label} › ${page.title || page.activity}`;
  const lines: string[] = [];
  const known = [page.title, page.activity, ...page.elements.map((e) => e.label)];
  const said = page.description && saysMore(page.description, known) ? page.description : undefined;
  for (const e of page.elements) {
    const label = nameOnScreen(s, e);
    if (label === undefined) continue;
    const note = e.description && saysMore(e.description, [e.label]) ? e.description : undefined;
    const to = e.opens && e.opens !== page.id ? k.pages.find((p) => p.id === e.opens) : undefined;
    const name = to ? to.title || to.activity : '';
    const holds = (to?.holds ?? []).filter((n) => n !== name && n !== label);
    const leads = !to
      ? ''
      : holds.length
        ? ` opens ${name === label ? 'a page with' : `${name}:`} ${namesLine(holds, goal)}`
        : name !== label
          ? ` opens ${name}`
          : '';
    if (leads || note) lines.push(`"${label}"${leads}${note ? `${leads ? ' —' : ':'} ${note}` : ''}`);
  }
  // What is out of view is told only of the content explored: every recorded control of the page on
  // screen by name (a page hash may stay when texts change) — another world's notes or alarms would
  // name ones not there.
  const out = (page.holds ?? []).filter((n) => !s.names.has(n));
  const same = page.elements.every((e) => !page.holds?.includes(e.label) || named(s, e));
  if (out.length && same) lines.push(`out of view (scroll): ${namesLine(out, goal)}`);
  const way = wayTo(k, page, s, goal);
  if (way) lines.unshift(way);
  if (!said && !lines.length) return [];
  const hits = (l: string) => words(l).some((w) => goal.has(w));
  // The page first (which page the lines are of), then the lines naming the goal.
  const ranked = [...lines.filter(hits), ...lines.filter((l) => !hits(l))];
  return [`${where}${said ? `: ${said}` : ''}`, ...ranked].slice(0, MAX_LINES);
}

/** The goal's own words (not filler; "Wi-Fi" is two short ones), to put the lines that name them first. */
function goalWords(goal: string): Set<string> {
  return new Set(words(goal).filter((w) => w.length >= 2 && !isFiller(w)));
}

/** How many taps deep `wayTo` looks (the first is a control on screen). */
const MAX_DEPTH = 3;

/**
 * Which page holds a control the goal names, when it is two or more taps away: the recorded taps
 * from a control on screen, breadth first (`way to "Wi-Fi": "Network & internet" › "Internet"`).
 * One tap away, the control's own line already names it.
 */
function wayTo(k: Knowledge, page: KnowledgePage, s: Screen, goal: ReadonlySet<string>): string | undefined {
  if (!goal.size) return undefined;
  const byId = new Map(k.pages.map((p) => [p.id, p]));
  const names = (n: string) => words(n).some((w) => goal.has(w));
  const seen = new Set([page.id]);
  let frontier = page.elements.flatMap((e) => {
    const label = nameOnScreen(s, e);
    return label !== undefined && e.opens ? [{ id: e.opens, path: [label] }] : [];
  });
  for (let depth = 1; depth <= MAX_DEPTH && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const n of frontier) {
      const p = byId.get(n.id);
      if (!p || seen.has(n.id)) continue;
      seen.add(n.id);
      const hit = (p.holds ?? []).find((h) => names(h) && !s.names.has(h));
      if (hit && depth >= 2) return `way to "${clip(hit)}": ${n.path.map((l) => `"${clip(l)}"`).join(' › ')}`;
      if (hit) continue;
      for (const e of p.elements) if (e.opens) next.push({ id: e.opens, path: [...n.path, e.label] });
    }
    frontier = next;
  }
  return undefined;
}

export function knowledgeLines(known: readonly Knowledge[] | undefined, obs: Observation, goal = ''): string[] {
  const s = screenNames(obs);
  for (const k of known ?? []) {
    if (k.app.package !== obs.app.package) continue;
    const page = pageFor(k, obs, s);
    if (page) return pageLines(k, page, s, goalWords(goal));
  }
  return [];
}
