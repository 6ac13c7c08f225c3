import { type Rect, rect } from '../../../core/geometry.js';
import type { WindowInfo, WindowType } from '../../../core/types.js';
import type { WireScreen } from '../../../device/protocol/wire.js';
import type { View } from '../kit/view.js';
import type { Engine } from './engine.js';
import { type LayoutEnv, measure, place } from './layout.js';
import { emptyFlags, type LaidNode, walk } from './node.js';
import { dpToPx, screenGeometry } from './screen.js';
import { AGENT_IME } from './services.js';
import {
  agentImeView,
  bannerView,
  dialogView,
  IME_PACKAGE,
  keyboardView,
  type NavKey,
  navBarView,
  OVERLAY_PACKAGE,
  PERMISSION_PACKAGE,
  SYSTEM_UI,
  shadeView,
  spinnerView,
  statusBarView,
  toastView,
} from './system-views.js';

/**
 * One screen revision, laid out: every window (bottom to top) with its node tree. The tree, the
 * XML dump, the screenshot and hit testing are all read from a Frame.
 */

export interface LaidWindow {
  info: WindowInfo;
  root: LaidNode;
  background?: string;
  /** Draw a scrim over everything below (modal dialogs). */
  dim?: boolean;
  /** Touches outside the window are swallowed (modal dialogs). */
  modal?: boolean;
  /** A touch outside the window dismisses it (the shade) instead of reaching what is below. */
  onOutside?: () => void;
}

export interface Frame {
  revision: number;
  takenAt: number;
  screen: WireScreen;
  windows: LaidWindow[];
  foreground: { package: string; activity: string; title: string };
  keyboard: { shown: boolean; bounds?: Rect };
  darkMode: boolean;
}

/** What the system windows do when used; the phone wires these to its input handling. */
export interface SystemActions {
  navKey(k: NavKey): void;
  type(text: string): void;
  del(): void;
  enter(): void;
  dialogButton(windowId: number, index: number): void;
  openBanner(id: number): void;
}

interface WindowSpec {
  id: number;
  type: WindowType;
  bounds: Rect;
  pkg: string;
  title: string;
  touchable: boolean;
  view?: View;
  scope: string;
  background?: string;
  dim?: boolean;
  modal?: boolean;
  onOutside?: () => void;
}

const STATUS_BAR_ID = 1;
const NAV_BAR_ID = 2;
const IME_ID = 3;
const OVERLAY_ID = 4;
const SHADE_ID = 5;

export function buildFrame(engine: Engine, sys: SystemActions): Frame {
  let frame = compose(engine, sys);
  // A focused field that is gone (screen re-rendered without it) loses focus and the keyboard.
  if (engine.ui.focused && !findByKey(frame, engine.ui.focused)) {
    engine.ui.focused = undefined;
    engine.keyboardShown = false;
    frame = compose(engine, sys);
  }
  return frame;
}

export function findByKey(frame: Frame, key: string): LaidNode | undefined {
  let found: LaidNode | undefined;
  for (const w of frame.windows) {
    walk(w.root, (n) => {
      if (!found && n.stateKey === key && n.view?.kind === 'edit') found = n;
    });
  }
  return found;
}

