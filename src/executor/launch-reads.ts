import type { Deadline } from '../core/clock.js';
import { isLauncherPackage, squashLabel } from '../device/app-label.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { WireNode, WireSnapshot } from '../device/protocol/index.js';
import type { Pacer } from './pacing.js';

/**
 * launch_app by a name the device cannot resolve — adb reads no labels, so "Messages" or "设置"
 * match no package word — the way a person opens an app: the home screen, the icon with that
 * label there, else in the app drawer (swiped open, then paged or scrolled), tapped. The label is
 * read off the launcher's own tree, so it is the phone's own name in the phone's language. One
 * path for every caller of launch_app (the agent, MCP), after the device's own resolution failed.
 */

/** Drawer pages or scrolls looked through before giving up. */
const MAX_PAGES = 4;
const SETTLE_MS = 400;

/** The launcher's icon (or its clickable cell) whose label is `name`. */
export function findIcon(snap: WireSnapshot, name: string): WireNode | undefined {
  if (!isLauncherPackage(snap.foreground.package)) return undefined;
  const want = squashLabel(name);
  if (!want) return undefined;
  const byId = new Map(snap.nodes.map((n) => [n.id, n]));
  const clickable = (n: WireNode): WireNode | undefined => {
    for (let c: WireNode | undefined = n; c; c = c.parent === undefined ? undefined : byId.get(c.parent))
      if (c.flags.clickable) return c;
    return undefined;
  };
  for (const n of snap.nodes) {
    if (!n.flags.visible || n.bounds.bottom <= n.bounds.top) continue;
    if (squashLabel(n.text) !== want && squashLabel(n.desc) !== want) continue;
    const hit = clickable(n);
    if (hit) return hit;
  }
  return undefined;
}

/** Labels the launcher shows, to name the choices when the name is not among them. */
function shownLabels(snap: WireSnapshot): string[] {
  const out = new Set<string>();
  for (const n of snap.nodes) if (n.flags.visible && n.text && n.text.length <= 30) out.add(n.text);
  return [...out].slice(0, 24);
}

const signature = (s: WireSnapshot) =>
  s.nodes
    .filter((n) => n.flags.visible)
    .map((n) => `${n.text}|${n.desc}|${n.bounds.left},${n.bounds.top}`)
    .join(';');

/** The swipe to the drawer's next page: a vertical drawer scrolls; a paged one (AOSP, the virtual phone) turns left. */
function drawerStroke(snap: WireSnapshot) {
  const { width, height } = snap.screen;
  const list = snap.nodes.find((n) => n.flags.visible && n.flags.scrollable);
  return list
    ? [
        { x: width / 2, y: height * 0.75 },
        { x: width / 2, y: height * 0.3 },
      ]
    : [
        { x: width * 0.85, y: height / 2 },
        { x: width * 0.15, y: height / 2 },
      ];
}

export async function launchOnReads(device: Device, pacer: Pacer, name: string, d: Deadline): Promise<DeviceCall> {
  const backend = device.capabilities().backend === 'bridge' ? 'bridge' : 'adb';
  const rec = new CallRecorder(d.clock, backend);
  // Once the home key is sent the phone has moved: every later failure is a delivered, partial one.
  const end = (code: 'NOT_FOUND' | 'READ_FAILED' | 'UNAVAILABLE' | 'TIMEOUT', message: string): DeviceCall => ({
    ...rec.failed(code, message, 'delivered'),
    receipt: { ...rec.receipt('partial', 'delivered'), error: { code, message } },
  });
  const home = await device.key('home', d);
  if (!home.ok) return home;
  rec.markDispatched();
  const read = async (): Promise<WireSnapshot | undefined> => {
    await d.sleep(Math.min(SETTLE_MS, Math.max(0, d.remaining())));
    const r = await device.snapshot({}, d);
    return r.ok && r.snapshot.nodes.length > 0 ? r.snapshot : undefined;
  };
  let snap = await read();
  if (!snap) return end('READ_FAILED', `launch_app "${name}": the home screen could not be read; observe and retry`);
  const { width, height } = snap.screen;
  const swipe = async (from: { x: number; y: number }, to: { x: number; y: number }) =>
    device.swipe(pacer.curvedPath(from, to), { durationMs: pacer.swipeMs(from, to) }, d);
  const seen = new Set<string>(shownLabels(snap));
  let icon = findIcon(snap, name);
  if (!icon) {
    // The drawer: swiped up from the lower part of the home screen on every current launcher.
    const open = await swipe({ x: width / 2, y: height * 0.8 }, { x: width / 2, y: height * 0.3 });
    if (!open.ok) return end('UNAVAILABLE', `launch_app "${name}": the app drawer did not open (${open.message})`);
    snap = await read();
    for (let page = 0; snap && !icon && page <= MAX_PAGES; page++) {
      for (const l of shownLabels(snap)) seen.add(l);
      icon = findIcon(snap, name);
      if (icon || page === MAX_PAGES || d.remaining() <= 0) break;
      const [from, to] = drawerStroke(snap);
      const before = signature(snap);
      const moved = await swipe(from, to);
      if (!moved.ok) break;
      snap = await read();
      if (!snap || signature(snap) === before) break;
    }
  }
  if (!icon)
    return end(
      'NOT_FOUND',
      `no app named "${name}" on the home screen or in the app drawer (it shows: ${[...seen].join(', ')}); launch_app with a name it shows, or the package`,
    );
  const b = icon.bounds;
  const p = { x: Math.round((b.left + b.right) / 2), y: Math.round((b.top + b.bottom) / 2) };
  const tap = await device.tap(p, { durationMs: pacer.tapMs() }, d);
  if (!tap.ok) return tap.receipt.delivery === 'not_delivered' ? end('UNAVAILABLE', tap.message) : tap;
  return rec.ok({ injectedPx: p });
}
