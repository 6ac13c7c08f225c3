import type { Point } from '../../core/geometry.js';
import { type Component, isLauncherPackage, matchLabel, squashLabel } from '../app-label.js';
import type { WireSnapshot } from '../protocol/index.js';

/**
 * The launcher's labels over adb, learned from the launcher screens this device has read. adb
 * cannot read an app's label from the package manager, so the Apps line would name apps by package
 * words ("Deskclock", "Bank") while the launcher shows "Clock" and "Acme". A label the launcher shows
 * names an app here when the package manager's launcher list resolves it to that app alone (the
 * same `matchLabel` launch_app uses, so the name shown is the name that launches), or when tapping
 * that icon brought the app to the front ("电话" → com.android.dialer: no word of the package says
 * it). Apps no launcher screen has shown keep their package words, and the Apps line says so.
 */

/** Launcher icon labels are short; a longer text is a widget's (a search bar, a clock). */
const MAX_LABEL = 30;
const MAX_LABELS = 300;

interface Icon {
  label: string;
  bounds: { left: number; top: number; right: number; bottom: number };
}

export class LauncherNames {
  /** Labels seen on launcher screens, in the order first seen. */
  private readonly seen = new Set<string>();
  /** A label (squashed) → the package its tap brought to the front. */
  private readonly opened = new Map<string, { label: string; package: string }>();
  private icons: Icon[] = [];
  /** The icon just tapped on the launcher, until the next read says what came to the front. */
  private pending?: string;

  /** Every read of the screen: a launcher's icons are remembered; an app in front after an icon's tap is learned. */
  read(snap: WireSnapshot): void {
    const pkg = snap.foreground.package;
    if (this.pending !== undefined && pkg && !isLauncherPackage(pkg))
      this.opened.set(squashLabel(this.pending), { label: this.pending, package: pkg });
    this.pending = undefined;
    if (!isLauncherPackage(pkg)) {
      this.icons = [];
      return;
    }
    const clickable = new Set<number>();
    for (const n of snap.nodes)
      if (n.flags.clickable || (n.parent >= 0 && clickable.has(n.parent))) clickable.add(n.id);
    this.icons = [];
    for (const n of snap.nodes) {
      const label = (n.desc || n.text).trim();
      if (!label || label.length > MAX_LABEL || !clickable.has(n.id) || !n.flags.visible) continue;
      if (n.package && !isLauncherPackage(n.package)) continue;
      this.icons.push({ label, bounds: n.bounds });
      if (this.seen.size < MAX_LABELS) this.seen.add(label);
    }
  }

  /** A tap was sent: the launcher icon under it, if any, is the one whose app the next read shows. */
  tapped(p: Point): void {
    const hit = this.icons.filter(
      (i) => p.x >= i.bounds.left && p.x < i.bounds.right && p.y >= i.bounds.top && p.y < i.bounds.bottom,
    );
    // The innermost (smallest) box is the icon; its label text sits inside it.
    hit.sort((a, b) => area(a) - area(b));
    this.pending = hit[0]?.label;
  }

  /** The launcher app a name means: one its icon's tap opened, else the one `matchLabel` resolves. */
  resolve(name: string, all: readonly Component[]): ReturnType<typeof matchLabel> {
    const o = this.opened.get(squashLabel(name));
    const c = o && all.find((x) => x.package === o.package);
    return c ? { ok: true, component: c } : matchLabel(name, all);
  }

  /** The launcher's own label for `c`, when one seen resolves to it (and only to it). */
  labelOf(c: Component, all: readonly Component[]): string | undefined {
    for (const o of this.opened.values()) if (o.package === c.package) return o.label;
    for (const l of this.seen) {
      const m = this.resolve(l, all);
      if (m.ok && m.component.package === c.package) return l;
    }
    return undefined;
  }
}

const area = (i: Icon) => (i.bounds.right - i.bounds.left) * (i.bounds.bottom - i.bounds.top);
