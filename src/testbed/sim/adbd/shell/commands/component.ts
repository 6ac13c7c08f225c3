import { fnv1a } from '../../../../../core/hash.js';
import type { PhoneSurface } from '../../../surface.js';

/** Activity names as Android prints them: `pkg/.Short` when inside the package, else `pkg/full.Name`. */

export function fullActivity(pkg: string, activity: string): string {
  return activity.startsWith('.') ? `${pkg}${activity}` : activity;
}

export function shortComponent(pkg: string, activity: string): string {
  const full = fullActivity(pkg, activity);
  return full.startsWith(`${pkg}.`) ? `${pkg}/${full.slice(pkg.length)}` : `${pkg}/${full}`;
}

export function longComponent(pkg: string, activity: string): string {
  return `${pkg}/${fullActivity(pkg, activity)}`;
}

/** A stable 7-hex "identity hash" like the ones in dumpsys records. */
export function identityHash(s: string): string {
  return (fnv1a(s) >>> 4).toString(16).padStart(7, '0');
}

/** A stable task id per package (t<id> in ActivityRecord lines). */
export function taskId(pkg: string): number {
  return 100 + (Number.parseInt(identityHash(pkg), 16) % 900);
}

/** Parse `pkg/act` (act may be `.Short` or fully qualified). */
export function parseComponent(s: string): { pkg: string; activity: string } | undefined {
  const m = /^([A-Za-z0-9_.]+)\/([A-Za-z0-9_.$]+)$/.exec(s);
  if (!m) return undefined;
  return { pkg: m[1] as string, activity: m[2] as string };
}

export function findPackage(phone: PhoneSurface, pkg: string) {
  return phone.packages().find((p) => p.package === pkg);
}

/** System apps live in /system; the rest are "installed" (pm list packages -3). */
export function isSystemPackage(pkg: string): boolean {
  return pkg === 'android' || /^com\.(android|google\.android)\./.test(pkg);
}

export function apkPath(pkg: string): string {
  if (isSystemPackage(pkg)) {
    const name = pkg.split('.').pop() ?? pkg;
    return `/system/priv-app/${name.charAt(0).toUpperCase()}${name.slice(1)}/${name.charAt(0).toUpperCase()}${name.slice(1)}.apk`;
  }
  return `/data/app/~~${identityHash(`${pkg}#a`)}Q==/${pkg}-${identityHash(`${pkg}#b`)}A==/base.apk`;
}
