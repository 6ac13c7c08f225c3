import { type Rect, rectHeight, rectWidth } from '../core/geometry.js';
import type { WindowInfo, WindowType } from '../core/types.js';

/**
 * Window inference for uiautomator XML, which has no window info: every top-level `<node>` is a
 * window root, in an order that differs between devices. The type (and so the z-layer used for
 * occlusion) is inferred from the package, class and bounds.
 */

const IME_PACKAGE_RE =
  /inputmethod|keyboard|\.ime\b|\.ime\.|swiftkey|gboard|sogou|baidu\.input|iflytek|\.kika\b|touchpal/i;
const SYSTEMUI_RE = /^com\.android\.systemui$|^com\.(miui|coloros|oplus|samsung|vivo)\..*systemui/i;
const DIALOG_PACKAGE_RE = /permissioncontroller|packageinstaller/i;

/** z-order used for occlusion: a higher layer covers a lower one. */
export const LAYER: Record<WindowType, number> = {
  application: 1,
  dialog: 2,
  overlay: 2,
  system: 2,
  notification: 3,
  toast: 3,
  input_method: 4,
  status_bar: 5,
  navigation_bar: 5,
};

export interface RootInfo {
  package: string;
  className: string;
  bounds: Rect;
  /** Whether anything in the window can be acted on (a toast has nothing). */
  hasControls?: boolean;
}

export function classifyWindow(
  root: RootInfo,
  screen: { w: number; h: number },
  windowCount: number,
  /** The largest ordinary window of the dump: the application's (undefined when none is big enough). */
  appRoot?: RootInfo,
): WindowType {
  const { bounds } = root;
  const fullWidth = rectWidth(bounds) >= screen.w * 0.95;
  const fullHeight = rectHeight(bounds) >= screen.h * 0.95;
  const heightShare = rectHeight(bounds) / Math.max(1, screen.h);
  const widthShare = rectWidth(bounds) / Math.max(1, screen.w);
  if (IME_PACKAGE_RE.test(root.package) || /InputMethod|Keyboard/.test(root.className)) return 'input_method';
  if (SYSTEMUI_RE.test(root.package)) {
    if (fullWidth && heightShare <= 0.08 && bounds.top <= 0) return 'status_bar';
    // At the bottom in portrait and landscape, or along a side edge on landscape phones.
    if (fullWidth && heightShare <= 0.15 && bounds.bottom >= screen.h * 0.98) return 'navigation_bar';
    if (fullHeight && widthShare <= 0.1 && (bounds.left <= 0 || bounds.right >= screen.w * 0.98))
      return 'navigation_bar';
    return 'system';
  }
  if (DIALOG_PACKAGE_RE.test(root.package)) return 'dialog';
  if (root === appRoot) return 'application';
  const coversScreen = fullWidth && heightShare >= 0.9;
  // A small window with nothing to act on, over other windows, is a toast: it takes no touches and
  // must not hide the page below it the way a modal dialog does.
  if (windowCount > 1 && root.hasControls === false && !coversScreen && heightShare < 0.3) return 'toast';
  // A window smaller than the application's (or dumped alone without covering the screen) is a dialog.
  return coversScreen ? 'application' : 'dialog';
}

/**
 * The application window: the largest ordinary (not IME, not system UI) window spanning the width
 * and at least half the height — the app area shrinks by the bars, more so in landscape.
 */
function findAppRoot(roots: readonly RootInfo[], screen: { w: number; h: number }): RootInfo | undefined {
  // A window dumped alone is the application only if it covers the screen (else: a dialog or sheet).
  if (roots.length === 1) {
    const r = roots[0];
    return rectWidth(r.bounds) >= screen.w * 0.95 && rectHeight(r.bounds) >= screen.h * 0.9 ? r : undefined;
  }
  let best: RootInfo | undefined;
  for (const r of roots) {
    if (IME_PACKAGE_RE.test(r.package) || SYSTEMUI_RE.test(r.package) || DIALOG_PACKAGE_RE.test(r.package)) continue;
    if (rectWidth(r.bounds) < screen.w * 0.95 || rectHeight(r.bounds) < screen.h * 0.5) continue;
    if (!best || rectWidth(r.bounds) * rectHeight(r.bounds) > rectWidth(best.bounds) * rectHeight(best.bounds))
      best = r;
  }
  return best;
}

/** Build WindowInfo for XML roots (ids are the root's position in the dump). */
export function inferWindows(roots: readonly RootInfo[], screen: { w: number; h: number }): WindowInfo[] {
  const appRoot = findAppRoot(roots, screen);
  const windows = roots.map((r, id): WindowInfo => {
    const type = classifyWindow(r, screen, roots.length, appRoot);
    return {
      id,
      type,
      layer: LAYER[type] * 100 + id,
      bounds: r.bounds,
      package: r.package,
      title: '',
      focused: false,
      touchable: true,
    };
  });
  // The focused window: the topmost application/dialog window (the keyboard never takes focus; a
  // system UI window only when there is nothing else, e.g. the notification shade dumped alone).
  let candidates = windows.filter((w) => w.type === 'application' || w.type === 'dialog');
  if (candidates.length === 0) candidates = windows.filter((w) => w.type === 'system');
  const top = candidates.sort((a, b) => b.layer - a.layer)[0];
  if (top) top.focused = true;
  return windows.sort((a, b) => a.layer - b.layer);
}
