import { rectWithin } from '../core/geometry.js';
import type { Action, Element, Expect, Observation } from '../core/types.js';
import { onlyTextAppeared } from '../perception/page-identity.js';
import { hiddenUnder } from '../perception/visibility.js';
import { entersText, mayChangeNothing, opensApp, touchPresses } from './act-kind.js';
import { appMatches, isForeground, openedByName } from './app-match.js';
import { elementName, stateMatches, stateMismatch } from './element-state.js';
import { frameChanged } from './frames.js';
import { hasLoadingIndicator, onlyToastsChanged, pageSignature, pageUnchanged, textPresent } from './page-compare.js';
import { findFieldIn } from './text-input.js';
import type { ExecutorToolSpec, ToolTable } from './tool-spec.js';

/**
 * The validator (DESIGN §5): `expect` is checked against the page before and after the action with
 * signals, not the model's word — target gone, page hash changed, expected text present, element
 * state, keyboard, foreground app, a loading indicator. An unchanged page after an action that
 * should change something is a failure (dropped input, a transparent overlay swallowing the tap).
 * Focus-like actions, which legitimately change nothing visible, are exempt from that rule.
 */

export interface Outcome {
  ok: boolean;
  /** The signals seen, e.g. ['page_hash_changed', 'text_present']. */
  signals: string[];
  /** Why it failed, in words a planner can act on. */
  reason?: string;
  /** The post-action page looked exactly like the pre-action page. */
  unchanged: boolean;
  /**
   * Set when the expectation could not be checked (`not checkable (page changed)`: its element went
   * with the page); ok then means only that the action was delivered, shown as `ok, not checked`.
   */
  notCheckable?: string;
}

/** Why an expectation on an element that left with its page was not checked (not a failure). */
export const NOT_CHECKABLE_PAGE_CHANGED = 'not checkable (page changed)';

/**
 * The field this action typed into, as it is on the page after: its text is the agent's own
 * input, so it is no evidence that the app answered (a search typed "Zed" shows "Zed" in the box
 * whether or not any contact matched).
 */
function typedField(c: Pick<Check, 'action' | 'spec' | 'target'>): ((e: Element) => boolean) | undefined {
  const { action, target } = c;
  if (!entersText(c.spec, action) || !target) return undefined;
  return (e) =>
    e.id === target.id ||
    (e.flags.editable && (e.flags.focused || (!!target.resourceId && e.resourceId === target.resourceId)));
}

const SEARCH_FIELD = /search|find|filter|搜索|查找|搜尋/i;

/** A field named as a search box (its label, hint, description or resource id says so). */
export function isSearchField(e: Element): boolean {
  return [e.label, e.hint, e.desc, e.resourceId].some((v) => !!v && SEARCH_FIELD.test(v));
}

/**
 * A search typed into its field whose text nothing else on the page shows (no row, no result):
 * whatever the expectation, the model is told each time (`only_in_typed_field`), not only when it
 * happened to expect text_appears — a relay player got the hint on its first empty search only.
 */
function emptySearch(c: Check): boolean {
  const { action, target, post } = c;
  const own = typedField(c);
  if (!own || !target || !action.text) return false;
  return isSearchField(target) && !textPresent(post, action.text, own);
}

/**
 * The field this step typed into, on the post screen, when its id did not survive the typing (a web
 * form that numbers its fields anew as it re-renders): found as the text ladder reads it back.
 */
function fieldTypedInto(c: Check): Element | undefined {
  const { target, expect, post } = c;
  if (!target || !typedField(c) || (expect.target_id && expect.target_id !== target.id)) return undefined;
  return findFieldIn(target, post.elements, (e) => ({
    editable: e.flags.editable,
    className: e.className,
    resourceId: e.resourceId,
    bounds: e.boundsPx,
  }));
}

const labelled = elementName;

/** A text_appears whose text is only the typed field's own: not met, and how to check the field itself. */
function onlyInTypedField(t: string, field: Element | undefined): string {
  const check = field ? `; to check the field itself expect element_state ${field.id} text=${t}` : '';
  return `"${t}" is only in the field just typed into: nothing else on the page shows it (no result matched?)${check}`;
}

