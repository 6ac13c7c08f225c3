/**
 * Apps by the name a person uses, over adb. The launcher's apps come from the package manager
 * (`cmd package query-activities` for MAIN/LAUNCHER, one `pkg/.Activity` component a line); their
 * labels are resource strings adb cannot read, so a label is matched against the package's and
 * activity's own words ("Settings" → com.android.settings, "Clock" → com.android.deskclock). No
 * match, or two equally good ones, is an error that lists the launcher's packages to choose from.
 */

export const LAUNCHER_QUERY_ARGV = [
  'cmd',
  'package',
  'query-activities',
  '--brief',
  '-a',
  'android.intent.action.MAIN',
  '-c',
  'android.intent.category.LAUNCHER',
];

/** `monkey` ran but found nothing to start (it prints this and exits 252). */
export const MONKEY_ABORTED = /No activities found to run|monkey aborted/i;

import { type Component, launchName } from '../app-label.js';

export { type Component, looksLikePackage, matchLabel } from '../app-label.js';

const COMPONENT_RE = /^\s*([A-Za-z][\w]*(?:\.[\w]+)+)\/([\w.$]+)\s*$/;
const NAME_RE = /^\s*name=([\w.$]+)\s*$/;
const PKG_RE = /^\s*packageName=([\w.]+)\s*$/;

/** Components of `query-activities` output: `--brief` lines, or ActivityInfo name/packageName pairs. */
export function parseComponents(out: string): Component[] {
  const found = new Map<string, Component>();
  let name: string | undefined;
  for (const line of out.split('\n')) {
    const c = COMPONENT_RE.exec(line);
    if (c?.[1] && c[2]) found.set(c[1], { package: c[1], activity: c[2] });
    const n = NAME_RE.exec(line);
    if (n) name = n[1];
    const p = PKG_RE.exec(line)?.[1];
    if (p && name && !found.has(p))
      found.set(p, { package: p, activity: name.startsWith(p) ? name.slice(p.length) : name });
  }
  return [...found.values()];
}

/** The launcher's apps from `query-activities` output, each named so that `matchLabel` finds it again. */
export function launcherApps(out: string): { package: string; label: string; activity: string }[] {
  const all = parseComponents(out);
  return all.map((c) => ({ package: c.package, label: launchName(c, all), activity: c.activity }));
}
