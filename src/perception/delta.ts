import { lineId } from '../core/element-ref.js';
import type { Element, Observation } from '../core/types.js';
import {
  COMPACT_DEFAULTS,
  type CompactOptions,
  elementLine,
  headerLine,
  quote,
  stateOf,
  textLine,
  truncate,
} from './compact.js';
import { isKeyboardKey, keyboardLine, keyboardWindows } from './keyboard.js';

/**
 * State delta against the previous observation: what appeared, what went away, and what changed
 * state in place (same id: toggled, typed into, enabled, focused). Later steps can send this
 * instead of the whole list when the page is the same.
 */

export interface ElementChange {
  id: string;
  /** Label and state before / after (`"Wi-Fi" on`). */
  before: string;
  after: string;
  /** The label when it did not change: the compact line then names it once and shows only the states. */
  label?: string;
  /** The state words of each side (`stateOf`): the line shows only those that changed. */
  beforeStates?: string[];
  afterStates?: string[];
  element: Element;
}

export interface StateDelta {
  samePage: boolean;
  appChanged: boolean;
  keyboardChanged: boolean;
  added: Element[];
  removed: Element[];
  /** The ids in `removed` that were keys of a keyboard (one line, as when they came). */
  keysRemoved: string[];
  changed: ElementChange[];
  textsAdded: string[];
  textsRemoved: string[];
}

function stateKey(e: Element): string {
  const s = stateOf(e);
  if (e.label) s.unshift(JSON.stringify(e.label));
  return s.join(' ');
}

function sameLabel(a: Element, b: Element): { label?: string } {
  return a.label && a.label === b.label ? { label: a.label } : {};
}

/** What a state word's absence means: a field that lost focus is "not focused", not "—". */
const ABSENT: Record<string, string> = {
  focused: 'not focused',
  disabled: 'enabled',
};

/** A side of a change that shows no state: the states the other side has, negated. */
function absent(other: string): string {
  const words = other
    .split(' ')
    .map((w) => ABSENT[w] ?? (w.startsWith('=') ? 'empty' : undefined))
    .filter((w): w is string => !!w);
  return words.length ? words.join(' ') : 'no state';
}

/** The states of one side the other side does not have (`="Maya" focused` vs `="Maya"` → `focused`). */
const only = (a: readonly string[], b: readonly string[]) => a.filter((w) => !b.includes(w)).join(' ');

/** `~ [id] "Wi-Fi" on → off`: an unchanged label once, then the states that changed. */
function changeLine(c: ElementChange, maxLabel: number): string {
  if (c.label === undefined) return `~ [${c.id}] ${c.before} → ${c.after}`;
  const key = JSON.stringify(c.label);
  // A state both sides share is not news; what one side lacks is named by its opposite.
  const before =
    c.beforeStates && c.afterStates ? only(c.beforeStates, c.afterStates) : c.before.slice(key.length).trim();
  const after =
    c.beforeStates && c.afterStates ? only(c.afterStates, c.beforeStates) : c.after.slice(key.length).trim();
  return `~ [${c.id}] ${quote(truncate(c.label, maxLabel))} ${before || absent(after)} → ${after || absent(before)}`;
}

export function diffObservations(prev: Observation, next: Observation): StateDelta {
  const before = new Map(prev.elements.filter((e) => e.actionable).map((e) => [e.id, e]));
  const after = new Map(next.elements.filter((e) => e.actionable).map((e) => [e.id, e]));
  const added: Element[] = [];
  const changed: ElementChange[] = [];
  for (const [id, e] of after) {
    const old = before.get(id);
    if (!old) {
      added.push(e);
      continue;
    }
    const a = stateKey(old);
    const b = stateKey(e);
    if (a !== b)
      changed.push({
        id,
        before: a,
        after: b,
        beforeStates: stateOf(old),
        afterStates: stateOf(e),
        element: e,
        ...sameLabel(old, e),
      });
  }
  const removed = [...before.values()].filter((e) => !after.has(e.id));
  const prevKeyboard = keyboardWindows(prev);
  const prevTexts = new Set(prev.texts);
  const nextTexts = new Set(next.texts);
  return {
    samePage: prev.pageHash === next.pageHash,
    // Anything the header line shows but the keyboard: the app, its screen title, the screen's size and turn.
    appChanged:
      prev.app.package !== next.app.package ||
      prev.app.activity !== next.app.activity ||
      prev.app.title !== next.app.title ||
      prev.screen.w !== next.screen.w ||
      prev.screen.h !== next.screen.h ||
      prev.screen.rotation !== next.screen.rotation,
    keyboardChanged: prev.keyboard.shown !== next.keyboard.shown,
    added,
    removed,
    keysRemoved: removed.filter((e) => isKeyboardKey(e, prevKeyboard)).map((e) => e.id),
    changed,
    textsAdded: next.texts.filter((t) => !prevTexts.has(t)),
    textsRemoved: prev.texts.filter((t) => !nextTexts.has(t)),
  };
}

export function isEmptyDelta(d: StateDelta): boolean {
  return (
    d.added.length === 0 &&
    d.removed.length === 0 &&
    d.changed.length === 0 &&
    d.textsAdded.length === 0 &&
    d.textsRemoved.length === 0 &&
    !d.appChanged &&
    !d.keyboardChanged
  );
}

/**
 * The delta as compact text: the header, then `+` added lines (full element lines), `-` removed
 * ids with their labels, `~` changed state, and added/removed text.
 */
export function compactDelta(
  d: StateDelta,
  next: Observation,
  options: CompactOptions = {},
  /** What the delta is against, as the header names it ("previous", "revision 11"). */
  base = 'previous',
): string {
  const opts = { ...COMPACT_DEFAULTS, ...options };
  // On the same page the header would repeat what the client already has: only a keyboard change is news.
  const kbNote = d.keyboardChanged ? ` · keyboard ${next.keyboard.shown ? 'shown' : 'hidden'}` : '';
  // The same app screen with other elements (a row hidden by a switch) says so instead of repeating the header.
  const where = d.samePage ? 'same page' : 'same screen';
  const lines = [d.appChanged ? `${headerLine(next)} · delta vs ${base}` : `delta vs ${base}${kbNote} (${where})`];
  if (isEmptyDelta(d)) {
    lines.push('no change');
    return lines.join('\n');
  }
  // Keys come and go with the keyboard: one line for them (the header says whether it is shown).
  const kb = keyboardWindows(next);
  const keys = d.added.filter((e) => isKeyboardKey(e, kb));
  for (const e of d.added) if (!isKeyboardKey(e, kb)) lines.push(`+ ${elementLine(e, opts, e.id)}`);
  const k = keyboardLine(keys, (e) => lineId(e.id, opts.lean), opts.typeTool);
  if (k) lines.push(`+ ${k}`);
  // The keys that left with the keyboard are one line, as when they came.
  const keysGone = new Set(d.keysRemoved);
  if (keysGone.size > 0) lines.push(`- keyboard: ${keysGone.size} keys`);
  for (const e of d.removed) {
    if (keysGone.has(e.id)) continue;
    const label = e.label ?? (e.text || e.desc);
    lines.push(`- [${e.id}]${label ? ` "${truncate(label, opts.maxLabel)}"` : ''}`);
  }
  for (const c of d.changed) lines.push(changeLine(c, opts.maxLabel));
  const plus = textLine(d.textsAdded, opts);
  if (plus) lines.push(plus.replace(/^text:/, 'text+:'));
  const minus = textLine(d.textsRemoved, opts);
  if (minus) lines.push(minus.replace(/^text:/, 'text-:'));
  return lines.join('\n');
}