const words = (t: string) => new Set(t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * What the page shows instead of an expected text: the (at most two) texts sharing the most words
 * with it, so "Cart (1)" not appearing says `it shows "Cart (0)"`; nothing when no text is alike.
 */
function lookalikes(o: Observation, wanted: string): string {
  const want = words(wanted);
  const seen = new Set<string>();
  const scored: { t: string; n: number }[] = [];
  for (const t of [...o.elements.flatMap((e) => [e.label ?? '', e.text, e.desc]), ...o.texts]) {
    if (!t || seen.has(t)) continue;
    seen.add(t);
    const n = [...words(t)].filter((w) => want.has(w)).length;
    if (n > 0) scored.push({ t, n });
  }
  const best = scored.sort((a, b) => b.n - a.n || a.t.length - b.t.length).slice(0, 2);
  if (!best.length) return '';
  const shown = best.map(({ t }) => JSON.stringify(t.length > 50 ? `${t.slice(0, 49)}…` : t));
  return ` (it shows ${shown.join(', ')})`;
}

/**
 * Why nothing changed, as far as the page tells: a tap on something that is not clickable (a row's
 * label, a heading) does nothing by design — the model should aim at the clickable thing around or
 * inside it; otherwise the input may have been dropped or covered.
 */
function nothingChanged(c: Check): string {
  const { action, target, pre } = c;
  const tapLike = touchPresses(c.spec, action);
  const f = target?.flags;
  // A slider answers a tap by moving its thumb: it is not "not clickable".
  const slider = !!target?.range || target?.role === 'SeekBar';
  if (tapLike && target && f && !slider && !f.clickable && !f.longClickable && !f.editable && !f.checkable) {
    const parent = target.actionableAncestorId
      ? pre.elements.find((e) => e.id === target.actionableAncestorId)
      : undefined;
    const b = target.bounds;
    const inside = pre.elements.filter(
      (e) => e !== target && e.actionable && e.flags.clickable && rectWithin(e.bounds, b),
    );
    const options = [
      ...(parent ? [`its clickable parent ${labelled(parent)}`] : []),
      ...inside.slice(0, 2).map((e) => `its clickable child ${labelled(e)}`),
    ];
    return `nothing changed: ${labelled(target)} is not clickable; tap ${options.length ? options.join(' or ') : 'the clickable element next to it'} instead`;
  }
  return 'nothing on the page changed after the action (input dropped, blocked by an overlay, or the wrong element)';
}

function coveringWindows(o: Observation) {
  return o.windows.filter((w) => ['dialog', 'system', 'notification', 'overlay'].includes(w.type));
}

/** What hides an element of an earlier read on `o` (`a dialog "Enjoying the app?"`), while its window is still there. */
function coveredOn(o: Observation, e: Element): string | undefined {
  const own = o.windows.find((w) => w.id === e.window);
  if (!own) return undefined;
  const screen = { left: 0, top: 0, right: o.screen.w, bottom: o.screen.h };
  const cover = hiddenUnder(e.boundsPx, own, o.windows, screen);
  if (!cover) return undefined;
  return cover.title ? `a ${cover.type} ("${cover.title}")` : `a ${cover.type}`;
}

function findState(o: Observation, id: string | undefined): Element | undefined {
  return id ? o.elements.find((e) => e.id === id) : undefined;
}

/**
 * The control `was` after a change of its own label (`"STOP SERVICE"` → `"START SERVICE"`): an id
 * follows the label, so the new one is another id. The same control is the one of the same role
 * and resource id at the same place (its positional fingerprint, or its bounds) on the same
 * activity, new on the page: after a navigation, another page's row at that place is not it.
 */
function sameControl(was: Element, pre: Observation, post: Observation): Element | undefined {
  if (pre.app.package !== post.app.package || pre.app.activity !== post.app.activity) return undefined;
  const place = was.place ?? was.id;
  const b = was.boundsPx;
  const candidates = post.elements.filter(
    (e) =>
      e.actionable === was.actionable &&
      e.role === was.role &&
      !pre.elements.some((p) => p.id === e.id) &&
      e.resourceId === was.resourceId &&
      ((e.place ?? e.id) === place ||
        (e.boundsPx.left === b.left &&
          e.boundsPx.top === b.top &&
          e.boundsPx.right === b.right &&
          e.boundsPx.bottom === b.bottom)),
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * A message on the same page — a failed login's "Wrong email or password" — is what the page says,
 * not a new page: `page_changes` fails and says what did appear (perception/page-identity.ts).
 */
function textOnlyChange(pre: Observation, post: Observation): string | undefined {
  const appeared = onlyTextAppeared(pre, post);
  if (!appeared) return undefined;
  const shown = appeared.slice(0, 2).map((t) => `"${t.length > 60 ? `${t.slice(0, 59)}…` : t}"`);
  return `still the same page: only text appeared (${shown.join(', ')}); read it: if it is what you wanted, expect text_appears next time`;
}

/**
 * Whether an expectation that needs no before holds on one screen (text, a state, the keyboard,
 * the app in front): a check that failed right after an action may hold a moment later. Those that
 * compare with the page before (page_changes, element_gone, no_change, frames) never do here.
 */
export function holdsOn(expect: Expect, o: Observation): boolean {
  switch (expect.kind) {
    case 'text_appears':
      return textPresent(o, expect.text ?? '');
    case 'element_state': {
      const e = findState(o, expect.target_id);
      return !!e && !!expect.state && stateMatches(e, expect.state);
    }
    case 'keyboard_shown':
      return o.keyboard.shown;
    case 'app_foreground':
      return appMatches(expect.package ?? '', o);
    default:
      return false;
  }
}

/** One check of an expectation: the two screens, what was done, and the signals seen so far. */
interface Check {
  expect: Expect;
  pre: Observation;
  post: Observation;
  action: Action;
  /** The action's tool, as the registry's table has it: what it does, not its name, is judged. */
  spec: ExecutorToolSpec | undefined;
  target?: Element;
  signals: string[];
  unchanged: boolean;
}

const pass = (c: Check, ...more: string[]): Outcome => ({
  ok: true,
  signals: more.length ? [...c.signals, ...more] : c.signals,
  unchanged: c.unchanged,
});
const failed = (c: Check, reason: string): Outcome => ({
  ok: false,
  signals: c.signals,
  reason,
  unchanged: c.unchanged,
});

/** `tools`: the registry's table, where the action's tool says what it does (./act-kind.ts). */
export function validate(
  tools: ToolTable,
  expect: Expect,
  pre: Observation,
  post: Observation,
  action: Action,
  target?: Element,
): Outcome {
  const spec = tools.get(action.tool);
  const signals = signalsOf(pre, post, target);
  const c: Check = { expect, pre, post, action, spec, target, signals, unchanged: false };
  c.unchanged = pageUnchanged(pre, post);
  if (emptySearch(c)) c.signals.push('only_in_typed_field');
  if (expect.kind === 'no_change')
    return c.unchanged ? pass(c) : failed(c, 'the page changed although no change was expected');
  if (c.unchanged) {
    const already = alreadyThere(c);
    if (already) return already;
    if (!mayChangeNothing(spec, action, target) && !inViewAlready(action, post)) return failed(c, nothingChanged(c));
  }
  const check = CHECKS[expect.kind];
  return check ? check(c) : failed(c, `unknown expectation ${String(expect.kind)}`);
}

/** What is seen on the two screens, whatever was expected. */
function signalsOf(pre: Observation, post: Observation, target: Element | undefined): string[] {
  const signals: string[] = [];
  if (pre.pageHash !== post.pageHash) signals.push('page_hash_changed');
  if (pre.app.package !== post.app.package) signals.push('app_changed');
  if (!pre.keyboard.shown && post.keyboard.shown) signals.push('keyboard_shown');
  if (hasLoadingIndicator(post)) signals.push('loading');
  if (target && !post.elements.some((e) => e.id === target.id)) signals.push('target_gone');
  return signals;
}

/**
 * A request to bring a row into view (the protocol's `target` selector: scroll_to) whose row was on
 * the screen already: nothing had to scroll, and the expectation's own check decides (it failed as
 * "nothing changed").
 */
function inViewAlready(action: Action, post: Observation): boolean {
  const text = (action.args?.target as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' && text !== '' && textPresent(post, text);
}

/** An unchanged page where nothing had to change: the step's goal already holds. */
function alreadyThere(c: Check): Outcome | undefined {
  const { expect, post, action, target } = c;
  if (expect.kind === 'element_state') {
    // Already in the wanted state (a field typed again after an interruption, a switch already
    // off): nothing had to change, and the goal of the step holds.
    const e = findState(post, expect.target_id ?? target?.id);
    if (e && expect.state && stateMatches(e, expect.state)) return pass(c, 'state_matches', 'already_in_state');
  }
  // The app asked for is already in front (a run resumed after its launch reached the phone, or
  // a plan that opens the app on screen): there was nothing to change, and the step's goal holds.
  if (opensApp(c.spec, action) === 'by_name' && isForeground(action, post)) return pass(c, 'already_in_app');
  return undefined;
}

function pageChanges(c: Check): Outcome {
  const { pre, post, signals } = c;
  if (onlyToastsChanged(pre, post, 'any'))
    return failed(c, 'only a toast came or went; the page itself did not change');
  if (!signals.includes('loading')) {
    const same = textOnlyChange(pre, post);
    if (same) return failed(c, same);
  }
  if (pre.pageHash !== post.pageHash || pre.app.package !== post.app.package) return pass(c);
  if (signals.includes('loading')) return pass(c);
  return failed(c, 'expected a new page, but the page hash is the same');
}

function elementGone(c: Check): Outcome {
  const { pre, post, target } = c;
  const id = c.expect.target_id ?? target?.id;
  if (!id) return failed(c, 'element_gone needs target_id');
  const still = post.elements.find((e) => e.id === id);
  if (still) return failed(c, `${labelled(still)} is still on the page`);
  // Perception drops what a window above covers: a dialog over a button is not the button gone.
  const was = pre.elements.find((e) => e.id === id) ?? (target?.id === id ? target : undefined);
  const cover = was && coveredOn(post, was);
  if (cover) return failed(c, `${labelled(was)} is not gone: ${cover} covers it; act on what is in front`);
  // Ids include bounds, so a control pushed up by the keyboard gets a new id: "gone" must mean
  // gone, not moved. The same actionable label, role and resource id still on screen → not gone.
  const label = was ? (was.label ?? (was.text || was.desc)) : undefined;
  const moved =
    was &&
    label &&
    post.elements.some(
      (e) =>
        e.actionable &&
        (e.label ?? (e.text || e.desc)) === label &&
        e.role === was.role &&
        e.resourceId === was.resourceId,
    );
  if (moved) return failed(c, `"${label}" is still on the page (it only moved)`);
  return pass(c, 'element_gone');
}

function textAppears(c: Check): Outcome {
  const { post, target } = c;
  const t = c.expect.text ?? '';
  if (!textPresent(post, t)) return failed(c, `"${t}" is not on the page${lookalikes(post, t)}`);
  // The field just typed into holds the agent's own input: that is no evidence the app answered
  // (a search that matched nothing looks just like this). The field itself is element_state's.
  const own = typedField(c);
  if (own && !textPresent(post, t, own)) return failed(c, onlyInTypedField(t, target));
  c.signals.push('text_present');
  return pass(c);
}

function elementState(c: Check): Outcome {
  const { expect, pre, post, target } = c;
  const id = expect.target_id ?? target?.id;
  const was = pre.elements.find((x) => x.id === id) ?? (target?.id === id ? target : undefined);
  const e = findState(post, id) ?? fieldTypedInto(c) ?? (was && sameControl(was, pre, post));
  if (!e) {
    // The acted-on element went with its page (a tap that navigated): the expectation asked
    // about a page that is gone (another app or activity, or its window closed), so it is not
    // checkable — not a failure of the action. Another element named (the audit's mis-hit), or
    // one missing from the same page, still fails.
    const own = !expect.target_id || expect.target_id === target?.id;
    const left =
      pre.app.package !== post.app.package ||
      pre.app.activity !== post.app.activity ||
      (!!was && pre.windows.some((w) => w.id === was.window) && !post.windows.some((w) => w.id === was.window));
    if (own && left) return { ...pass(c, 'not_checkable'), notCheckable: NOT_CHECKABLE_PAGE_CHANGED };
    return failed(c, `${was ? elementName(was) : `element ${id ?? '?'}`} is not on the page to check its state`);
  }
  if (!expect.state) return failed(c, `element_state needs a state for ${e.id}`);
  if (!stateMatches(e, expect.state)) return failed(c, stateMismatch(e, expect.state));
  c.signals.push('state_matches');
  return pass(c);
}

function frameChanges(c: Check): Outcome {
  const { pre, post } = c;
  // A canvas (a map) has no tree to show a change: the screenshot is the evidence.
  const moved = frameChanged(pre, post);
  if (moved === undefined) return failed(c, 'frame_changes needs a screenshot before and after the action');
  // A small drawn view (a timeline's band) moves fewer hash bits than capture noise; what the
  // screen draws beside it (the timeline's readout) still shows the change in the tree.
  if (!moved && pageSignature(pre) === pageSignature(post))
    return failed(c, 'the screenshot did not change: the view ignored the gesture');
  // A dialog or banner that came up meanwhile changes the picture by itself, and may have taken
  // the gesture: the frame is then no evidence that the view moved.
  const popped = coveringWindows(post).filter((w) => !coveringWindows(pre).some((p) => p.id === w.id));
  if (popped.length)
    return failed(
      c,
      `a ${popped[0]?.type} ("${popped[0]?.title}") appeared over the screen: the changed frame proves nothing; deal with it and repeat the gesture`,
    );
  return pass(c, 'frame_changed');
}

function appForeground(c: Check): Outcome {
  const { expect, pre, post, action, target } = c;
  if (appMatches(expect.package ?? '', post)) return pass(c, 'app_foreground');
  if (openedByName(expect.package ?? '', { action, opens: opensApp(c.spec, action), pre, post, target }))
    return pass(c, 'app_foreground', 'opened_by_label');
  return failed(c, `${post.app.package} is in the foreground, not ${expect.package}`);
}

/** Each expectation's own check, after the unchanged-page rule (no_change is decided before). */
const CHECKS: Partial<Record<Expect['kind'], (c: Check) => Outcome>> = {
  // The unchanged-page rule is the whole check.
  screen_changes: (c) => pass(c),
  page_changes: pageChanges,
  element_gone: elementGone,
  text_appears: textAppears,
  element_state: elementState,
  keyboard_shown: (c) => (c.post.keyboard.shown ? pass(c) : failed(c, 'the keyboard is not shown')),
  frame_changes: frameChanges,
  app_foreground: appForeground,
};
