import { rectCenter } from '../core/geometry.js';
import type { Element, Observation } from '../core/types.js';
import { humanizeRid } from './control-labels.js';
import { isKeyboardKey, keyboardLine, keyboardWindows } from './keyboard.js';
import { verbOf } from './roles.js';

/**
 * The compact observation the LLM reads (DESIGN §3): a header, one line per actionable element —
 * `[id] verb Class "label" state #resource-id-tail x,y` — and a truncated `text:` line. No XML, no
 * false booleans, no layout containers, short class names, normalized centres.
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
  /** Leave out the navigation bar's keys: the agent reaches them through back/home, and they cost tokens every step. */
  hideNavigationBar?: boolean;
}

type LineOptions = Required<Omit<CompactOptions, 'hideNavigationBar'>>;

export const COMPACT_DEFAULTS: Required<CompactOptions> = {
  maxLabel: 40,
  maxTextItem: 40,
  maxTextLine: 320,
  fullIds: true,
  hideNavigationBar: false,
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

/** What a resource id adds beyond the label: nothing when it only restates it. */
function ridWorthShowing(tail: string, label: string): boolean {
  if (!tail) return false;
  // Obfuscated ids (a, b0, x1y) say nothing to a reader.
  if (tail.length <= 2) return false;
  const t = squash(tail);
  const l = squash(label);
  return !(l && (l === t || l.includes(t)));
}

/** A label made from the id ("Scrim behind"), not the control's own words: the id itself is still shown. */
function labelFromRid(e: Element, label: string | undefined): boolean {
  if (!label || label === e.text || label === e.desc || label === e.hint) return false;
  return label === humanizeRid(e.resourceId);
}

export function stateOf(e: Element): string[] {
  const s: string[] = [];
  if (e.flags.checkable) s.push(e.flags.checked ? 'on' : 'off');
  // A value read off the screenshot is a percent of the track, to a pixel: shown as such.
  if (e.range?.fromFrame) s.push(`≈${fmtNum(e.range.current)}%`);
  else if (e.range) s.push(`${fmtNum(e.range.current)}/${fmtNum(e.range.max)}`);
  else if (e.role === 'SeekBar' && e.text) s.push(truncate(e.text, 12));
  if (e.flags.editable) {
    if (e.flags.password) s.push(e.filled ? `[password] filled (${e.filled} chars)` : '[password] empty');
    else if (e.text && e.text !== e.hint && e.text !== e.label) s.push(`=${quote(truncate(e.text, 30))}`);
  }
  if (!e.flags.enabled) s.push('disabled');
  if (e.flags.focused && e.flags.editable) s.push('focused');
  if (e.flags.selected) s.push('selected');
  return s;
}

function fmtNum(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

export function elementLine(e: Element, opts: LineOptions, shownId: string): string {
  const verb = verbOf(e);
  const parts = [`[${shownId}]`, verb];
  if (e.role !== 'View' && e.role !== 'Text') parts.push(e.role);
  const label = e.label ?? (e.text || e.desc);
  if (label) parts.push(quote(truncate(label, opts.maxLabel)));
  parts.push(...stateOf(e));
  const tail = resourceTail(e.resourceId);
  if (ridWorthShowing(tail, label ?? '') || labelFromRid(e, label)) parts.push(`#${tail}`);
  const c = rectCenter(e.bounds);
  parts.push(`${Math.round(c.x)},${Math.round(c.y)}`);
  return parts.join(' ');
}

/** Shortest prefix (≥ 4 hex) that is unique among the ids shown; ordinals stay attached. */
export function shortIds(ids: readonly string[], min = 4): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const [hex, ord] = id.split('~');
    let len = min;
    while (
      len < hex.length &&
      ids.some((o) => o !== id && o.split('~')[0].startsWith(hex.slice(0, len)) && o.split('~')[0] !== hex)
    )
      len++;
    out.set(id, ord === undefined ? hex.slice(0, len) : `${hex.slice(0, len)}~${ord}`);
  }
  return out;
}

export function headerLine(o: Observation): string {
  const app = o.app.activity ? `${o.app.package}/${o.app.activity}` : o.app.package || '?';
  const title = o.app.title ? ` ${quote(truncate(o.app.title, 40))}` : '';
  const parts = [`app ${app}${title}`, `${o.screen.w}x${o.screen.h} (${o.screen.aspect})`];
  parts.push(o.keyboard.shown ? 'keyboard shown' : 'keyboard hidden');
  if (o.treeQuality !== 'ok')
    parts.push(
      `tree ${o.treeQuality}${o.visualFirst ? ' (visual-first: the app draws what the tree does not list)' : ''}`,
    );
  if (o.unstable) parts.push(`unstable: ${o.unstable}`);
  return parts.join(' · ');
}

/**
 * The `text:` line. Entries are cut to `maxTextItem` only when the line would not fit its budget
 * uncut: a cut sentence costs the model a `read` call, which is dearer than the columns it saves on
 * a quiet page.
 */
export function textLine(texts: readonly string[], opts: LineOptions): string | undefined {
  if (texts.length === 0) return undefined;
  const whole = textItems(texts, Number.POSITIVE_INFINITY, opts.maxTextLine);
  const items = whole.more ? textItems(texts, opts.maxTextItem, opts.maxTextLine).items : whole.items;
  return `text: ${items.join(' · ')}`;
}

function textItems(texts: readonly string[], maxItem: number, budget: number): { items: string[]; more: boolean } {
  const items: string[] = [];
  let used = 0;
  let prev: string | undefined;
  for (const t of texts) {
    // The same text twice in a row says nothing new; the same value on two rows (a quantity of 1
    // on two cart lines) is two facts, and both stay.
    if (t === prev) continue;
    prev = t;
    const q = quote(Number.isFinite(maxItem) ? truncate(t, maxItem) : t);
    const w = displayWidth(q);
    if (used + w > budget) {
      items.push('…');
      return { items, more: true };
    }
    items.push(q);
    used += w + 3;
  }
  return { items, more: false };
}

export function compactView(o: Observation, options: CompactOptions = {}): string {
  const opts = { ...COMPACT_DEFAULTS, ...options };
  const bars = opts.hideNavigationBar
    ? new Set(o.windows.filter((w) => w.type === 'navigation_bar').map((w) => w.id))
    : undefined;
  const kb = keyboardWindows(o);
  const actionable = o.elements.filter((e) => e.actionable && !bars?.has(e.window) && !isKeyboardKey(e, kb));
  const keys = o.elements.filter((e) => isKeyboardKey(e, kb));
  const shown = opts.fullIds ? undefined : shortIds([...actionable, ...keys].map((e) => e.id));
  const lines = [headerLine(o)];
  for (const e of actionable) lines.push(elementLine(e, opts, shown?.get(e.id) ?? e.id));
  const k = keyboardLine(keys, (e) => shown?.get(e.id) ?? e.id);
  if (k) lines.push(k);
  const t = textLine(o.texts, opts);
  if (t) lines.push(t);
  return lines.join('\n');
}
