import type { Action, Element, Expect, Observation } from '../core/types.js';
import { isLauncherPackage, labelScore, looksLikePackage, squashLabel } from '../device/app-label.js';
import { onlyTextAppeared } from '../perception/page-identity.js';
import { hiddenUnder } from '../perception/visibility.js';
import { elementName, stateMatches, stateMismatch } from './element-state.js';
import { frameChanged } from './frames.js';
import { findFieldIn } from './text-input.js';

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
function textPresent(o: Observation, s: string, skip?: (e: Element) => boolean): boolean {
  const needle = listedForm(s);
  if (!needle) return false;
  const has = (t: string | undefined) => t !== undefined && t !== '' && listedForm(t).includes(needle);
  return o.elements.some((e) => !skip?.(e) && (has(e.text) || has(e.desc) || has(e.label))) || o.texts.some(has);
}

/** Whether this action enters text into a field (typing, or setting or replacing its text). */
export function entersText(action: Action): boolean {
  return (
    action.tool === 'type' ||
    (action.tool === 'control_action' && ['set_text', 'replace_selection'].includes(String(action.args?.action)))
  );
}

/**
 * The field this action typed into, as it is on the page after: its text is the agent's own
 * input, so it is no evidence that the app answered (a search typed "Zed" shows "Zed" in the box
 * whether or not any contact matched).
 */
