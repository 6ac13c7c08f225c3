import type { Clock } from '../../../core/clock.js';
import type { WireScreen } from '../../../device/protocol/wire.js';
import type { App, AppContext, Banner, DialogSpec, Route } from '../app.js';
import type { World } from '../world.js';
import type { Frame } from './frame.js';
import type { UiState } from './layout.js';
import type { KeyboardLayer } from './system-views.js';
import { liveToasts, TOAST_MS, type ToastEntry, type ToastLength } from './toasts.js';

/**
 * The virtual phone's activity manager: installed apps, one back stack per started app, the
 * foreground app, dialogs, banners, toasts, the keyboard and app timers. Every change bumps the
 * screen revision; timers are fired lazily against the clock (`pump`), never by sleeping in the
 * background, so a VirtualClock only moves when a test or a latency moves it.
 */

export const LAUNCHER = 'com.android.launcher3';
export const TRANSITION_MS = 300;
export const BANNER_MS = 4000;

export interface RouteEntry {
  route: Route;
  /** Unique per pushed screen: scopes its UI state and names its window. */
  serial: number;
}

export interface DialogEntry {
  id: number;
  spec: DialogSpec;
  owner: string;
}

export interface TimedEntry<T> {
  id: number;
  value: T;
  pkg: string;
  until: number;
}

interface Timer {
  at: number;
  seq: number;
  pkg?: string;
  fn: () => void;
}

export interface EngineDeps {
  clock: Clock;
  screen: WireScreen;
  world: World;
  apps: App[];
  random: () => number;
  locale: 'en' | 'zh';
}

export class Engine {
  readonly clock: Clock;
  /** Mutable: the phone can be rotated at run time. */
  screen: WireScreen;
  readonly world: World;
  readonly apps: Map<string, App>;
  readonly locale: 'en' | 'zh';
  readonly random: () => number;

  revision = 1;
  foreground = LAUNCHER;
  readonly tasks = new Map<string, RouteEntry[]>();
  /** Most recent first. */
  recents: string[] = [];
  dialogs: DialogEntry[] = [];
  banners: TimedEntry<Banner>[] = [];
  /** Posted notifications, newest first, listed in the shade until opened or cleared. */
  notifications: TimedEntry<Banner>[] = [];
  toasts: ToastEntry[] = [];
  readonly ui: UiState = { selections: new Map(), scroll: new Map(), web: new Map() };
  keyboardShown = false;
  keyboardLayer: KeyboardLayer = 'letters';
  /** While set, screenshots still show `from` (the tree already shows the new screen). */
  transition?: { from: Frame; until: number };
  /** The last frame built (cached while `revision` is unchanged). */
  lastFrame?: Frame;
  overlay = false;
  /** The quick-settings shade, pulled down from the status bar. */
  shadeOpen = false;
  /** Id of the current input method (`pkg/.Service`); the agent IME draws a slim bar, not keys. */
  currentIme: () => string = () => 'com.android.inputmethod.latin/.LatinIME';

  private serial = 1;
  private windowSerial = 1000;
  private timers: Timer[] = [];
  private timerSeq = 0;
  private readonly contexts = new Map<string, AppContext>();

  constructor(deps: EngineDeps) {
    this.clock = deps.clock;
    this.screen = deps.screen;
    this.world = deps.world;
    this.locale = deps.locale;
    this.random = deps.random;
    this.apps = new Map(deps.apps.map((a) => [a.package, a]));
    if (!this.apps.has(LAUNCHER)) throw new Error('the virtual phone needs the launcher app');
    this.tasks.set(LAUNCHER, [this.entry(this.apps.get(LAUNCHER)!.activities[0])]);
  }

  /** A state change: the screen revision moves and the cached frame is dropped. */
  changed(): void {
    this.revision++;
  }

  nextWindowId(): number {
    return ++this.windowSerial;
  }

  ctx(pkg: string): AppContext {
    let c = this.contexts.get(pkg);
    if (c) return c;
    c = {
      world: this.world,
      clock: this.clock,
      locale: this.locale,
      random: this.random,
      navigate: (activity, params) => this.push(pkg, { activity, params: params ?? {} }, false),
      replace: (activity, params) => this.push(pkg, { activity, params: params ?? {} }, true),
      back: () => this.pop(pkg),
      showDialog: (d) => this.showDialog(d, pkg),
      closeDialog: () => this.closeDialog(pkg),
      toast: (text, length) => this.toast(text, pkg, length),
      notify: (b) => this.notify(b),
      launch: (p, activity, params) => {
        this.launch(p, activity, params);
      },
      invalidate: () => this.changed(),
      later: (ms, fn) => this.later(ms, fn, pkg),
    };
    this.contexts.set(pkg, c);
    return c;
  }

  top(pkg = this.foreground): RouteEntry | undefined {
    const t = this.tasks.get(pkg);
    return t?.[t.length - 1];
  }

