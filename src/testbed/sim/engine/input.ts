import { distance, type Point, rectContains } from '../../../core/geometry.js';
import type { InputResult, Stroke } from '../surface.js';
import type { Engine } from './engine.js';
import type { Frame, LaidWindow } from './frame.js';
import { listInfo } from './layout.js';
import type { LaidNode } from './node.js';
import { dpToPx } from './screen.js';
import { deleteBackward, editView } from './text.js';

/**
 * Touch input in pixels: every tap, long press, swipe and pinch is a set of strokes, routed to the
 * topmost touchable window under the first finger (a modal dialog swallows touches outside itself,
 * the overlay fault swallows everything), then interpreted as Android's gesture detectors would.
 */

export const LONG_PRESS_MS = 500;
export const SHORT_TAP_MS = 10;
/** Drags that take at least this long scroll by the dragged distance; faster ones fling. */
export const FLING_MS = 300;
export const FLING_FACTOR = 2;

export interface InputHost {
  engine: Engine;
  frame(): Frame;
  dropShortTaps(): boolean;
}

export type KeyCode = 'back' | 'home' | 'recents' | 'enter' | 'delete' | 'search' | 'menu';

export function validateStrokes(strokes: Stroke[]): string | undefined {
  if (strokes.length < 1 || strokes.length > 10) return 'a gesture needs 1 to 10 strokes';
  for (const s of strokes) {
    if (!s.points.length) return 'every stroke needs at least one point';
    let t = -1;
    for (const p of s.points) {
      if (![p.x, p.y, p.t].every(Number.isFinite)) return 'stroke points need finite x, y, t';
      if (p.t < t) return 'stroke times must not decrease';
      t = p.t;
    }
  }
  return undefined;
}

function clampToScreen<P extends Point>(p: P, width: number, height: number): P {
  return { ...p, x: Math.min(width - 1, Math.max(0, p.x)), y: Math.min(height - 1, Math.max(0, p.y)) };
}

/** The window that receives a touch at `p`, or undefined when it is swallowed or hits nothing. */
export function windowAt(frame: Frame, p: Point): LaidWindow | undefined {
  for (let i = frame.windows.length - 1; i >= 0; i--) {
    const w = frame.windows[i];
    if (!w.info.touchable) continue;
    if (rectContains(w.info.bounds, p)) return w;
    if (w.modal) return undefined;
  }
  return undefined;
}

/** The dismiss handler of the modal window that swallows a touch at `p` (the shade), if any. */
export function outsideHandler(frame: Frame, p: Point): (() => void) | undefined {
  for (let i = frame.windows.length - 1; i >= 0; i--) {
    const w = frame.windows[i];
    if (!w.info.touchable) continue;
    if (rectContains(w.info.bounds, p)) return undefined;
    if (w.modal) return w.onOutside;
  }
  return undefined;
}

/** Root → deepest visible node containing `p` (later siblings are drawn on top). */
export function pathAt(root: LaidNode, p: Point): LaidNode[] {
  const path = [root];
  let n = root;
  for (;;) {
    let next: LaidNode | undefined;
    for (let i = n.children.length - 1; i >= 0; i--) {
      const c = n.children[i];
      if (c.flags.visible && rectContains(c.bounds, p)) {
        next = c;
        break;
      }
    }
    if (!next) return path;
    path.push(next);
    n = next;
  }
}

function isInteractive(n: LaidNode): boolean {
  const k = n.view?.kind;
  return !!n.view?.onTap || k === 'button' || k === 'edit' || k === 'switch' || k === 'checkbox' || k === 'seekbar';
}

/** Perform a click on a node, as its widget would handle it; `x` places a seek bar's thumb. */
export function clickNode(engine: Engine, n: LaidNode, x?: number): void {
  const v = n.view;
  if (!v || v.enabled === false) return;
  switch (v.kind) {
    case 'edit':
      if (n.stateKey) engine.focusEdit(n.stateKey);
      v.onTap?.();
      break;
    case 'switch':
    case 'checkbox':
      v.onToggle(!v.checked);
      break;
    case 'seekbar':
      if (x !== undefined) v.onChange(seekValue(n, x));
      break;
    default:
      v.onTap?.();
  }
  engine.changed();
}

function seekValue(n: LaidNode, x: number): number {
  const v = n.view;
  if (v?.kind !== 'seekbar') return 0;
  const w = Math.max(1, n.full.right - n.full.left);
  const f = Math.min(1, Math.max(0, (x - n.full.left) / w));
  return Math.round(v.min + f * (v.max - v.min));
}

export function tapAt(host: InputHost, p: Point, durationMs: number): InputResult {
  const frame = host.frame();
  const w = windowAt(frame, p);
  if (!w) {
    const dismiss = outsideHandler(frame, p);
    dismiss?.();
    return { ok: true, detail: dismiss ? 'dismissed' : 'swallowed' };
  }
  const path = pathAt(w.root, p);
  const engine = host.engine;
  if (durationMs >= LONG_PRESS_MS) {
    const target = [...path].reverse().find((n) => n.view?.onLongPress || n.view?.kind === 'edit');
    if (!target?.view || target.view.enabled === false) return { ok: true, detail: 'no long-press target' };
    if (target.view.onLongPress) target.view.onLongPress();
    else if (target.stateKey) engine.focusEdit(target.stateKey);
    engine.changed();
    return { ok: true };
  }
  const target = [...path].reverse().find(isInteractive);
  if (!target) return { ok: true, detail: 'no tap target' };
  clickNode(engine, target, p.x);
  return { ok: true };
}