function compose(engine: Engine, sys: SystemActions): Frame {
  const s = engine.screen;
  const g = screenGeometry(s);
  const W = s.width;
  const H = s.height;
  const world = engine.world;
  const pkg = engine.foreground;
  const app = engine.apps.get(pkg)!;
  const top = engine.top(pkg)!;
  const ctx = engine.ctx(pkg);
  const screenDesc = app.render(top.route, ctx);
  const kbShown = engine.keyboardShown && engine.ui.focused !== undefined;
  const imeId = engine.currentIme();
  const imePkg = imeId.split('/')[0];
  const agentIme = imePkg === AGENT_IME.split('/')[0];
  const kbTop = agentIme ? H - g.navBarHeight - dpToPx(s, 48) : g.keyboardTop;
  const appBottom = kbShown ? kbTop : H - g.navBarHeight;
  const specs: WindowSpec[] = [];
  specs.push({
    id: 100 + top.serial,
    type: 'application',
    bounds: rect(0, g.statusBarHeight, W, appBottom),
    pkg,
    title: screenDesc.title,
    touchable: true,
    view: screenDesc.loading ? spinnerView() : screenDesc.root,
    scope: `${pkg}@${top.serial}`,
    background: '#ffffff',
  });
  for (const d of engine.visibleDialogs()) {
    const view = dialogView(d.spec, (i) => sys.dialogButton(d.id, i));
    const width = Math.min(W - 2 * dpToPx(s, 24), dpToPx(s, 560));
    const env = envFor(engine, d.spec.kind === 'system' ? PERMISSION_PACKAGE : d.owner, `dialog@${d.id}`);
    const h = Math.min(H - 2 * g.statusBarHeight, measure(view, width, env));
    const left = Math.round((W - width) / 2);
    const topY = Math.round((H - h) / 2);
    specs.push({
      id: d.id,
      type: d.spec.kind === 'system' ? 'system' : 'dialog',
      bounds: rect(left, topY, left + width, topY + h),
      pkg: env.pkg,
      title: d.spec.title,
      touchable: true,
      view,
      scope: env.scope,
      background: '#ffffff',
      dim: true,
      modal: true,
    });
  }
  if (kbShown) {
    specs.push({
      id: IME_ID,
      type: 'input_method',
      bounds: rect(0, kbTop, W, H - g.navBarHeight),
      pkg: agentIme ? imePkg : IME_PACKAGE,
      title: 'InputMethod',
      touchable: true,
      view: agentIme ? agentImeView() : keyboardView(keyboardHandlers(engine, sys), '↵', engine.keyboardLayer),
      scope: 'ime',
      background: '#e8eaed',
    });
  }
  if (engine.shadeOpen) {
    const view = shadeView(
      world.settings,
      {
        open: (id) => sys.openBanner(id),
        clear: () => {
          engine.notifications = [];
          engine.changed();
        },
        wifi: (v) => {
          world.settings.wifi = v;
          world.toggles.wifi = (world.toggles.wifi ?? 0) + 1;
        },
        bluetooth: (v) => {
          world.settings.bluetooth = v;
          world.toggles.bluetooth = (world.toggles.bluetooth ?? 0) + 1;
        },
        dark: (v) => {
          world.settings.darkMode = v;
          world.toggles.darkMode = (world.toggles.darkMode ?? 0) + 1;
        },
        brightness: (v) => {
          world.settings.brightness = Math.min(255, Math.max(0, Math.round(v)));
        },
      },
      engine.locale === 'zh',
      Math.round((g.statusBarHeight * 160) / s.density),
      engine.notifications.slice(0, 5),
    );
    const env = envFor(engine, SYSTEM_UI, 'shade');
    const h = measure(view, W, env);
    specs.push({
      id: SHADE_ID,
      type: 'system',
      bounds: rect(0, 0, W, Math.min(h, H - g.navBarHeight)),
      pkg: SYSTEM_UI,
      title: 'NotificationShade',
      touchable: true,
      view,
      scope: 'shade',
      background: '#e8eaed',
      dim: true,
      modal: true,
      onOutside: () => engine.setShade(false),
    });
  }
  const time = new Date(engine.clock.now());
  const hhmm = `${String(time.getUTCHours()).padStart(2, '0')}:${String(time.getUTCMinutes()).padStart(2, '0')}`;
  specs.push({
    id: STATUS_BAR_ID,
    type: 'status_bar',
    bounds: rect(0, 0, W, g.statusBarHeight),
    pkg: SYSTEM_UI,
    title: 'StatusBar',
    touchable: true,
    view: statusBarView(hhmm, world.settings.wifi),
    scope: 'statusbar',
    background: '#f1f3f4',
  });
  specs.push({
    id: NAV_BAR_ID,
    type: 'navigation_bar',
    bounds: rect(0, H - g.navBarHeight, W, H),
    pkg: SYSTEM_UI,
    title: 'NavigationBar',
    touchable: true,
    view: navBarView((k) => sys.navKey(k)),
    scope: 'navbar',
    background: '#f1f3f4',
  });
  const m = dpToPx(s, 8);
  engine.banners.forEach((b, i) => {
    const h = dpToPx(s, 72);
    const y = g.statusBarHeight + m + i * (h + m);
    specs.push({
      id: b.id,
      type: 'notification',
      bounds: rect(m, y, W - m, y + h),
      pkg: SYSTEM_UI,
      title: 'Notification',
      touchable: true,
      view: bannerView(b.value, () => sys.openBanner(b.id)),
      scope: `banner@${b.id}`,
      background: '#ffffff',
    });
  });
  engine.toasts.forEach((t, i) => {
    const view = toastView(t.value);
    const env = envFor(engine, t.pkg, `toast@${t.id}`);
    const width = Math.min(W - 2 * dpToPx(s, 24), dpToPx(s, 320));
    const h = measure(view, width, env);
    const bottom = H - g.navBarHeight - dpToPx(s, 64) - i * (h + m);
    const left = Math.round((W - width) / 2);
    specs.push({
      id: t.id,
      type: 'toast',
      bounds: rect(left, bottom - h, left + width, bottom),
      pkg: t.pkg,
      title: 'Toast',
      touchable: false,
      view,
      scope: env.scope,
      background: '#323232',
    });
  });
  if (engine.overlay) {
    specs.push({
      id: OVERLAY_ID,
      type: 'overlay',
      bounds: rect(0, 0, W, H),
      pkg: OVERLAY_PACKAGE,
      title: 'ScreenFilter',
      touchable: true,
      scope: 'overlay',
    });
  }
  const dialogs = specs.filter((x) => x.type === 'dialog' || x.type === 'system');
  const focusedId = dialogs.length ? dialogs[dialogs.length - 1].id : specs[0].id;
  const windows = specs.map((spec, layer) => layoutWindow(engine, spec, layer + 1, spec.id === focusedId));
  return {
    revision: engine.revision,
    takenAt: engine.clock.now(),
    screen: s,
    windows,
    foreground: { package: pkg, activity: screenDesc.activity, title: screenDesc.title },
    keyboard: kbShown ? { shown: true, bounds: rect(0, kbTop, W, H - g.navBarHeight) } : { shown: false },
    darkMode: world.settings.darkMode,
  };
}

