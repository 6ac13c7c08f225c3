import { type Clock, VirtualClock } from '../../core/clock.js';
import { seededRandom } from '../../core/random.js';
import type { KeyName } from '../../core/types.js';
import type { WireScreen, WireSnapshot } from '../../device/protocol/wire.js';
import type { App, AppFactory, Banner, DialogSpec } from './app.js';
import { createLauncherApp, drawerPages, stockAppFactories } from './apps/launcher.js';
import { appFactories } from './apps/registry.js';
import { Engine, LAUNCHER } from './engine/engine.js';
import { buildFrame, type Frame, type SystemActions } from './engine/frame.js';
import { focusedNode, gesture, type InputHost, type KeyCode, pressKey, strokeDuration } from './engine/input.js';
import { performNodeAction } from './engine/node-actions.js';
import { resolveScreen, type ScreenOption, screenGeometry } from './engine/screen.js';
import { SystemServices } from './engine/services.js';
import { IME_PACKAGE, PERMISSION_PACKAGE, SYSTEM_UI } from './engine/system-views.js';
import { asciiProblem, insertText } from './engine/text.js';
import { type NodeQuery, queryMatches } from './node-query.js';
import { ScreenshotCache } from './render/png.js';
import { frameToSnapshot } from './render/tree.js';
import { EMPTY_DUMP_ERROR, frameToXml } from './render/xml.js';
import { swipeStroke, tapStroke } from './strokes.js';
import type {
  DeviceInfo,
  Faults,
  InputResult,
  Latency,
  NodeAction,
  PhoneSurface,
  Screenshot,
  Stroke,
  TouchCheck,
} from './surface.js';
import type { World } from './world.js';
import { createWorld } from './world-seed.js';

/**
 * The virtual phone: apps with state, windows, layout, input, time and faults behind the
 * `PhoneSurface` the bridge server, the ADB transport and tests drive. `world` is for tests and
 * checkers only.
 */

export interface VirtualPhoneDeps {
  /** Default: a VirtualClock that auto-advances (tests). Servers pass a RealClock. */
  clock?: Clock;
  screen?: ScreenOption;
  seed?: number;
  locale?: 'en' | 'zh';
  /**
   * Device latencies in ms, slept on the clock; all 0 by default. The phone sleeps `helperInput` on
   * touch, key, IME and node input, and the read latencies; `shellInput` is slept by the ADB side.
   */
  latency?: Partial<Latency>;
  /** Installed apps; default: the registry plus stock filler apps. The launcher is always installed. */
  apps?: AppFactory[];
  info?: Partial<DeviceInfo>;
}

export const NO_FAULTS: Faults = {
  helperUnresponsive: false,
  helperDisconnected: false,
  slowTreeMs: 0,
  emptyTree: false,
  dropInput: false,
  dropShortTaps: false,
  cropStatusBar: false,
  overlay: false,
};

export class VirtualPhone implements PhoneSurface {
  readonly clock: Clock;
  readonly info: DeviceInfo;
  readonly faults: Faults = { ...NO_FAULTS };
  readonly latency: Latency;
  private readonly state: World;
  readonly locale: 'en' | 'zh';
  private readonly engine: Engine;
  private readonly services: SystemServices;
  private readonly shots: ScreenshotCache;
  private readonly sys: SystemActions;
  private readonly host: InputHost;

