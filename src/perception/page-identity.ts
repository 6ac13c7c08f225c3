import type { Element, Observation } from '../core/types.js';
import { fingerprintText } from './element-text.js';

/**
 * Which page the phone shows, as the validator's `page_changes` means it (DESIGN §5): the app and
 * activity, and the page's controls — what they are and say, not where they sit (a keyboard moves
 * them) nor their state (a toggle is not a new page). The keyboard, toasts and the system bars are
 * not the page. A message appearing on the same page — "Wrong email or password" under a login form
 * — changes what the page says, but it is still the same page.
 */

const NOT_PAGE = new Set(['input_method', 'toast', 'status_bar', 'navigation_bar']);

function controlKey(e: Element): string {
  const text = fingerprintText({ actionable: true, editable: e.flags.editable, text: e.text, label: e.label });
  // A field is named by its hint or label: what was typed into it does not make another page.
  return `${e.role}|${e.resourceId}|${e.flags.editable ? (e.label ?? '') : text}`;
}

/** The page's controls, bounds-free and sorted: equal for the same page before and after an edit. */
export function pageControls(o: Observation): string {
  const outside = new Set(o.windows.filter((w) => NOT_PAGE.has(w.type)).map((w) => w.id));
  return o.elements
    .filter((e) => e.actionable && !outside.has(e.window))
    .map(controlKey)
    .sort()
    .join('\n');
}

function counts(texts: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of texts) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * The texts that appeared when nothing else about the page changed — same app, activity and
 * controls, and no text gone — else undefined (a new page, a scroll, a control that changed).
 */
export function onlyTextAppeared(pre: Observation, post: Observation): string[] | undefined {
  if (pre.app.package !== post.app.package || pre.app.activity !== post.app.activity) return undefined;
  if (pageControls(pre) !== pageControls(post)) return undefined;
  const before = counts(pre.texts);
  const after = counts(post.texts);
  for (const [t, n] of before) if ((after.get(t) ?? 0) < n) return undefined;
  const added: string[] = [];
  for (const [t, n] of after) if (n > (before.get(t) ?? 0)) added.push(t);
  return added.length > 0 ? added : undefined;
}