/** Scroll a list (or webview) node by `dy` pixels of content; returns the distance actually moved. */
export function scrollNode(engine: Engine, n: LaidNode, dy: number): number {
  if (!n.stateKey) return 0;
  if (n.view?.kind === 'list') {
    const info = listInfo.get(n);
    const cur = info?.offset ?? 0;
    const next = Math.min(info?.maxOffset ?? 0, Math.max(0, cur + dy));
    engine.ui.scroll.set(n.stateKey, next);
    if (next !== cur) engine.changed();
    return next - cur;
  }
  if (n.view?.kind === 'webview') {
    const st = engine.ui.web.get(n.stateKey) ?? { scale: 1, scrollY: 0 };
    const next = Math.max(0, st.scrollY + dy);
    engine.ui.web.set(n.stateKey, { ...st, scrollY: next });
    if (next !== st.scrollY) engine.changed();
    return next - st.scrollY;
  }
  return 0;
}

function direction(dx: number, dy: number): 'left' | 'right' | 'up' | 'down' {
  if (Math.abs(dx) > Math.abs(dy)) return dx < 0 ? 'left' : 'right';
  return dy < 0 ? 'up' : 'down';
}

function dragStroke(host: InputHost, s: Stroke): InputResult {
  const frame = host.frame();
  const first = s.points[0];
  const last = s.points[s.points.length - 1];
  const w = windowAt(frame, first);
  if (!w) return { ok: true, detail: 'swallowed' };
  const path = pathAt(w.root, first).reverse();
  const dx = last.x - first.x;
  const dy = last.y - first.y;
  const dur = last.t - first.t;
  const engine = host.engine;
  // Pulling down from the status bar opens the quick-settings shade; pushing the shade up closes it.
  if (w.info.type === 'status_bar' && dy > Math.abs(dx)) {
    engine.setShade(true);
    return { ok: true, detail: 'shade opened' };
  }
  // A heads-up notification swiped up or sideways goes away (it stays in the shade), as on Android.
  if (w.info.type === 'notification' && (-dy > Math.abs(dx) || Math.abs(dx) > Math.abs(dy))) {
    engine.dismissBanner(w.info.id);
    return { ok: true, detail: 'notification dismissed' };
  }
  const canvas = path.find((n) => n.view?.kind === 'canvas' && n.view.onDrag);
  if (canvas?.view?.kind === 'canvas' && canvas.view.onDrag && canvas.view.enabled !== false) {
    const f = canvas.full;
    canvas.view.onDrag(dx, dy, { width: f.right - f.left, height: f.bottom - f.top }, { durationMs: dur });
    engine.changed();
    return { ok: true, detail: `canvas dragged ${dx},${dy}px` };
  }
  const seek = path.find((n) => n.view?.kind === 'seekbar');
  if (seek?.view?.kind === 'seekbar' && seek.view.enabled !== false && Math.abs(dx) >= Math.abs(dy)) {
    seek.view.onChange(seekValue(seek, last.x));
    engine.changed();
    return { ok: true };
  }
  if (Math.abs(dy) > Math.abs(dx)) {
    const scroller = path.find((n) => n.view?.kind === 'list' || n.view?.kind === 'webview');
    if (scroller && scroller.view?.enabled !== false) {
      // Dragging up moves the content forward; a quick flick keeps going about as far again.
      const dist = -dy * (dur >= FLING_MS ? 1 : FLING_FACTOR);
      const moved = scrollNode(engine, scroller, dist);
      if (moved !== 0 || scroller.view?.kind === 'list') return { ok: true, detail: `scrolled ${moved}px` };
    }
  }
  if (w.info.title === 'NotificationShade' && -dy > Math.abs(dx)) {
    engine.setShade(false);
    return { ok: true, detail: 'shade closed' };
  }
  const swipeable = path.find((n) => n.view?.onSwipe);
  if (swipeable?.view?.onSwipe && swipeable.view.enabled !== false) {
    swipeable.view.onSwipe(direction(dx, dy));
    engine.changed();
    return { ok: true };
  }
  return { ok: true, detail: 'nothing to drag' };
}

