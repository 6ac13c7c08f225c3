import type { Clock, Deadline } from '../core/clock.js';
import type { PxPoint } from '../core/geometry.js';
import type { Delivery, ErrorCode, KeyName, Receipt, ReceiptStatus } from '../core/types.js';
import type {
  ActionReceipt,
  ActionRequest,
  ControlRequest,
  PinchRequest,
  ScrollToRequest,
  TouchGestureRequest,
  TouchGuard,
  WaitUntilRequest,
  WireScreen,
  WireSnapshot,
} from './protocol/index.js';

/**
 * One semantic Device over every transport (DESIGN §2–3): the helper bridge, ADB, and failover
 * between them. Coordinates here are pixels of the full physical screen — the executor converts
 * once, at dispatch. Every call takes the one Deadline of its dispatch. Expected failures are values
 * (`{ ok: false, code, message, receipt }`), never exceptions; the receipt says whether input may
 * have reached the phone (`delivery`), so nothing that may have happened is retried blindly.
 */

export type BackendName = 'bridge' | 'adb';

/** Device operations a backend can perform; the planner is offered only tools built from these. */
export type DeviceOp =
  | 'snapshot'
  | 'screenshot'
  | 'tap'
  | 'long_press'
  | 'swipe'
  | 'key'
  | 'set_text'
  | 'ime_commit'
  | 'input_text'
  | 'launch_app'
  | 'read_control'
  | 'control_action'
  | 'wait_until'
  | 'scroll_to'
  | 'pinch'
  | 'touch_gesture'
  | 'action_sequence'
  /** Touches may carry a guard the helper checks on the phone right before injecting (PROTOCOL §7). */
  | 'guarded_touch'
  /** The launcher's apps with their labels (`listApps`; PROTOCOL §5 `/v3/apps`). */
  | 'list_apps';

export interface DeviceCapabilities {
  backend: BackendName | 'failover';
  ops: ReadonlySet<DeviceOp>;
  screen: WireScreen;
  /** Text beyond ASCII can be entered (set_text or an IME commit). */
  unicodeText: boolean;
  detail?: string;
}

export interface DeviceHealth {
  ok: boolean;
  backend: string;
  failover: boolean;
  detail: string;
}

export interface CapturedScreenshot {
  png: Buffer;
  width: number;
  height: number;
  /** Pixel rows of the full screen above the image (a capture cropped below the status bar). */
  offsetY: number;
  /** The screen revision the picture shows, when the device reports it. */
  seq?: number;
}

export type SnapshotResult =
  | {
      ok: true;
      snapshot: WireSnapshot;
      screenshot?: CapturedScreenshot;
      backend: BackendName;
      failover: boolean;
      /** ms the read took on the device clock. */
      tookMs: number;
    }
  | { ok: false; code: ErrorCode; message: string; backend: BackendName; failover: boolean };

/** A launcher app, named so that `launchApp({ label })` on the same device opens it. */
export interface AppInfo {
  package: string;
  /** The launcher's label (helper), or over adb a word of the package that label matching accepts. */
  label: string;
  activity?: string;
}

export type AppsResult =
  | {
      ok: true;
      apps: AppInfo[];
      /** `launcher`: the labels the phone shows; `package`: made from package words (adb reads no labels). */
      labels: 'launcher' | 'package';
      backend: BackendName;
      failover: boolean;
    }
  | { ok: false; code: ErrorCode; message: string; backend: BackendName; failover: boolean };

export type DeviceCall =
  | { ok: true; receipt: Receipt; device?: ActionReceipt }
  | { ok: false; code: ErrorCode; message: string; receipt: Receipt; device?: ActionReceipt };

export interface TouchOptions {
  durationMs: number;
  /**
   * Only with the `guarded_touch` op: the target the helper must find unchanged right before it
   * touches, else `STALE`/`OCCLUDED` and nothing touched. A backend without it refuses a guarded
   * touch (UNSUPPORTED), never drops the guard.
   */
  guard?: TouchGuard;
}

export interface Device {
  readonly name: string;
  capabilities(): DeviceCapabilities;
  health(d: Deadline): Promise<DeviceHealth>;
  snapshot(opts: { screenshot?: boolean }, d: Deadline): Promise<SnapshotResult>;