function keyboardHandlers(engine: Engine, sys: SystemActions) {
  return {
    type: (t: string) => sys.type(t),
    del: () => sys.del(),
    enter: () => sys.enter(),
    layer: (next: 'letters' | 'shift' | 'symbols') => {
      engine.keyboardLayer = next;
      engine.changed();
    },
  };
}

function envFor(engine: Engine, pkg: string, scope: string): LayoutEnv {
  return { screen: engine.screen, pkg, scope, ui: engine.ui };
}

function layoutWindow(engine: Engine, spec: WindowSpec, layer: number, focused: boolean): LaidWindow {
  const b = spec.bounds;
  const env = envFor(engine, spec.pkg, spec.scope);
  const root: LaidNode = {
    className: 'android.widget.FrameLayout',
    pkg: spec.pkg,
    resourceId: '',
    text: '',
    desc: '',
    bounds: b,
    full: b,
    clip: b,
    flags: emptyFlags(),
    actions: [],
    children: [],
    index: 0,
  };
  if (spec.view) {
    const width = b.right - b.left;
    const winH = b.bottom - b.top;
    const intrinsic = measure(spec.view, width, env);
    let content = place(spec.view, rect(b.left, b.top, b.right, b.top + Math.max(winH, intrinsic)), b, 0, env);
    // adjustResize: when the content no longer fits, it shifts up so the focused field stays visible.
    if (intrinsic > winH && engine.ui.focused) {
      let focusedNode: LaidNode | undefined;
      walk(content, (n) => {
        if (n.stateKey === engine.ui.focused && n.view?.kind === 'edit') focusedNode = n;
      });
      const overflow = focusedNode ? focusedNode.full.bottom - b.bottom : 0;
      if (overflow > 0) {
        const shift = Math.min(overflow + dpToPx(engine.screen, 8), intrinsic - winH);
        content = place(spec.view, rect(b.left, b.top - shift, b.right, b.top - shift + intrinsic), b, 0, env);
      }
    }
    root.children.push(content);
  }
  return {
    info: {
      id: spec.id,
      type: spec.type,
      layer,
      bounds: b,
      package: spec.pkg,
      title: spec.title,
      focused,
      touchable: spec.touchable,
    },
    root,
    background: spec.background,
    dim: spec.dim,
    modal: spec.modal,
    onOutside: spec.onOutside,
  };
}