function pinch(host: InputHost, a: Stroke, b: Stroke): InputResult {
  const frame = host.frame();
  const a0 = a.points[0];
  const b0 = b.points[0];
  const a1 = a.points[a.points.length - 1];
  const b1 = b.points[b.points.length - 1];
  const d0 = distance(a0, b0);
  const d1 = distance(a1, b1);
  if (d0 < 1 || d1 < 1) return { ok: true, detail: 'fingers too close' };
  const mid = { x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2 };
  const w = windowAt(frame, mid);
  if (!w) return { ok: true, detail: 'swallowed' };
  const under = pathAt(w.root, mid).reverse();
  const canvas = under.find((n) => n.view?.kind === 'canvas' && n.view.onPinch);
  if (canvas?.view?.kind === 'canvas' && canvas.view.onPinch) {
    if (canvas.view.enabled === false) return { ok: true, detail: 'canvas disabled' };
    const f = canvas.full;
    const size = { width: f.right - f.left, height: f.bottom - f.top };
    canvas.view.onPinch(d1 / d0, { x: mid.x - f.left, y: mid.y - f.top }, size);
    host.engine.changed();
    return { ok: true, detail: `canvas pinch ${(d1 / d0).toFixed(2)}` };
  }
  const web = under.find((n) => n.view?.kind === 'webview');
  if (!web?.stateKey) return { ok: true, detail: 'nothing to zoom' };
  const st = host.engine.ui.web.get(web.stateKey) ?? { scale: 1, scrollY: 0 };
  const scale = Math.min(5, Math.max(0.5, st.scale * (d1 / d0)));
  host.engine.ui.web.set(web.stateKey, { ...st, scale: Math.round(scale * 1000) / 1000 });
  host.engine.changed();
  return { ok: true, detail: `scale ${scale.toFixed(2)}` };
}

export function gesture(host: InputHost, strokes: Stroke[]): InputResult {
  const frame = host.frame();
  const bad = validateStrokes(strokes);
  if (bad) return { ok: false, code: 'INVALID_ARGUMENT', message: bad };
  const { width, height } = frame.screen;
  const inside = (p: Point) => p.x >= 0 && p.y >= 0 && p.x < width && p.y < height;
  // Android injects what `input` is given without a range check: a touch that goes down off the
  // screen reaches no window; one that moves off it stays with its window at the screen's edge.
  if (!strokes.every((s) => inside(s.points[0] as Point))) return { ok: true, detail: 'touch down outside the screen' };
  strokes = strokes.map((s) => ({ points: s.points.map((p) => clampToScreen(p, width, height)) }));
  const slop = dpToPx(frame.screen, 8);
  const moved = (s: Stroke) => s.points.some((p) => distance(p, s.points[0]) > slop);
  if (strokes.length === 1) {
    const s = strokes[0];
    const dur = s.points[s.points.length - 1].t - s.points[0].t;
    if (!moved(s)) {
      if (dur < SHORT_TAP_MS && host.dropShortTaps()) return { ok: true, detail: 'dropped' };
      return tapAt(host, s.points[0], dur);
    }
    return dragStroke(host, s);
  }
  if (strokes.length === 2 && (moved(strokes[0]) || moved(strokes[1]))) return pinch(host, strokes[0], strokes[1]);
  // Other multi-finger gestures reach the window but no widget of the kit reacts to them.
  return { ok: true, detail: `${strokes.length}-finger gesture not handled by the app` };
}

/** Hardware and navigation keys. */
export function pressKey(engine: Engine, frame: Frame, key: KeyCode): InputResult {
  switch (key) {
    case 'back': {
      if (engine.shadeOpen) {
        engine.setShade(false);
        return { ok: true, detail: 'shade closed' };
      }
      if (engine.keyboardShown) {
        engine.hideKeyboard(false);
        return { ok: true, detail: 'keyboard hidden' };
      }
      const dialogs = engine.visibleDialogs();
      if (dialogs.length) {
        const d = dialogs[dialogs.length - 1];
        engine.dialogs = engine.dialogs.filter((x) => x !== d);
        engine.changed();
        return { ok: true, detail: 'dialog closed' };
      }
      const pkg = engine.foreground;
      const top = engine.top(pkg);
      const app = engine.apps.get(pkg);
      if (top && app?.onBack?.(top.route, engine.ctx(pkg))) {
        engine.changed();
        return { ok: true };
      }
      engine.pop(pkg);
      return { ok: true };
    }
    case 'home':
      engine.goHome();
      return { ok: true };
    case 'recents':
      engine.showRecents();
      return { ok: true };
    case 'enter': {
      const n = focusedNode(engine, frame);
      const v = n && editView(n);
      if (v?.onSubmit && v.enabled !== false) {
        v.onSubmit();
        engine.changed();
      }
      return { ok: true };
    }
    case 'delete': {
      const n = focusedNode(engine, frame);
      if (n && n.view?.enabled !== false) deleteBackward(engine, n);
      return { ok: true };
    }
    default:
      return { ok: true, detail: `${key} ignored` };
  }
}

export function focusedNode(engine: Engine, frame: Frame): LaidNode | undefined {
  const key = engine.ui.focused;
  if (!key) return undefined;
  for (const w of frame.windows) {
    const stack = [w.root];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.stateKey === key && n.view?.kind === 'edit') return n;
      stack.push(...n.children);
    }
  }
  return undefined;
}

/** How long a gesture takes (its last point's time), capped at the protocol's 10 s. */
export function strokeDuration(strokes: Stroke[]): number {
  let d = 0;
  for (const s of strokes) for (const p of s.points) if (Number.isFinite(p.t)) d = Math.max(d, p.t);
  return Math.min(d, 10_000);
}