function typedField(action: Action, target: Element | undefined): ((e: Element) => boolean) | undefined {
  if (!entersText(action) || !target) return undefined;
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
function emptySearch(action: Action, target: Element | undefined, post: Observation): boolean {
  const own = typedField(action, target);
  if (!own || !target || !action.text) return false;
  return isSearchField(target) && !textPresent(post, action.text, own);
}

/**
 * The field this step typed into, on the post screen, when its id did not survive the typing (a web
 * form that numbers its fields anew as it re-renders): found as the text ladder reads it back.
 */
function fieldTypedInto(
  action: Action,
  target: Element | undefined,
  expect: Expect,
  post: Observation,
): Element | undefined {
  if (!target || !typedField(action, target) || (expect.target_id && expect.target_id !== target.id)) return undefined;
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
function nothingChanged(action: Action, target: Element | undefined, pre: Observation): string {
  const tapLike = action.tool === 'tap' || action.tool === 'long_press';
  const f = target?.flags;
  // A slider answers a tap by moving its thumb: it is not "not clickable".
  const slider = !!target?.range || target?.role === 'SeekBar';
  if (tapLike && target && f && !slider && !f.clickable && !f.longClickable && !f.editable && !f.checkable) {
    const parent = target.actionableAncestorId
      ? pre.elements.find((e) => e.id === target.actionableAncestorId)
      : undefined;
    const b = target.bounds;
    const inside = pre.elements.filter(
      (e) =>
        e !== target &&
        e.actionable &&
        e.flags.clickable &&
        e.bounds.left >= b.left &&
        e.bounds.right <= b.right &&
        e.bounds.top >= b.top &&
        e.bounds.bottom <= b.bottom,
    );
    const options = [
      ...(parent ? [`its clickable parent ${labelled(parent)}`] : []),
      ...inside.slice(0, 2).map((e) => `its clickable child ${labelled(e)}`),
    ];
    return `nothing changed: ${labelled(target)} is not clickable; tap ${options.length ? options.join(' or ') : 'the clickable element next to it'} instead`;
  }
  return 'nothing on the page changed after the action (input dropped, blocked by an overlay, or the wrong element)';
}

/**
 * `app_foreground` names the app by package, by a package prefix ("com.acme" for com.acme.bank), or
 * by the name a person uses ("Settings", "Acme") — the app window's title or the package's words.
 */
export function appMatches(named: string, post: Observation): boolean {
  const want = named.trim();
  const pkg = post.app.package;
  if (!want || !pkg) return false;
  if (pkg === want || pkg.startsWith(`${want}.`)) return true;
  if (looksLikePackage(want)) return false;
  const titles = post.windows.filter((w) => w.type === 'application' && w.package === pkg).map((w) => w.title);
  if ([post.app.title, ...titles].some((t) => t && squashLabel(t) === squashLabel(want))) return true;
  return labelScore(want, { package: pkg, activity: post.app.activity }) > 0;
}

/**
 * The names an action opened an app by: a launch_app's label or package, or the label of the
 * launcher icon it tapped ("时钟"). Labels are localized and a package name says nothing of them
 * (com.android.deskclock), so the name used to open the app is the evidence there is.
 */
function openedBy(action: Action, pre: Observation, target?: Element): string[] {
  if (action.tool === 'launch_app') return launchNames(action);
  const opens = action.tool === 'tap' || (action.tool === 'control_action' && action.args?.action === 'click');
  if (!opens || !target || !isLauncherPackage(pre.app.package)) return [];
  return [target.label, target.text, target.desc].filter((v): v is string => !!v);
}

/**
 * `app_foreground <name>` by the name the app was opened by (launch_app's label, the launcher
 * icon tapped): holds when that name is the one expected and a new app, not the launcher, came to
 * the front. One rule for both ways of opening an app.
 */
function openedByName(named: string, ev: { action: Action; pre: Observation; post: Observation; target?: Element }) {
  const want = squashLabel(named);
  if (!want || !openedBy(ev.action, ev.pre, ev.target).some((n) => squashLabel(n) === want)) return false;
  return ev.pre.app.package !== ev.post.app.package && !isLauncherPackage(ev.post.app.package);
}

export function isFocusLike(action: Action, target?: Element): boolean {
  if (['read_control', 'wait_until', 'wait', 'done', 'ask_user', 'infeasible'].includes(action.tool)) return true;
  if (action.tool === 'control_action' && ['focus', 'show_on_screen'].includes(String(action.args?.action)))
    return true;
  return action.tool === 'tap' && !!target?.flags.editable;
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

/** Whether the app a launch_app names (package, prefix or name) is the one in the foreground. */
function isForeground(action: Action, post: Observation): boolean {
  return launchNames(action).some((v) => appMatches(v, post));
}

/** The names a launch_app gave its app (package, label, text). */
function launchNames(action: Action): string[] {
  return [action.package, action.args?.package, action.args?.label, action.text].filter(
    (v): v is string => typeof v === 'string',
  );
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

export function validate(
  expect: Expect,
  pre: Observation,
  post: Observation,
  action: Action,
  target?: Element,
): Outcome {
  const signals: string[] = [];
  const unchanged = pageUnchanged(pre, post);
  if (pre.pageHash !== post.pageHash) signals.push('page_hash_changed');
  if (pre.app.package !== post.app.package) signals.push('app_changed');
  if (!pre.keyboard.shown && post.keyboard.shown) signals.push('keyboard_shown');
  if (hasLoadingIndicator(post)) signals.push('loading');
  if (target && !post.elements.some((e) => e.id === target.id)) signals.push('target_gone');
  const fail = (reason: string): Outcome => ({ ok: false, signals, reason, unchanged });
  if (emptySearch(action, target, post)) signals.push('only_in_typed_field');

  if (expect.kind === 'no_change')
    return unchanged ? { ok: true, signals, unchanged } : fail('the page changed although no change was expected');
  if (unchanged && expect.kind === 'element_state') {
    // Already in the wanted state (a field typed again after an interruption, a switch already
    // off): nothing had to change, and the goal of the step holds.
    const e = findState(post, expect.target_id ?? target?.id);
    if (e && expect.state && stateMatches(e, expect.state))
      return { ok: true, signals: [...signals, 'state_matches', 'already_in_state'], unchanged };
  }
  if (unchanged && action.tool === 'launch_app' && isForeground(action, post)) {
    // The app asked for is already in front (a run resumed after its launch reached the phone, or
    // a plan that opens the app on screen): there was nothing to change, and the step's goal holds.
    return { ok: true, signals: [...signals, 'already_in_app'], unchanged };
  }
  if (unchanged && !isFocusLike(action, target)) return fail(nothingChanged(action, target, pre));

  switch (expect.kind) {
    // The unchanged-page rule above is the whole check.
    case 'screen_changes':
      return { ok: true, signals, unchanged };
    case 'page_changes':
      if (onlyToastsChanged(pre, post, 'any')) return fail('only a toast came or went; the page itself did not change');
      if (!signals.includes('loading')) {
        const same = textOnlyChange(pre, post);
        if (same) return fail(same);
      }
      if (pre.pageHash !== post.pageHash || pre.app.package !== post.app.package)
        return { ok: true, signals, unchanged };
      if (signals.includes('loading')) return { ok: true, signals, unchanged };
      return fail('expected a new page, but the page hash is the same');
    case 'element_gone': {
      const id = expect.target_id ?? target?.id;
      if (!id) return fail('element_gone needs target_id');
      const still = post.elements.find((e) => e.id === id);
      if (still) return fail(`${labelled(still)} is still on the page`);
      // Perception drops what a window above covers: a dialog over a button is not the button gone.
      const was = pre.elements.find((e) => e.id === id) ?? (target?.id === id ? target : undefined);
      const cover = was && coveredOn(post, was);
      if (cover) return fail(`${labelled(was)} is not gone: ${cover} covers it; act on what is in front`);
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
      if (moved) return fail(`"${label}" is still on the page (it only moved)`);
      return { ok: true, signals: [...signals, 'element_gone'], unchanged };
    }
    case 'text_appears': {
      const t = expect.text ?? '';
      if (!textPresent(post, t)) return fail(`"${t}" is not on the page${lookalikes(post, t)}`);
      // The field just typed into holds the agent's own input: that is no evidence the app answered
      // (a search that matched nothing looks just like this). The field itself is element_state's.
      const own = typedField(action, target);
      if (own && !textPresent(post, t, own)) return fail(onlyInTypedField(t, target));
      signals.push('text_present');
      return { ok: true, signals, unchanged };
    }
    case 'element_state': {
      const id = expect.target_id ?? target?.id;
      const was = pre.elements.find((x) => x.id === id) ?? (target?.id === id ? target : undefined);
      const e =
        findState(post, id) ?? fieldTypedInto(action, target, expect, post) ?? (was && sameControl(was, pre, post));
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
        if (own && left)
          return {
            ok: true,
            signals: [...signals, 'not_checkable'],
            unchanged,
            notCheckable: NOT_CHECKABLE_PAGE_CHANGED,
          };
        return fail(`${was ? elementName(was) : `element ${id ?? '?'}`} is not on the page to check its state`);
      }
      if (!expect.state) return fail(`element_state needs a state for ${e.id}`);
      if (!stateMatches(e, expect.state)) return fail(stateMismatch(e, expect.state));
      signals.push('state_matches');
      return { ok: true, signals, unchanged };
    }
    case 'keyboard_shown':
      return post.keyboard.shown ? { ok: true, signals, unchanged } : fail('the keyboard is not shown');
    case 'frame_changes': {
      // A canvas (a map) has no tree to show a change: the screenshot is the evidence.
      const moved = frameChanged(pre, post);
      if (moved === undefined) return fail('frame_changes needs a screenshot before and after the action');
      // A small drawn view (a timeline's band) moves fewer hash bits than capture noise; what the
      // screen draws beside it (the timeline's readout) still shows the change in the tree.
      if (!moved && pageSignature(pre) === pageSignature(post))
        return fail('the screenshot did not change: the view ignored the gesture');
      // A dialog or banner that came up meanwhile changes the picture by itself, and may have taken
      // the gesture: the frame is then no evidence that the view moved.
      const popped = coveringWindows(post).filter((w) => !coveringWindows(pre).some((p) => p.id === w.id));
      if (popped.length)
        return fail(
          `a ${popped[0]?.type} ("${popped[0]?.title}") appeared over the screen: the changed frame proves nothing; deal with it and repeat the gesture`,
        );
      return { ok: true, signals: [...signals, 'frame_changed'], unchanged };
    }
    case 'app_foreground':
      if (appMatches(expect.package ?? '', post))
        return { ok: true, signals: [...signals, 'app_foreground'], unchanged };
      if (openedByName(expect.package ?? '', { action, pre, post, target }))
        return { ok: true, signals: [...signals, 'app_foreground', 'opened_by_label'], unchanged };
      return fail(`${post.app.package} is in the foreground, not ${expect.package}`);
  }
  return fail(`unknown expectation ${String(expect.kind)}`);
}
