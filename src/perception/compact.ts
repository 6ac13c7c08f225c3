import { impliedVerb, lineId, shortestPrefixes } from '../core/element-ref.js';
import { submitsOnEnter } from '../core/field-submit.js';
import { rectCenter } from '../core/geometry.js';
import { writeGridLine } from '../core/grid-line.js';
import { VALUE_NOT_READABLE, writeRange } from '../core/range-value.js';
import { writeSectionLine } from '../core/section-line.js';
import type { Element, Observation } from '../core/types.js';
import { humanizeRid, OBFUSCATED_RE, ridMeaning } from './control-labels.js';
import { cleanText } from './element-text.js';
import { isKeyboardKey, keyboardLine, keyboardWindows } from './keyboard.js';
import { listedVerb } from './listed-verb.js';
import { type LookAlikeGrid, lookAlikeGrids } from './look-alike-grid.js';
import { sectionHeads } from './section-heads.js';

/**
 * The compact observation the LLM reads (DESIGN §3): a header, one line per actionable element —
 * `id verb Class "label" state #resource-id-tail x,y` — and a truncated `text:` line. No XML, no
 * false booleans, no layout containers, short class names, normalized centres. The verb is left out
 * where the class implies it (core's IMPLIED_VERB: the legend the prompt states once), and a plain
 * view shows neither: `e7a "Continue" 540,860` is a tap. The lean listing writes ids bare; the full
 * one brackets them (`[e7a]`).
 */

export interface CompactOptions {
  /** Longest label shown (characters); longer labels end in "…". */
  maxLabel?: number;
  /** Longest single entry of the `text:` line. */
  maxTextItem?: number;
  /** Budget of the whole `text:` line (characters). */
  maxTextLine?: number;
  /** Show each id in full (8 hex + ordinal) instead of its shortest unique prefix. */
  fullIds?: boolean;
  /** Show the screen's size and aspect in the header (the agent's prompt states the aspect once, beside the fence). */
  screenSize?: boolean;
  /**
   * The lean listing (the agent's): a centre only where the label cannot place the control (no
   * label, a label that repeats, a slider, a drawn screen), and a resource id only where the label
   * does not name the control in words. Every control keeps its line.
   */
  lean?: boolean;
  /** Leave out the navigation bar's keys: the agent reaches them through back/home, and they cost tokens every step. */
  hideNavigationBar?: boolean;
  /** The tool the keyboard line points to for text (the agent's type tool; MCP's type_text). */
  typeTool?: string;
  /**
   * Show every resource id that names something, also where the label restates it: a client that
   * selects by resource id (MCP) must see the same ids whatever the phone's language — "WLAN" does
   * not restate `#wifi_switch` as "Wi-Fi" does.
   */
  everyResourceId?: boolean;
}

type LineOptions = Required<Omit<CompactOptions, 'hideNavigationBar' | 'screenSize' | 'typeTool'>> & {
  /** Lean listing: labels shown on more than one line (their lines keep a centre). */
  repeated?: ReadonlySet<string>;
  /** Lean listing on a drawn screen: every line keeps its centre (fingers act on pixels there). */
  drawn?: boolean;
  /** Lean listing: how many scroll containers the screen lists. */
  lists?: number;
  /** The control's nearest actionable ancestor (a list's row is tapped through its list). */
  ancestorOf?: (e: Element) => Element | undefined;
};

export const COMPACT_DEFAULTS: Required<CompactOptions> = {
  maxLabel: 40,
  maxTextItem: 40,
  maxTextLine: 320,
  fullIds: true,
  hideNavigationBar: false,
  screenSize: true,
  lean: false,
  typeTool: 'type',
  everyResourceId: false,
};

// East Asian wide characters (CJK, kana, Hangul, full-width forms) carry about a word each and
// cost about a token each: they count double, as a terminal does, so budgets are fair across scripts.
const WIDE_RE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/;

export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDE_RE.test(ch) ? 2 : 1;
  return w;
}

/** Cut to at most `max` display columns, ending in "…" when cut. */
export function truncate(s: string, max: number): string {
  if (s.length * 2 <= max || displayWidth(s) <= max) return s;
  let w = 0;
  let out = '';
  for (const ch of s) {
    const cw = WIDE_RE.test(ch) ? 2 : 1;
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out.trimEnd()}…`;
}

export function quote(s: string): string {
  return `"${s.replace(/"/g, "'")}"`;
}

