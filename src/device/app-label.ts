/**
 * An app named the way a person names it ("Settings", "Acme Bank") against a package and its
 * launcher activity: the name must be one of their own words (com.android.settings, DeskClock), or
 * all of them run together. Used to launch by label over adb and to check `app_foreground <name>`.
 */

export interface Component {
  package: string;
  activity: string;
}

/** A package name (`com.acme.bank`), as opposed to a label (`Settings`, `Acme Bank`). */
export function looksLikePackage(s: string): boolean {
  return /^[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+$/.test(s.trim());
}

const GENERIC = new Set(['com', 'org', 'net', 'io', 'android', 'google', 'apps', 'app', 'activity', 'main', 'ui']);
/** A name as compared: lower case, letters and digits only ("Acme Bank" = "acme-bank"). */
export const squashLabel = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function words(c: Component): string[] {
  const act = c.activity.split('.').pop() ?? '';
  return [...c.package.split('.'), act.replace(/Activity$/, '')]
    .map(squashLabel)
    .filter((w) => w.length > 0 && !GENERIC.has(w));
}

/** Two words of one stem ("messages" / "messaging"): a shared start of ≥ 5 letters, ≥ 70% of the shorter. */
function sameStem(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= 5 && i >= 0.7 * Math.min(a.length, b.length);
}

/** How well a label names a component: 3 a word of it, 2 all its words, 1 part or stem of a word. */
export function labelScore(label: string, c: Component): number {
  const l = squashLabel(label);
  if (!l) return 0;
  const w = words(c);
  if (w.includes(l)) return 3;
  if (w.join('') === l || w.join('').endsWith(l)) return 2;
  if (l.length >= 4 && w.some((x) => x.includes(l) || (x.length >= 4 && l.includes(x)) || sameStem(x, l))) return 1;
  return 0;
}

export type LabelMatch = { ok: true; component: Component } | { ok: false; message: string };

export function matchLabel(label: string, components: readonly Component[]): LabelMatch {
  const scored = components.map((c) => ({ c, s: labelScore(label, c) })).filter((x) => x.s > 0);
  const best = Math.max(0, ...scored.map((x) => x.s));
  const top = scored.filter((x) => x.s === best);
  const list = components.map((c) => c.package).join(', ');
  if (top.length === 1 && top[0]) return { ok: true, component: top[0].c };
  if (top.length > 1)
    return {
      ok: false,
      message: `"${label}" could be ${top.map((x) => x.c.package).join(' or ')}; launch_app with the package`,
    };
  return {
    ok: false,
    message: `no launcher app matches "${label}" (adb cannot read app names); launch_app with one of these packages: ${list}`,
  };
}

/**
 * The home screen's app by its package: AOSP's Launcher3, Pixel's nexuslauncher, Samsung's
 * app.launcher, MIUI's com.miui.home, … — where the user picks an app (and the drawer lives).
 */
export function isLauncherPackage(pkg: string): boolean {
  return /launcher|(^|\.)home($|\.)/i.test(pkg);
}

const capitalized = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * The name adb can offer for a launcher app (it cannot read labels): the first of the component's
 * own words — last package word first ("com.foodshop" → "Foodshop"), then the activity's, then the
 * other package words — that `matchLabel` resolves to this component alone among `all`; else the
 * package, which `launch_app` also takes. The one label rule, so what is shown is what launches.
 */
export function launchName(c: Component, all: readonly Component[]): string {
  const pkgWords = c.package.split('.').reverse();
  const act = (c.activity.split('.').pop() ?? '').replace(/Activity$/, '');
  const seen = new Set<string>();
  for (const w of [pkgWords[0] ?? '', act, ...pkgWords.slice(1)]) {
    const key = squashLabel(w);
    if (!key || GENERIC.has(key) || seen.has(key)) continue;
    seen.add(key);
    const m = matchLabel(w, all);
    if (m.ok && m.component.package === c.package) return capitalized(w);
  }
  return c.package;
}
