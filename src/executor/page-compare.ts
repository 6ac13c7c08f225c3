import type { Element, Observation } from '../core/types.js';

/**
 * How two reads of the screen compare, and what text a page shows (the validator's and the
 * verifier's ground truth): the page signature, an unchanged page, toasts that came or went, a
 * loading indicator, and a text as the listing writes it.
 */

/** Everything visible about an element's state (fingerprints ignore checked/focus/value). */
function stateKey(e: Element): string {
  const f = e.flags;
  return `${e.id}:${f.checked ? 1 : 0}${f.focused ? 1 : 0}${f.selected ? 1 : 0}${f.enabled ? 1 : 0}:${e.text}:${e.range?.current ?? ''}:${e.filled ?? ''}`;
}

export function pageSignature(o: Observation): string {
  return `${o.pageHash}|${o.keyboard.shown ? 'kb' : ''}|${o.elements.map(stateKey).sort().join(',')}`;
}

export function pageUnchanged(pre: Observation, post: Observation): boolean {
  if (pre.frameHash && post.frameHash && pre.frameHash !== post.frameHash && pre.screenshot && post.screenshot)
    return false;
  return pageSignature(pre) === pageSignature(post) || onlyToastsChanged(pre, post, 'gone');
}

/** The page's own elements: a toast's text is not part of the page. */
function pageElements(o: Observation): Element[] {
  const toasts = new Set(o.windows.filter((w) => w.type === 'toast').map((w) => w.id));
  return o.elements.filter((e) => !toasts.has(e.window));
}

/**
 * Nothing but toasts changed between two reads of the same screen. A toast fading out is time
 * passing, never the action's effect (`gone`); one popping up is an effect, but not a new page (`any`).
 */
export function onlyToastsChanged(pre: Observation, post: Observation, which: 'gone' | 'any'): boolean {
  if (pre.app.package !== post.app.package || pre.app.activity !== post.app.activity) return false;
  if (pre.keyboard.shown !== post.keyboard.shown) return false;
  const key = (o: Observation) => pageElements(o).map(stateKey).sort().join(',');
  if (key(pre) !== key(post)) return false;
  const appeared = post.elements.length - pageElements(post).length;
  return which === 'any' || appeared === 0;
}

const LOADING = /^(Loading…?|Loading\.\.\.|加载中…?|正在加载…?)$/i;

/** An indeterminate spinner in the raw tree (perception drops it: it has no text and no action). */
export function snapshotLoading(snap: {
  nodes: { className: string; range?: unknown; flags: { visible: boolean } }[];
}): boolean {
  return snap.nodes.some((n) => n.flags.visible && /ProgressBar$/.test(n.className) && !n.range);
}

export function hasLoadingIndicator(o: Observation): boolean {
  return o.elements.some((e) => /ProgressBar/.test(e.role) && !e.range) || o.texts.some((t) => LOADING.test(t));
}

/**
 * A text as the listing shows it, for matching what a model copied from it: line breaks (¶) and
 * runs of space as one space, a cut's "…" dropped, quotes as the listing writes them, case folded.
 */
export function listedForm(s: string): string {
  return s
    .replace(/…$/, '')
    .replace(/\s*¶\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/"/g, "'")
    .trim()
    .toLowerCase();
}

/**
 * The text is on the page: in an element's text or description, in a label as listed (a row's
 * texts joined, "Team offsite — 10:00 – 11:00 · 60 minut…"), or in a text of the page.
 */
export function textPresent(o: Observation, s: string, skip?: (e: Element) => boolean): boolean {
  const needle = listedForm(s);
  if (!needle) return false;
  const has = (t: string | undefined) => t !== undefined && t !== '' && listedForm(t).includes(needle);
  return o.elements.some((e) => !skip?.(e) && (has(e.text) || has(e.desc) || has(e.label))) || o.texts.some(has);
}