/** `com.foo:id/btn_continue` → `btn_continue`. */
export function resourceTail(rid: string): string {
  const slash = rid.lastIndexOf('/');
  return slash >= 0 ? rid.slice(slash + 1) : rid;
}

function squash(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * What a resource id adds beyond the label: nothing when it only names a kind of view
 * (`#switch_widget`, `#button1`, `#list`: the class says it) or restates the label (`#wifi_switch`
 * on "Wi-Fi"). Obfuscated ids (a, b0, x1y) say nothing to a reader.
 */
function ridWorthShowing(tail: string, label: string, evenRestated = false): boolean {
  if (!tail || tail.length <= 2 || OBFUSCATED_RE.test(tail)) return false;
  const l = squash(label);
  // An unlabelled control keeps whatever its id says: it is all the line has.
  if (!l) return true;
  const words = ridMeaning(tail);
  if (evenRestated) return words.length > 0;
  return words.length > 0 && !l.includes(squash(tail)) && !words.every((w) => l.includes(squash(w)));
}

/** A label made from the id ("Scrim behind"), not the control's own words: the id itself is shown instead. */
function labelFromRid(e: Element, label: string | undefined): boolean {
  return label !== undefined && e.labelFromId === true && label === humanizeRid(e.resourceId);
}

export function stateOf(e: Element): string[] {
  const s: string[] = [];
  if (e.flags.checkable) s.push(e.flags.checked ? 'on' : 'off');
  // A value read off the screenshot is a percent of the track, to a pixel: shown as such.
  if (e.range?.fromFrame) s.push(`≈${fmtNum(e.range.current)}%`);
  else if (e.range) s.push(writeRange(e.range));
  else if (e.role === 'SeekBar') s.push(e.text ? truncate(e.text, 12) : VALUE_NOT_READABLE);
  if (e.flags.editable) {
    if (e.flags.password) s.push(e.filled ? `[password] filled (${e.filled} chars)` : '[password] empty');
    // A dump without hints (uiautomator, DroidBot) names a field by its own text, typed or the hint an
    // empty field reports: the label is that text, and the line claims neither (players read a
    // "(value or hint)" on every field over adb as noise, even after typing).
    // A multi-line value is one value, its breaks shown as ¶ (raw, it broke the listing's lines).
    else if (e.text && e.text !== e.hint && cleanText(e.text) !== e.label)
      s.push(`=${quote(truncate(cleanText(e.text), 30))}`);
  }
  if (!e.flags.enabled) s.push('disabled');
  if (e.flags.focused && e.flags.editable) s.push('focused');
  // Enter submits here (a search box): the one kind of field control_action's ime_enter is offered for.
  if (submitsOnEnter(e)) s.push('submits');
  if (e.flags.selected) s.push('selected');
  return s;
}

function fmtNum(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** The class a line shows: none for plain views and texts (they read as taps). */
export function shownRole(e: Pick<Element, 'role'>): string | undefined {
  return e.role === 'View' || e.role === 'Text' ? undefined : e.role;
}

/** A line without its id and centre, and whether the centre is shown. */
function lineBody(e: Element, opts: LineOptions): { parts: string[]; place: boolean } {
  const verb = listedVerb(e, opts.ancestorOf?.(e));
  const role = shownRole(e);
  const parts: string[] = [];
  // The legend: the class implies the verb; only a verb that differs is written.
  if (verb !== impliedVerb(role)) parts.push(verb);
  if (role) parts.push(role);
  const label = e.label ?? (e.text || e.desc);
  const tail = resourceTail(e.resourceId);
  // A label made from the id says no more than the id: the id alone is shown.
  const fromRid = labelFromRid(e, label);
  if (label && !fromRid) parts.push(quote(truncate(label, opts.maxLabel)));
  parts.push(...stateOf(e));
  // Lean: a label in words names the control; the id is for numbers, times and glyphs ("3:17" #clock).
  const named = label !== undefined && !fromRid && WORDS_RE.test(label);
  const worth = ridWorthShowing(tail, label ?? '', opts.everyResourceId);
  if (fromRid || (worth && !(opts.lean && named))) parts.push(`#${tail}`);
  return { parts, place: !opts.lean || placeNeeded(e, label, fromRid, opts) };
}

export function elementLine(e: Element, opts: LineOptions, shownId: string): string {
  const { parts, place } = lineBody(e, opts);
  if (place) {
    const c = rectCenter(e.bounds);
    parts.push(`${Math.round(c.x)},${Math.round(c.y)}`);
  }
  return [lineId(shownId, opts.lean), ...parts].join(' ');
}

/** What an unnamed control's line says besides its id and centre (a grid cell's look); none for a named one. */
function unnamedLook(e: Element, opts: LineOptions): string | undefined {
  const label = e.label ?? (e.text || e.desc);
  if (label && !labelFromRid(e, label)) return undefined;
  return lineBody(e, opts).parts.join(' ');
}

const WORDS_RE = /\p{L}{2}/u;

/**
 * Lean listing: where the line's order and label do not place the control, its centre does — a
 * control without a label, one of several with the same label, a slider (dragged to a point), any
 * control of a drawn screen.
 */
function placeNeeded(e: Element, label: string | undefined, fromRid: boolean, opts: LineOptions): boolean {
  if (opts.drawn || e.role === 'SeekBar' || e.range) return true;
  // The only list of a screen is "the list"; of several, each is placed.
  if (pureList(e)) return (opts.lists ?? 0) > 1;
  return !label || fromRid || (opts.repeated?.has(label) ?? false);
}

function pureList(e: Element): boolean {
  return e.flags.scrollable && !e.flags.clickable && !e.flags.editable && !e.flags.checkable;
}

/** Labels on more than one control line of the screen. */
function repeatedLabels(els: readonly Element[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const e of els) {
    const l = e.label ?? (e.text || e.desc);
    if (!l) continue;
    if (seen.has(l)) twice.add(l);
    seen.add(l);
  }
  return twice;
}

/** The id each element is listed by: its shortest prefix unique among all the screen's elements. */
export function shownIds(o: Pick<Observation, 'elements'>, shown: readonly string[]): Map<string, string> {
  return shortestPrefixes(
    shown,
    o.elements.map((e) => e.id),
  );
}

export function headerLine(o: Observation, opts: { screenSize?: boolean } = {}): string {
  const app = o.app.activity ? `${o.app.package}/${o.app.activity}` : o.app.package || '?';
  const title = o.app.title ? ` ${quote(truncate(o.app.title, 40))}` : '';
  const parts = [`app ${app}${title}`];
  if (opts.screenSize ?? true) parts.push(`${o.screen.w}x${o.screen.h} (${o.screen.aspect})`);
  // A hidden keyboard is the usual case: only a shown one is said.
  if (o.keyboard.shown) parts.push('keyboard shown');
  if (o.treeQuality !== 'ok')
    parts.push(
      `tree ${o.treeQuality}${o.visualFirst ? ' (visual-first: the app draws what the tree does not list)' : ''}`,
    );
  if (o.unstable) parts.push(`unstable: ${o.unstable}`);
  return parts.join(' · ');
}

/**
 * The `text:` line: quoted texts separated by spaces (a quote ends each). Entries are cut to
 * `maxTextItem` only when the line would not fit its budget uncut: a cut sentence costs the model a
 * `read` call, which is dearer than the columns it saves on a quiet page. A text whose resource id
 * says what it is (a readout `#current_time`, a watermark `#osd_watermark`) carries it, and a
 * selected one (the open tab) says so.
 */
export function textLine(
  texts: readonly string[],
  opts: Pick<LineOptions, 'maxTextItem' | 'maxTextLine'>,
  noteOf?: (text: string) => string | undefined,
): string | undefined {
  if (texts.length === 0) return undefined;
  const whole = textItems(texts, Number.POSITIVE_INFINITY, opts.maxTextLine, noteOf);
  const items = whole.more ? textItems(texts, opts.maxTextItem, opts.maxTextLine, noteOf).items : whole.items;
  return `text: ${items.join(' ')}`;
}

function textItems(
  texts: readonly string[],
  maxItem: number,
  budget: number,
  noteOf?: (text: string) => string | undefined,
): { items: string[]; more: boolean } {
  const items: string[] = [];
  let used = 0;
  let prev: string | undefined;
  for (const t of texts) {
    // The same text twice in a row says nothing new; the same value on two rows (a quantity of 1
    // on two cart lines) is two facts, and both stay.
    if (t === prev) continue;
    prev = t;
    const note = noteOf?.(t);
    const q = `${quote(Number.isFinite(maxItem) ? truncate(t, maxItem) : t)}${note ? ` ${note}` : ''}`;
    const w = displayWidth(q);
    if (used + w > budget) {
      items.push('…');
      return { items, more: true };
    }
    items.push(q);
    used += w + 1;
  }
  return { items, more: false };
}

/**
 * The resource id a text of the `text:` line shows: its text element's, where the id says what the
 * text is and the text does not — texts without words (times, numbers, dates: a readout, a
 * watermark, a line total), since a text in words already says what it is.
 */
function textNotes(o: Observation): (text: string) => string | undefined {
  const byText = new Map<string, string>();
  for (const e of o.elements) {
    if (e.actionable || !e.label || byText.has(e.label)) continue;
    const tail = resourceTail(e.resourceId);
    const notes: string[] = [];
    if (!WORDS_RE.test(e.label) && ridWorthShowing(tail, e.label) && ridMeaning(tail).length > 0)
      notes.push(`#${tail}`);
    // The selected tab is often not tappable (it is already open): its text keeps the state.
    if (e.flags.selected) notes.push('selected');
    if (notes.length) byText.set(e.label, notes.join(' '));
  }
  return (t) => byText.get(t);
}

export function compactView(o: Observation, options: CompactOptions = {}): string {
  const opts = { ...COMPACT_DEFAULTS, ...options };
  const bars = opts.hideNavigationBar
    ? new Set(o.windows.filter((w) => w.type === 'navigation_bar').map((w) => w.id))
    : undefined;
  const kb = keyboardWindows(o);
  const actionable = o.elements.filter((e) => e.actionable && !bars?.has(e.window) && !isKeyboardKey(e, kb));
  const keys = o.elements.filter((e) => isKeyboardKey(e, kb));
  const shown = opts.fullIds
    ? undefined
    : shownIds(
        o,
        [...actionable, ...keys].map((e) => e.id),
      );
  const lines = [headerLine(o, opts)];
  const byId = new Map(o.elements.map((e) => [e.id, e]));
  const ancestorOf = (e: Element) => (e.actionableAncestorId ? byId.get(e.actionableAncestorId) : undefined);
  const lineOpts: LineOptions = opts.lean
    ? {
        ...opts,
        ancestorOf,
        repeated: repeatedLabels(actionable),
        drawn: o.visualFirst === true || o.treeQuality !== 'ok',
        lists: actionable.filter(pureList).length,
      }
    : { ...opts, ancestorOf };
  const idOf = (e: Element) => lineId(shown?.get(e.id) ?? e.id, opts.lean);
  // A grid of look-alike cells is one line, where its first cell would be; every cell keeps its id.
  const grids = lookAlikeGrids(actionable, (e) => unnamedLook(e, lineOpts));
  const gridOf = new Map(grids.flatMap((g) => g.rows.flat().map((e) => [e, g] as const)));
  const written = new Set<LookAlikeGrid>();
  // A list's section header stands above its first row (not in the footer, out of place).
  const heads = sectionHeads(o, new Set(actionable));
  for (const e of actionable) {
    const g = gridOf.get(e);
    const head = heads.get(e);
    if (head !== undefined && !(g && written.has(g)))
      lines.push(writeSectionLine(quote(truncate(head, opts.maxLabel))));
    if (!g) lines.push(elementLine(e, lineOpts, shown?.get(e.id) ?? e.id));
    else if (!written.has(g)) {
      written.add(g);
      lines.push(writeGridLine({ ...g, rows: g.rows.length, ids: g.rows.map((r) => r.map(idOf)) }));
    }
  }
  const k = keyboardLine(keys, idOf, opts.typeTool);
  if (k) lines.push(k);
  // The header quotes the title already (the toolbar's text): the text line does not repeat it.
  const title = o.app.title ? truncate(o.app.title, 40) : undefined;
  const headers = new Set(heads.values());
  const t = textLine(
    o.texts.filter((x) => x !== title && !headers.has(x)),
    opts,
    textNotes(o),
  );
  if (t) lines.push(t);
  return lines.join('\n');
}
