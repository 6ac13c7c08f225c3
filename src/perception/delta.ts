import type { Element, Observation } from '../core/types.js';
import {
  COMPACT_DEFAULTS,
  type CompactOptions,
  elementLine,
  headerLine,
  stateOf,
  textLine,
  truncate,
} from './compact.js';

/**
 * State delta against the previous observation: what appeared, what went away, and what changed
 * state in place (same id: toggled, typed into, enabled, focused). Later steps can send this
 * instead of the whole list when the page is the same.
 */

export interface ElementChange {
  id: string;
  before: string;
  after: string;
  element: Element;
}

export interface StateDelta {
  samePage: boolean;
  appChanged: boolean;
  keyboardChanged: boolean;
  added: Element[];
  removed: Element[];
  changed: ElementChange[];
  textsAdded: string[];
  textsRemoved: string[];
}

function stateKey(e: Element): string {
  const s = stateOf(e);
  if (e.label) s.unshift(JSON.stringify(e.label));
  return s.join(' ');
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
    if (a !== b) changed.push({ id, before: a, after: b, element: e });
  }
  const removed = [...before.values()].filter((e) => !after.has(e.id));
  const prevTexts = new Set(prev.texts);
  const nextTexts = new Set(next.texts);
  return {
    samePage: prev.pageHash === next.pageHash,
    appChanged: prev.app.package !== next.app.package || prev.app.activity !== next.app.activity,
    keyboardChanged: prev.keyboard.shown !== next.keyboard.shown,
    added,
    removed,
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
export function compactDelta(d: StateDelta, next: Observation, options: CompactOptions = {}): string {
  const opts = { ...COMPACT_DEFAULTS, ...options };
  const lines = [`${headerLine(next)} · delta vs previous${d.samePage ? ' (same page)' : ''}`];
  if (isEmptyDelta(d)) {
    lines.push('no change');
    return lines.join('\n');
  }
  for (const e of d.added) lines.push(`+ ${elementLine(e, opts, e.id)}`);
  for (const e of d.removed) {
    const label = e.label ?? (e.text || e.desc);
    lines.push(`- [${e.id}]${label ? ` "${truncate(label, opts.maxLabel)}"` : ''}`);
  }
  for (const c of d.changed) lines.push(`~ [${c.id}] ${c.before} → ${c.after}`);
  const plus = textLine(d.textsAdded, opts);
  if (plus) lines.push(plus.replace(/^text:/, 'text+:'));
  const minus = textLine(d.textsRemoved, opts);
  if (minus) lines.push(minus.replace(/^text:/, 'text-:'));
  return lines.join('\n');
}
