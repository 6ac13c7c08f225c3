import { LAUNCHER } from './engine/engine.js';
import type { PhoneSurface } from './surface.js';

/**
 * The apps a MAIN/LAUNCHER query finds on the virtual phone — every installed app with an activity,
 * not the home screen (that is HOME) — with the label its icon shows in the phone's locale. One list
 * for both of the phone's protocols: the bridge's `/v3/apps` and adb's `cmd package query-activities`.
 */
export function launcherApps(phone: PhoneSurface): { package: string; label: string; activity: string }[] {
  return phone
    .packages()
    .filter((p) => p.package !== LAUNCHER)
    .flatMap((p) => (p.activities[0] ? [{ package: p.package, label: p.label, activity: p.activities[0] }] : []));
}

/** The home screen's component, for a HOME query. */
export function homeApp(phone: PhoneSurface): { package: string; activity: string }[] {
  return phone
    .packages()
    .filter((p) => p.package === LAUNCHER)
    .flatMap((p) => (p.activities[0] ? [{ package: p.package, activity: p.activities[0] }] : []));
}