  /** Find an app by package, or by label (exact, then case-insensitive prefix/substring; English or Chinese). */
  findApp(query: string): App | undefined {
    const byPkg = this.apps.get(query);
    if (byPkg) return byPkg;
    const q = query.trim().toLowerCase();
    const all = [...this.apps.values()].filter((a) => !a.hidden);
    const labels = (a: App) => [a.label, a.labelZh ?? ''].map((l) => l.toLowerCase()).filter(Boolean);
    return (
      all.find((a) => labels(a).includes(q)) ??
      all.find((a) => labels(a).some((l) => l.startsWith(q))) ??
      all.find((a) => labels(a).some((l) => l.includes(q) || (q.length > 2 && q.includes(l))))
    );
  }

  /** Start or resume an app; returns its package, or undefined when no app matches. */
  launch(query: string, activity?: string, params?: Record<string, unknown>): string | undefined {
    const app = this.findApp(query);
    if (!app) return undefined;
    if (app.package === LAUNCHER) {
      this.goHome();
      return app.package;
    }
    const running = this.tasks.get(app.package);
    const wanted = activity && app.activities.includes(activity) ? activity : undefined;
    const top = running?.[running.length - 1];
    // Starting the app already in front, without a new activity, changes nothing on screen.
    if (this.foreground === app.package && !params && (!wanted || top?.route.activity === wanted)) return app.package;
    this.beginTransition();
    this.hideKeyboard(true);
    this.shadeOpen = false;
    const pkg = app.package;
    this.foreground = pkg;
    this.recents = [pkg, ...this.recents.filter((p) => p !== pkg)];
    const task = this.tasks.get(pkg);
    const act = activity && app.activities.includes(activity) ? activity : undefined;
    if (task) {
      if (act && (params || task[task.length - 1].route.activity !== act)) task.push(this.entry(act, params));
    } else {
      this.tasks.set(pkg, [this.entry(act ?? app.activities[0], act ? params : undefined)]);
      app.onLaunch?.(this.ctx(pkg));
      this.world.launched[pkg] = true;
    }
    this.changed();
    return pkg;
  }

  goHome(): void {
    this.beginTransition();
    this.hideKeyboard(true);
    this.shadeOpen = false;
    this.foreground = LAUNCHER;
    const first = this.apps.get(LAUNCHER)!.activities[0];
    this.tasks.set(LAUNCHER, [this.entry(first)]);
    this.changed();
  }

  /** The overview: the launcher's recents screen listing started apps. */
  showRecents(): void {
    this.goHome();
    const launcher = this.apps.get(LAUNCHER)!;
    if (launcher.activities.includes('.RecentsActivity'))
      this.tasks.get(LAUNCHER)!.push(this.entry('.RecentsActivity'));
  }

  /** The app process dies: its screens, dialogs and timers are gone; the next launch is cold. */
  kill(pkg: string): boolean {
    if (pkg === LAUNCHER || !this.tasks.has(pkg)) return false;
    for (const e of this.tasks.get(pkg) ?? []) this.forgetScope(`${pkg}@${e.serial}`);
    this.tasks.delete(pkg);
    this.dialogs = this.dialogs.filter((d) => d.owner !== pkg);
    this.timers = this.timers.filter((t) => t.pkg !== pkg);
    this.recents = this.recents.filter((p) => p !== pkg);
    if (this.foreground === pkg) {
      this.hideKeyboard(true);
      this.foreground = LAUNCHER;
      this.tasks.set(LAUNCHER, [this.entry(this.apps.get(LAUNCHER)!.activities[0])]);
    }
    this.changed();
    return true;
  }

  push(pkg: string, route: Route, replace: boolean): void {
    const task = this.tasks.get(pkg);
    if (!task) return;
    if (pkg === this.foreground) {
      this.beginTransition();
      this.hideKeyboard(true);
    }
    if (replace) task.pop();
    task.push(this.entry(route.activity, route.params));
    this.changed();
  }

  /** Leave the top screen; leaving an app's first screen finishes it and shows home. */
  pop(pkg: string): void {
    const task = this.tasks.get(pkg);
    if (!task) return;
    if (pkg === LAUNCHER && task.length <= 1) return;
    if (pkg === this.foreground) {
      this.beginTransition();
      this.hideKeyboard(true);
    }
    const gone = task.pop();
    if (gone) this.forgetScope(`${pkg}@${gone.serial}`);
    if (task.length === 0) {
      this.tasks.delete(pkg);
      this.recents = this.recents.filter((p) => p !== pkg);
      if (this.foreground === pkg) {
        this.foreground = LAUNCHER;
        this.tasks.set(LAUNCHER, [this.entry(this.apps.get(LAUNCHER)!.activities[0])]);
      }
    }
    this.changed();
  }

  showDialog(spec: DialogSpec, owner: string): void {
    this.dialogs.push({ id: this.nextWindowId(), spec, owner });
    this.changed();
  }