  constructor(deps: VirtualPhoneDeps = {}) {
    this.clock = deps.clock ?? new VirtualClock();
    const screen = resolveScreen(deps.screen);
    const seed = deps.seed ?? 1;
    this.locale = deps.locale ?? 'en';
    this.latency = {
      treeRead: 0,
      nodeLookup: 0,
      uiautomatorDump: 0,
      screenshot: 0,
      helperInput: 0,
      shellInput: 0,
      ...deps.latency,
    };
    const apps: App[] = (deps.apps ?? appFactories).map((f) => f());
    if (!deps.apps) {
      // Stock filler apps only where no real app of that name is installed (a real Clock wins).
      const taken = new Set(apps.flatMap((a) => [a.label.toLowerCase(), (a.labelZh ?? '').toLowerCase()]));
      apps.push(
        ...stockAppFactories()
          .map((f) => f())
          .filter((a) => !taken.has(a.label.toLowerCase())),
      );
    }
    const launcher = createLauncherApp({
      installed: () => [...this.engine.apps.values()],
      recents: () => this.engine.recents,
      kill: (pkg) => this.engine.kill(pkg),
    });
    if (!apps.some((a) => a.package === LAUNCHER)) apps.unshift(launcher);
    this.state = createWorld(seed, apps);
    this.info = {
      manufacturer: 'Google',
      model: this.state.about.model,
      product: 'panther',
      device: 'panther',
      serial: `VPHONE${String(seed).padStart(6, '0')}`,
      androidVersion: this.state.about.androidVersion,
      apiLevel: 34,
      helperVersion: '0.1.0',
      ...deps.info,
    };
    this.engine = new Engine({
      clock: this.clock,
      screen,
      world: this.state,
      apps,
      random: seededRandom(seed ^ 0x5eed),
      locale: this.locale,
    });
    this.services = new SystemServices(this.state, () => this.engine.changed());
    this.engine.currentIme = () => this.services.current();
    this.shots = new ScreenshotCache();
    this.sys = {
      navKey: (k) => {
        pressKey(this.engine, this.frame(), k);
      },
      type: (t) => {
        const n = focusedNode(this.engine, this.frame());
        if (n && n.view?.enabled !== false) insertText(this.engine, n, t);
      },
      del: () => {
        pressKey(this.engine, this.frame(), 'delete');
      },
      enter: () => {
        pressKey(this.engine, this.frame(), 'enter');
      },
      dialogButton: (id, i) => {
        const d = this.engine.dialogs.find((x) => x.id === id);
        if (!d) return;
        // The button's handler runs first (it may close this dialog itself or open another one);
        // then this dialog is dismissed, as an AlertDialog does after a button click.
        d.spec.buttons[i]?.onTap();
        this.engine.dialogs = this.engine.dialogs.filter((x) => x !== d);
        this.engine.changed();
      },
      openBanner: (id) => this.engine.openBanner(id),
    };
    this.host = {
      engine: this.engine,
      frame: () => this.frame(),
      dropShortTaps: () => this.faults.dropShortTaps,
    };
  }

  /**
   * The world state, for tests and checkers only. Reading it first fires app timers that are due, so
   * a checker sees what happened up to now even if nobody looked at the screen.
   */
  get world(): World {
    this.engine.pump();
    return this.state;
  }

  // ---- state -------------------------------------------------------------------------------

  /** The current screen revision (the `seq` of a snapshot taken now). */
  revision(): number {
    this.frame();
    return this.engine.revision;
  }

  /** The laid-out current frame (fires due timers first). Tests may read it; servers use readTree. */
  frame(): Frame {
    const e = this.engine;
    if (e.overlay !== this.faults.overlay) {
      e.overlay = this.faults.overlay;
      e.changed();
    }
    e.pump();
    if (!e.lastFrame || e.lastFrame.revision !== e.revision) {
      e.lastFrame = buildFrame(e, this.sys);
      // Building may drop a vanished focus; keep the frame's revision in step.
      if (e.lastFrame.revision !== e.revision) e.lastFrame = { ...e.lastFrame, revision: e.revision };
    }
    return e.lastFrame;
  }

  screen(): WireScreen {
    return { ...this.engine.screen };
  }

  // ---- observation ---------------------------------------------------------------------------

  async readTree(): Promise<WireSnapshot> {
    await this.pause(this.latency.treeRead + this.faults.slowTreeMs);
    const snap = frameToSnapshot(this.frame());
    snap.takenAt = this.clock.now();
    if (this.faults.emptyTree) snap.nodes = [];
    return snap;
  }

  async queryNodes(q: NodeQuery): Promise<WireSnapshot> {
    await this.pause(this.latency.nodeLookup);
    const snap = frameToSnapshot(this.frame());
    snap.takenAt = this.clock.now();
    const hit = queryMatches(q);
    snap.nodes = this.faults.emptyTree ? [] : snap.nodes.filter(hit);
    return snap;
  }

