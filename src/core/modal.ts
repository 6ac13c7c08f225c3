import type { WindowInfo } from './types.js';

/**
 * A modal window (a dialog, a focused system window) takes every touch outside it too: nothing
 * reaches an app, dialog or system window below it. Perception drops what lies below as covered
 * (perception/visibility.ts) and the touch guard refuses a touch there (device/protocol/guard.ts);
 * the helper's Guards.java applies the same rule on the phone.
 */
export function takesTouchesBelow(w: Pick<WindowInfo, 'type' | 'focused'>, below: Pick<WindowInfo, 'type'>): boolean {
  const modal = w.type === 'dialog' || (w.type === 'system' && w.focused);
  return modal && (below.type === 'application' || below.type === 'dialog' || below.type === 'system');
}
