import type { Action, Element, Observation } from '../core/types.js';
import { isLauncherPackage, labelScore, looksLikePackage, squashLabel } from '../device/app-label.js';

/** Which app is in front, by the names an expectation or a launch gave it (app_foreground). */

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

/** How an action opens an app, as its tool says (act-kind.ts `opensApp`): by name, or by a launcher icon it presses. */
export type Opens = 'by_name' | 'by_icon' | undefined;

/**
 * The names an action opened an app by: a launch's label or package, or the label of the launcher
 * icon it pressed ("时钟"). Labels are localized and a package name says nothing of them
 * (com.android.deskclock), so the name used to open the app is the evidence there is.
 */
function openedBy(action: Action, opens: Opens, pre: Observation, target?: Element): string[] {
  if (opens === 'by_name') return launchNames(action);
  if (opens !== 'by_icon' || !target || !isLauncherPackage(pre.app.package)) return [];
  return [target.label, target.text, target.desc].filter((v): v is string => !!v);
}

/**
 * `app_foreground <name>` by the name the app was opened by (a launch's label, the launcher
 * icon tapped): holds when that name is the one expected and a new app, not the launcher, came to
 * the front. One rule for both ways of opening an app.
 */
export function openedByName(
  named: string,
  ev: { action: Action; opens: Opens; pre: Observation; post: Observation; target?: Element },
) {
  const want = squashLabel(named);
  if (!want || !openedBy(ev.action, ev.opens, ev.pre, ev.target).some((n) => squashLabel(n) === want)) return false;
  return ev.pre.app.package !== ev.post.app.package && !isLauncherPackage(ev.post.app.package);
}

/** Whether the app a launch names (package, prefix or name) is the one in the foreground. */
export function isForeground(action: Action, post: Observation): boolean {
  return launchNames(action).some((v) => appMatches(v, post));
}

/** The names a launch gave its app (package, label, text). */
function launchNames(action: Action): string[] {
  return [action.package, action.args?.package, action.args?.label, action.text].filter(
    (v): v is string => typeof v === 'string',
  );
}