  async dumpXml(): Promise<string> {
    await this.pause(this.latency.uiautomatorDump + this.faults.slowTreeMs);
    // uiautomator's DumpCommand waits for the UI to go idle first (waitForIdle): a dump is never
    // of a screen still animating in, so a screencap taken after it shows the same screen.
    const giveUp = this.clock.now() + 10_000;
    for (let i = 0; i < 50; i++) {
      this.frame();
      const until = this.engine.transition?.until;
      if (until === undefined || this.clock.now() >= giveUp) break;
      await this.pause(Math.min(until, giveUp) - this.clock.now());
    }
    if (this.faults.emptyTree) throw new Error(EMPTY_DUMP_ERROR);
    return frameToXml(this.frame());
  }

  async screenshot(): Promise<Screenshot> {
    await this.pause(this.latency.screenshot);
    const current = this.frame();
    // During a transition the picture still shows the previous screen.
    const shown = this.engine.transition?.from ?? current;
    const crop = this.faults.cropStatusBar ? screenGeometry(shown.screen).statusBarHeight : 0;
    const png = await this.shots.render(shown, crop);
    return { png, width: shown.screen.width, height: shown.screen.height - crop, offsetY: crop, seq: shown.revision };
  }

  // ---- input ---------------------------------------------------------------------------------

  async gesture(strokes: Stroke[], guard?: TouchCheck): Promise<InputResult> {
    // The guard's lookup is paid first; its verdict is taken on the tree as it is when the touch
    // lands (the engine applies a gesture at once after its duration), so nothing slips in between.
    if (guard) await this.pause(guard.costMs(frameToSnapshot(this.frame()), this.latency));
    await this.pause(this.latency.helperInput + strokeDuration(strokes));
    if (guard) {
      const refused = guard.check(frameToSnapshot(this.frame()));
      if (refused) return refused;
    }
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    return gesture(this.host, strokes);
  }