  closeDialog(owner: string): void {
    const i = this.dialogs.map((d) => d.owner).lastIndexOf(owner);
    if (i >= 0) {
      this.dialogs.splice(i, 1);
      this.changed();
    }
  }

  /**
   * Dialogs on screen: those of the foreground app's task (a permission dialog belongs to the task
   * that asked), and global ones (owner `*`).
   */
  visibleDialogs(): DialogEntry[] {
    return this.dialogs.filter((d) => d.owner === this.foreground || d.owner === '*');
  }

  toast(text: string, pkg: string, length: ToastLength = 'short'): void {
    const ms = TOAST_MS[length];
    this.toasts.push({ id: this.nextWindowId(), value: text, pkg, until: this.clock.now() + ms });
    // The timer only marks the moment the screen changes; `pump` drops what has expired.
    this.later(ms, () => {});
    this.changed();
  }

  notify(b: Banner): void {
    const e = { id: this.nextWindowId(), value: b, pkg: b.package, until: this.clock.now() + BANNER_MS };
    this.banners.push(e);
    // The notification stays in the shade after its banner goes.
    this.notifications = [e, ...this.notifications].slice(0, 20);
    this.later(BANNER_MS, () => {
      this.banners = this.banners.filter((x) => x !== e);
    });
    this.changed();
  }

  /** Swipe a heads-up banner away: it leaves the screen and stays in the shade. */
  dismissBanner(id: number): void {
    const before = this.banners.length;
    this.banners = this.banners.filter((b) => b.id !== id);
    if (this.banners.length !== before) this.changed();
  }

  /** Open a notification (from its banner or the shade): it is dismissed and its app opens. */
  openBanner(id: number): void {
    const e = this.banners.find((b) => b.id === id) ?? this.notifications.find((b) => b.id === id);
    if (!e) return;
    this.banners = this.banners.filter((b) => b !== e);
    this.notifications = this.notifications.filter((b) => b !== e);
    this.shadeOpen = false;
    this.changed();
    if (e.value.onTap) e.value.onTap();
    else this.launch(e.value.package);
  }

  later(ms: number, fn: () => void, pkg?: string): void {
    this.timers.push({ at: this.clock.now() + Math.max(0, ms), seq: this.timerSeq++, pkg, fn });
  }

  /** Fire every timer that is due, in time order; each one is a state change. */
  pump(): void {
    const now = this.clock.now();
    for (;;) {
      let best: Timer | undefined;
      for (const t of this.timers)
        if (t.at <= now && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
      if (!best) break;
      this.timers = this.timers.filter((t) => t !== best);
      best.fn();
      this.changed();
    }
    if (this.transition && now >= this.transition.until) this.transition = undefined;
    const top = this.top();
    const live = liveToasts(this.toasts, now, `${this.foreground}@${top?.serial ?? 0}`);
    if (live.length !== this.toasts.length) {
      this.toasts = live;
      this.changed();
    }
  }

  /** Screenshots keep showing the current picture for ~300 ms while the tree moves on. */
  beginTransition(): void {
    const now = this.clock.now();
    if (this.transition && now < this.transition.until) {
      this.transition.until = now + TRANSITION_MS;
      return;
    }
    if (this.lastFrame) this.transition = { from: this.lastFrame, until: now + TRANSITION_MS };
  }

  /** Rotate the display: odd quarter turns swap width and height. */
  rotate(rotation: 0 | 1 | 2 | 3): void {
    const cur = this.screen;
    if (cur.rotation === rotation) return;
    const swap = cur.rotation % 2 !== rotation % 2;
    this.beginTransition();
    this.screen = {
      width: swap ? cur.height : cur.width,
      height: swap ? cur.width : cur.height,
      density: cur.density,
      rotation,
    };
    this.changed();
  }

  setShade(open: boolean): void {
    if (this.shadeOpen === open) return;
    this.beginTransition();
    this.shadeOpen = open;
    this.changed();
  }

  focusEdit(key: string): void {
    if (this.ui.focused !== key || !this.keyboardShown) {
      // The IME slides in: for a moment the picture lags the tree.
      if (!this.keyboardShown) this.beginTransition();
      this.ui.focused = key;
      this.keyboardShown = true;
      this.changed();
    }
  }

  hideKeyboard(clearFocus: boolean): void {
    if (this.keyboardShown || (clearFocus && this.ui.focused)) this.changed();
    this.keyboardShown = false;
    this.keyboardLayer = 'letters';
    if (clearFocus) this.ui.focused = undefined;
  }

  private entry(activity: string, params: Record<string, unknown> = {}): RouteEntry {
    return { route: { activity, params }, serial: this.serial++ };
  }

  private forgetScope(scope: string): void {
    for (const m of [this.ui.scroll, this.ui.selections, this.ui.web]) {
      for (const k of m.keys()) if (k.startsWith(`${scope}#`)) m.delete(k);
    }
  }
}
