import type { Clock } from '../../core/clock.js';
import type { ErrorCode, KeyName } from '../../core/types.js';
import type { WireScreen, WireSnapshot } from '../../device/protocol/wire.js';
import type { NodeQuery } from './node-query.js';

/**
 * What the virtual phone offers to the servers in front of it (the bridge HTTP server, the ADB
 * device transport) and to tests. Everything is in pixels of the full physical screen. Servers never
 * reach into the world state; only `world` (for checkers and tests) does.
 */

export interface DeviceInfo {
  manufacturer: string;
  model: string;
  /** ro.product.name / ro.product.device */
  product: string;
  device: string;
  serial: string;
  androidVersion: string;
  apiLevel: number;
  helperVersion: string;
}

/** One finger's path: points with times relative to the gesture start (ms). */
export interface Stroke {
  points: { x: number; y: number; t: number }[];
}

/** A helper's check of a guarded touch (helper/PROTOCOL.md §7): its cost on this tree, and its verdict. */
export interface TouchCheck {
  costMs(snap: WireSnapshot, latency: Latency): number;
  /** undefined: touch; otherwise the refusal (nothing is injected). */
  check(snap: WireSnapshot): InputResult | undefined;
}

/** The outcome of an input or node action, as the phone saw it. */
export type InputResult = { ok: true; detail?: string } | { ok: false; code: ErrorCode; message: string };

export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
  /** 0, or the status bar height when the capture is cropped (a fault). */
  offsetY: number;
  /** The screen revision the image shows; during a ~300 ms transition it lags the tree's `seq`. */
  seq?: number;
}

/** Native node actions (DESIGN §3 control_action) addressed by a node of a given snapshot. */
export type NodeAction =
  | { action: 'click' | 'long_click' | 'focus' | 'show_on_screen' | 'scroll_forward' | 'scroll_backward' | 'ime_enter' }
  | { action: 'set_text'; text: string }
  | { action: 'set_progress'; value: number }
  | { action: 'set_selection'; start: number; end: number }
  | { action: 'replace_selection'; text: string };

export interface Faults {
  /** The helper (bridge) does not answer: requests hang until their deadline. */
  helperUnresponsive: boolean;
  /** The helper is gone: connections are refused. */
  helperDisconnected: boolean;
  /** Extra delay on every tree read / uiautomator dump (ms). */
  slowTreeMs: number;
  /** Tree reads return no nodes (uiautomator dump: "ERROR: null root node returned by UiTestAutomationBridge."). */
  emptyTree: boolean;
  /** Input is accepted (exit 0, ok) but nothing happens. */
  dropInput: boolean;
  /** Taps shorter than 10 ms are dropped, as some ROMs do. */
  dropShortTaps: boolean;
  /** Screenshots exclude the status bar. */
  cropStatusBar: boolean;
  /** A transparent full-screen overlay swallows every touch. */
  overlay: boolean;
}

/** Realistic device latencies (ms), applied on the phone's clock. */
export interface Latency {
  /** A whole tree read by the helper (walk every window, serialize, answer). */
  treeRead: number;
  /**
   * A guarded touch's target lookup on the phone: the window list and the nodes Android finds by
   * view id or text (one accessibility query per window); a guard with neither, or whose lookup finds
   * nothing, walks the whole tree (`treeRead`) instead.
   */
  nodeLookup: number;
  uiautomatorDump: number;
  screenshot: number;
  helperInput: number;
  shellInput: number;
}

export interface PhoneSurface {
  readonly clock: Clock;
  readonly info: DeviceInfo;
  readonly faults: Faults;
  readonly latency: Latency;

  screen(): WireScreen;
  /** The current tree, after `latency.treeRead` and the tree faults. */
  readTree(): Promise<WireSnapshot>;
  /**
   * Android's query for nodes by view id or text (./node-query.ts), after `latency.nodeLookup`: the
   * windows in full, only the nodes the query finds (ids as in the whole tree). Nothing found is an
   * answer, not a failed read; the empty-tree fault finds nothing.
   */
  queryNodes(q: NodeQuery): Promise<WireSnapshot>;
  /** uiautomator-format XML, after `latency.uiautomatorDump` and any running transition (its idle wait); empty-tree fault → throws. */
  dumpXml(): Promise<string>;
  screenshot(): Promise<Screenshot>;

  /**
   * Multi-finger gesture; taps, long presses, swipes and pinches are all strokes. With `guard`, the
   * helper's check runs on the current tree at the instant the touch lands (nothing can change in
   * between), after its lookup cost; a refusal means nothing was touched.
   */
  gesture(strokes: Stroke[], guard?: TouchCheck): Promise<InputResult>;
  tap(x: number, y: number, durationMs?: number, guard?: TouchCheck): Promise<InputResult>;
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number, guard?: TouchCheck): Promise<InputResult>;
  key(key: KeyName | 'delete' | 'search' | 'menu'): Promise<InputResult>;
  /** `input text`: ASCII only, as on a real phone; non-ASCII fails. */
  inputText(text: string): Promise<InputResult>;
  /** IME commit into the focused field (Unicode), as our IME's broadcast does. */
  imeCommit(text: string): Promise<InputResult>;
  /** A native node action on node `nodeId` of snapshot `seq`; a newer screen revision → STALE. */
  nodeAction(seq: number, nodeId: number, action: NodeAction): Promise<InputResult>;

  /** Launch by package (or label, fuzzy). */
  launch(packageOrLabel: string, activity?: string): Promise<InputResult>;
  forceStop(pkg: string): Promise<InputResult>;
  foreground(): { package: string; activity: string };
  packages(): { package: string; label: string; activities: string[] }[];
  /** `pm install` of an APK (the helper app, or an inert package that never runs). */
  installPackage(pkg: string, label: string): void;
  /** Packages installed over adb (a reinstall replaces them; built-in apps cannot be replaced). */
  installedPackages(): string[];
  /** `pm uninstall`: false for built-in apps and unknown packages. */
  uninstallPackage(pkg: string): boolean;
  /** True while the helper app is installed and its accessibility service enabled. */
  helperRunning(): boolean;

  /** `settings get|put` namespace key (system / secure / global). */
  getSetting(namespace: string, key: string): string | undefined;
  putSetting(namespace: string, key: string, value: string): void;

  /** The phone's file system for adb push/pull (sdcard, /data/local/tmp). */
  readFile(path: string): Buffer | undefined;
  writeFile(path: string, data: Buffer): void;
  listDir(path: string): string[] | undefined;

  /** Input methods: ids, the enabled and the current one. */
  imes(): { id: string; enabled: boolean; current: boolean }[];
  setIme(id: string): boolean;
  enableIme(id: string, enabled: boolean): boolean;
}