  /** A tap of `durationMs` (default 1 ms, like `input tap`; human taps are 40–60 ms). */
  tap(x: number, y: number, durationMs = 1, guard?: TouchCheck): Promise<InputResult> {
    return this.gesture([tapStroke(x, y, durationMs)], guard);
  }

  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number, guard?: TouchCheck): Promise<InputResult> {
    return this.gesture([swipeStroke(x1, y1, x2, y2, durationMs)], guard);
  }

  async key(key: KeyName | 'delete' | 'search' | 'menu'): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    return pressKey(this.engine, this.frame(), key as KeyCode);
  }

  async inputText(text: string): Promise<InputResult> {
    const bad = asciiProblem(text);
    if (bad) return { ok: false, code: 'INVALID_ARGUMENT', message: bad };
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const n = focusedNode(this.engine, this.frame());
    if (!n || n.view?.enabled === false) return { ok: true, detail: 'no focused field: text went nowhere' };
    insertText(this.engine, n, text);
    return { ok: true };
  }

  async imeCommit(text: string): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const n = focusedNode(this.engine, this.frame());
    if (!n) return { ok: false, code: 'UNAVAILABLE', message: 'no focused text field: tap or focus a field first' };
    if (n.view?.enabled === false) return { ok: false, code: 'UNSUPPORTED', message: 'the focused field is disabled' };
    insertText(this.engine, n, text);
    return { ok: true };
  }

  async nodeAction(seq: number, nodeId: number, action: NodeAction): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    const frame = this.frame();
    if (seq !== frame.revision) {
      return {
        ok: false,
        code: 'STALE',
        message: `snapshot ${seq} is stale (the screen is at revision ${frame.revision}); observe again`,
      };
    }
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    return performNodeAction(this.engine, frame, nodeId, action);
  }

  // ---- apps ----------------------------------------------------------------------------------

  async launch(packageOrLabel: string, activity?: string): Promise<InputResult> {
    this.frame();
    const pkg = this.engine.launch(packageOrLabel, activity);
    if (!pkg) return { ok: false, code: 'NOT_FOUND', message: `no installed app matches "${packageOrLabel}"` };
    return { ok: true, detail: pkg };
  }

  async forceStop(pkg: string): Promise<InputResult> {
    this.frame();
    this.engine.kill(pkg);
    return { ok: true };
  }

  foreground(): { package: string; activity: string } {
    const f = this.frame();
    return { package: f.foreground.package, activity: f.foreground.activity };
  }

  packages(): { package: string; label: string; activities: string[] }[] {
    const apps = [...this.engine.apps.values()].map((a) => ({
      package: a.package,
      label: this.locale === 'zh' && a.labelZh ? a.labelZh : a.label,
      activities: [...a.activities],
    }));
    const system = [
      { package: SYSTEM_UI, label: 'System UI', activities: [] },
      { package: IME_PACKAGE, label: 'Android Keyboard (AOSP)', activities: [] },
      { package: PERMISSION_PACKAGE, label: 'Permission controller', activities: [] },
      { package: 'com.phoneagent.ime', label: 'Agent IME', activities: [] },
    ];
    const installed = this.services
      .installedPackages()
      .filter((p) => !apps.some((a) => a.package === p.package))
      .map((p) => ({ ...p, activities: [] }));
    return [...apps, ...system.filter((s) => !apps.some((a) => a.package === s.package)), ...installed];
  }

  installPackage(pkg: string, label: string): void {
    this.services.installPackage(pkg, label);
  }
  installedPackages(): string[] {
    return this.services.installedPackages().map((p) => p.package);
  }
  uninstallPackage(pkg: string): boolean {
    return this.services.uninstallPackage(pkg);
  }
  helperRunning(): boolean {
    return this.services.helperRunning();
  }

  /** The launcher drawer's pages, for tests and task authors (e.g. pick an app on page 2). */
  drawerPages(): { package: string; label: string }[][] {
    return drawerPages([...this.engine.apps.values()]).map((page) =>
      page.map((a) => ({ package: a.package, label: this.locale === 'zh' && a.labelZh ? a.labelZh : a.label })),
    );
  }

  // ---- system services -----------------------------------------------------------------------

  getSetting(namespace: string, key: string): string | undefined {
    return this.services.getSetting(namespace, key);
  }
  putSetting(namespace: string, key: string, value: string): void {
    this.services.putSetting(namespace, key, value);
  }
  readFile(path: string): Buffer | undefined {
    return this.services.readFile(path);
  }
  writeFile(path: string, data: Buffer): void {
    this.services.writeFile(path, data);
  }
  listDir(path: string): string[] | undefined {
    return this.services.listDir(path);
  }
  /** `rm`: false when the file does not exist or is not writable. */
  removeFile(path: string): boolean {
    return this.services.removeFile(path);
  }
  imes(): { id: string; enabled: boolean; current: boolean }[] {
    return this.services.imes();
  }
  setIme(id: string): boolean {
    return this.services.setIme(id);
  }
  enableIme(id: string, enabled: boolean): boolean {
    return this.services.enableIme(id, enabled);
  }

  /** Sleep on the phone's clock; zero latency does not touch the clock at all. */
  private async pause(ms: number): Promise<void> {
    if (ms > 0) await this.clock.sleep(ms);
  }

  // ---- faults and test hooks -----------------------------------------------------------------

  /** Run `fn` on the phone's clock at time `atMs` (default: now): faults that depend on the moment. */
  at(atMs: number | undefined, fn: () => void): void {
    const delay = atMs === undefined ? 0 : atMs - this.clock.now();
    if (delay <= 0) fn();
    else this.engine.later(delay, fn);
  }

  /** Show `dialog` at clock time `atMs` (default: now), over the app in the foreground then. */
  popup(dialog: DialogSpec, atMs?: number): void {
    this.at(atMs, () => this.engine.showDialog(dialog, this.engine.foreground));
  }
  /** Post a notification (heads-up banner, then the shade) at clock time `atMs` (default: now). */
  notify(banner: Banner, atMs?: number): void {
    this.at(atMs, () => this.engine.notify(banner));
  }

  /**
   * Rotate the display (0 = natural, 1 = 90°, 2 = 180°, 3 = 270°): width and height swap on odd
   * turns relative to the natural orientation, every window is laid out again and the picture lags
   * ~300 ms, as an auto-rotate does.
   */
  rotate(rotation: 0 | 1 | 2 | 3): void {
    this.frame();
    this.engine.rotate(rotation);
  }

  /** The foreground app dies (its screens and dialogs vanish; home is shown). */
  killForeground(): void {
    this.frame();
    this.engine.kill(this.engine.foreground);
  }
}