  tap(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall>;
  longPress(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall>;
  /** A swipe along a path (first → last point; a backend may only honour the ends). */
  swipe(path: PxPoint[], o: TouchOptions, d: Deadline): Promise<DeviceCall>;
  key(k: KeyName | 'delete' | 'search' | 'menu', d: Deadline): Promise<DeviceCall>;
  /** ACTION_SET_TEXT on the field (the focused one when `selector` is omitted): replaces its text. */
  setText(text: string, o: { selector?: ControlRequest['selector'] }, d: Deadline): Promise<DeviceCall>;
  /** IME commit at the focused field's cursor (Unicode). */
  imeCommit(text: string, d: Deadline): Promise<DeviceCall>;
  /** `input text`: printable ASCII only. */
  inputText(text: string, d: Deadline): Promise<DeviceCall>;
  launchApp(target: { package?: string; label?: string; activity?: string }, d: Deadline): Promise<DeviceCall>;
  /** The launcher's apps (read-only). A value, never a throw: a backend without the op says UNSUPPORTED. */
  listApps(d: Deadline): Promise<AppsResult>;
  /** Native tools, as helper protocol requests (already validated by the executor). */
  native(req: ActionRequest, d: Deadline): Promise<DeviceCall>;
  close(): Promise<void>;
}

export type NativeRequest = ActionRequest;
export type { ControlRequest, PinchRequest, ScrollToRequest, TouchGestureRequest, WaitUntilRequest };

/**
 * Builds the receipt of one device call: it knows whether dispatch began, so a timeout before it
 * is `not_delivered` (safe to retry) and one after it is `unknown` (observe first).
 */
export class CallRecorder {
  readonly startedAt: number;
  private dispatchedAt?: number;
  constructor(
    private readonly clock: Clock,
    readonly backend: BackendName,
    private readonly failover = false,
  ) {
    this.startedAt = clock.now();
  }

  get dispatched(): boolean {
    return this.dispatchedAt !== undefined;
  }

  markDispatched(): void {
    this.dispatchedAt ??= this.clock.now();
  }

  receipt(status: ReceiptStatus, delivery: Delivery, extra: Partial<Receipt> = {}): Receipt {
    return {
      status,
      delivery,
      method: this.backend,
      backend: this.backend,
      failover: this.failover,
      timings: { startedAt: this.startedAt, dispatchedAt: this.dispatchedAt, endedAt: this.clock.now() },
      ...extra,
    };
  }

  ok(extra: Partial<Receipt> = {}, device?: ActionReceipt): DeviceCall {
    this.markDispatched();
    return { ok: true, receipt: this.receipt('completed', 'delivered', extra), device };
  }

  /** A failure decided before anything was sent: nothing reached the phone. */
  refused(code: ErrorCode, message: string): DeviceCall {
    return {
      ok: false,
      code,
      message,
      receipt: this.receipt('not_started', 'not_delivered', { error: { code, message } }),
    };
  }

  /** The request was attempted but provably never reached the phone (connection refused, helper down). */
  refusedAfterAttempt(code: ErrorCode, message: string): DeviceCall {
    return {
      ok: false,
      code,
      message,
      receipt: this.receipt('not_started', 'not_delivered', { error: { code, message } }),
    };
  }

  /** A failure after dispatch began (or may have): the phone may have acted. */
  failed(code: ErrorCode, message: string, delivery: Delivery = 'unknown', device?: ActionReceipt): DeviceCall {
    const status: ReceiptStatus =
      delivery === 'not_delivered' ? 'not_started' : delivery === 'unknown' ? 'unknown' : 'completed';
    return { ok: false, code, message, receipt: this.receipt(status, delivery, { error: { code, message } }), device };
  }

  /** The run was cancelled: before dispatch → not_delivered, after → unknown. */
  cancelled(what: string): DeviceCall {
    return this.dispatched
      ? this.failed('CANCELLED', `${what}: cancelled after the input was sent; observe the screen before retrying`)
      : this.refused('CANCELLED', `${what}: cancelled before the input was sent; nothing was delivered`);
  }

  /** The deadline ran out: before dispatch → not_delivered, after → unknown. */
  timeout(what: string): DeviceCall {
    return this.dispatched
      ? this.failed(
          'TIMEOUT',
          `${what}: deadline passed after the input was sent; observe the screen before retrying`,
          'unknown',
        )
      : this.refused(
          'TIMEOUT',
          `${what}: deadline passed before the input was sent; nothing was delivered, safe to retry`,
        );
  }
}

/** Unsupported tools fail clearly and before anything is sent. */
export function unsupported(clock: Clock, backend: BackendName, op: string, why: string, failover = false): DeviceCall {
  return new CallRecorder(clock, backend, failover).refused(
    'UNSUPPORTED',
    `${op} is not supported by the ${backend} backend: ${why}`,
  );
}

/** Mark a call's receipt as made through failover (visible in every receipt). */
export function asFailover(c: DeviceCall): DeviceCall {
  return { ...c, receipt: { ...c.receipt, failover: true } };
}
