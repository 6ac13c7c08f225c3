import { randomBytes } from 'node:crypto';
import { type Clock, Deadline } from '../../core/clock.js';
import type { PxPoint } from '../../core/geometry.js';
import type { Logger } from '../../core/logger.js';
import type { KeyName } from '../../core/types.js';
import {
  type AppsResult,
  CallRecorder,
  type ControlRequest,
  type Device,
  type DeviceCall,
  type DeviceCapabilities,
  type DeviceHealth,
  type DeviceOp,
  type CallRecorder as Recorder,
  type SnapshotResult,
  type TouchOptions,
  unsupported,
} from '../device.js';
import {
  ACTION_NAMES,
  type ActionReceipt,
  ActionReceiptSchema,
  type ActionRequest,
  type ActionRequestInput,
  APPS_PATH,
  AppsSchema,
  SnapshotSchema,
  type WireScreen,
} from '../protocol/index.js';
import { BridgeClient, type BridgeClientOptions } from './client.js';

/**
 * The helper bridge backend: every Device call is one `POST /v3/action` (or `/v3/snapshot`) with
 * its own op_id, so a resent request can never dispatch twice. Capabilities come from `hello`.
 */

/** Every protocol action is a device op of the same name; `hello` says which ones this helper has. */
const OPS: readonly DeviceOp[] = [...ACTION_NAMES, 'guarded_touch', 'list_apps'];

export interface BridgeDeviceOptions extends BridgeClientOptions {
  /** Prefix of op_ids, unique per agent process. */
  opPrefix?: string;
}

export class BridgeDevice implements Device {
  readonly name = 'bridge';
  readonly client: BridgeClient;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private seq = 0;
  private readonly prefix: string;
  private screen?: WireScreen;

  constructor(opts: BridgeDeviceOptions) {
    this.client = new BridgeClient(opts);
    this.clock = opts.clock;
    this.logger = opts.logger;
    // Random, not clock-based: two clients (or a resumed run) must never reuse an op_id, or the
    // helper would answer with the stored receipt instead of dispatching.
    this.prefix = opts.opPrefix ?? `pa${randomBytes(6).toString('hex')}`;
  }

  /** `hello`: negotiates capabilities. Fails with a message that says what to do. */
  async connect(d: Deadline): Promise<{ ok: true } | { ok: false; message: string }> {
    const r = await this.client.connect(d);
    if (!r.ok) return r;
    this.screen = r.hello.screen;
    this.logger.info('helper connected', {
      helper: r.hello.helperVersion,
      api: r.hello.apiLevel,
      capabilities: r.hello.capabilities.length,
    });
    return { ok: true };
  }

  capabilities(): DeviceCapabilities {
    const hello = this.client.info;
    const declared = new Set(hello?.capabilities ?? []);
    const ops = new Set<DeviceOp>(['snapshot', 'screenshot']);
    for (const op of OPS) if (declared.has(op)) ops.add(op);
    return {
      backend: 'bridge',
      ops: hello ? ops : new Set(),
      screen: this.screen ?? { width: 0, height: 0, rotation: 0, density: 0 },
      unicodeText: ops.has('set_text') || ops.has('ime_commit'),
      detail: hello ? `helper ${hello.helperVersion}, API ${hello.apiLevel}` : 'not connected',
    };
  }

  async health(d: Deadline): Promise<DeviceHealth> {
    const r = await this.client.connect(d);
    return {
      ok: r.ok,
      backend: 'bridge',
      failover: false,
      detail: r.ok ? `helper ${r.hello.helperVersion}` : r.message,
    };
  }

  async snapshot(opts: { screenshot?: boolean }, d: Deadline): Promise<SnapshotResult> {
    const t0 = this.clock.now();
    const body = opts.screenshot ? { screenshot: { format: 'png' } } : {};
    const r = await this.client.post('/v3/snapshot', body, d);
    if (!r.ok)
      return {
        ok: false,
        code: r.code === 'TIMEOUT' || r.code === 'UNSUPPORTED' || r.code === 'CANCELLED' ? r.code : 'UNAVAILABLE',
        message: r.message,
        backend: 'bridge',
        failover: false,
      };
    const s = SnapshotSchema.safeParse(r.body);
    if (!s.success)
      return {
        ok: false,
        code: 'READ_FAILED',
        message: `the helper's snapshot does not parse: ${s.error.issues[0]?.message}`,
        backend: 'bridge',
        failover: false,
      };
    this.screen = s.data.screen;
    const shot = s.data.screenshot;
    return {
      ok: true,
      snapshot: { ...s.data, screenshot: undefined },
      screenshot: shot
        ? {
            png: Buffer.from(shot.base64, 'base64'),
            width: shot.width,
            height: shot.height,
            offsetY: shot.offsetY,
            seq: shot.seq,
          }
        : undefined,
      backend: 'bridge',
      failover: false,
      tookMs: this.clock.now() - t0,
    };
  }

  private has(op: DeviceOp): boolean {
    return this.capabilities().ops.has(op);
  }

  /** One action through `/v3/action`, its receipt mapped onto the core Receipt. */
  private async act(op: DeviceOp, req: ActionRequestInput, d: Deadline, injectedPx?: PxPoint): Promise<DeviceCall> {
    const rec = new CallRecorder(this.clock, 'bridge');
    if (this.client.info && !this.has(op))
      return unsupported(this.clock, 'bridge', op, 'the connected helper does not declare it');
    const opId = `${this.prefix}-${++this.seq}`;
    if (d.aborted) return rec.cancelled(op);
    if (d.expired()) return rec.timeout(op);
    rec.markDispatched();
    const r = await this.client.post('/v3/action', { ...req, op_id: opId }, d);
    if (!r.ok) {
      if (!r.sent) return rec.refusedAfterAttempt(r.code, r.message);
      if (r.code === 'TIMEOUT' || r.code === 'CANCELLED') {
        void this.cancel(opId);
        return r.code === 'CANCELLED' ? rec.cancelled(op) : rec.timeout(op);
      }
      return rec.failed(r.code, r.message, 'unknown');
    }
    const parsed = ActionReceiptSchema.safeParse(r.body);
    if (!parsed.success)
      return rec.failed('INTERNAL', `${op}: the helper's receipt does not parse: ${parsed.error.issues[0]?.message}`);
    return fromDeviceReceipt(rec, parsed.data, injectedPx);
  }

  /** Best effort: a late copy of a timed-out gesture must not run after we gave up on it. */
  private async cancel(opId: string): Promise<void> {
    await this.client.post('/v3/cancel', { op_id: opId }, Deadline.after(this.clock, 1_000)).catch(() => undefined);
  }

  /** A guard goes only to a helper that declares `guarded_touch`; elsewhere the touch is refused, not sent unguarded. */
  private guardOf(o: TouchOptions): { guard?: TouchOptions['guard']; refused?: DeviceCall } {
    if (!o.guard) return {};
    if (!this.has('guarded_touch'))
      return {
        refused: unsupported(this.clock, 'bridge', 'guarded_touch', 'the connected helper does not declare it'),
      };
    return { guard: o.guard };
  }

  async tap(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const g = this.guardOf(o);
    if (g.refused) return g.refused;
    const req = { action: 'tap' as const, x: p.x, y: p.y, coord_space: 'pixel' as const, duration_ms: o.durationMs };
    return this.act('tap', { ...req, ...(g.guard ? { guard: g.guard } : {}) }, d, p);
  }
  async longPress(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const g = this.guardOf(o);
    if (g.refused) return g.refused;
    const req = {
      action: 'long_press' as const,
      x: p.x,
      y: p.y,
      coord_space: 'pixel' as const,
      duration_ms: o.durationMs,
    };
    return this.act('long_press', { ...req, ...(g.guard ? { guard: g.guard } : {}) }, d, p);
  }
  async swipe(path: PxPoint[], o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const g = this.guardOf(o);
    if (g.refused) return g.refused;
    const guard = g.guard ? { guard: g.guard } : {};
    const a = path[0];
    const b = path[path.length - 1];
    if (!a || !b) return new CallRecorder(this.clock, 'bridge').refused('INVALID_ARGUMENT', 'a swipe needs two points');
    if (path.length > 2 && this.has('touch_gesture')) {
      // The curved path as one finger's keyframes (≤ 32), so the app sees the curve.
      const step = Math.max(1, Math.ceil(path.length / 31));
      const pts = path.filter((_, i) => i % step === 0 || i === path.length - 1);
      const frames = pts.map((p, i) => ({
        at_ms: Math.round((i / (pts.length - 1)) * o.durationMs),
        points: [{ x: p.x, y: p.y }],
      }));
      return this.act('touch_gesture', { action: 'touch_gesture', coord_space: 'pixel', frames, ...guard }, d, a);
    }
    return this.act(
      'swipe',
      {
        action: 'swipe',
        x1: a.x,
        y1: a.y,
        x2: b.x,
        y2: b.y,
        coord_space: 'pixel',
        duration_ms: o.durationMs,
        ...guard,
      },
      d,
      a,
    );
  }
  key(k: KeyName | 'delete' | 'search' | 'menu', d: Deadline): Promise<DeviceCall> {
    return this.act('key', { action: 'key', key: k }, d);
  }
  setText(text: string, o: { selector?: ControlRequest['selector'] }, d: Deadline): Promise<DeviceCall> {
    return this.act('set_text', { action: 'set_text', text, selector: o.selector }, d);
  }
  imeCommit(text: string, d: Deadline): Promise<DeviceCall> {
    return this.act('ime_commit', { action: 'ime_commit', text }, d);
  }
  async inputText(): Promise<DeviceCall> {
    return unsupported(this.clock, 'bridge', 'input_text', 'the helper enters text with set_text or ime_commit');
  }
  launchApp(t: { package?: string; label?: string; activity?: string }, d: Deadline): Promise<DeviceCall> {
    return this.act('launch_app', { action: 'launch_app', ...t }, d);
  }
  native(req: ActionRequest, d: Deadline): Promise<DeviceCall> {
    return this.act(req.action, req, d);
  }
  /** `POST /v3/apps`; a helper that does not declare `list_apps` is not asked (an older one has no such endpoint). */
  async listApps(d: Deadline): Promise<AppsResult> {
    const no = (
      code: 'UNSUPPORTED' | 'UNAVAILABLE' | 'TIMEOUT' | 'READ_FAILED' | 'CANCELLED',
      message: string,
    ): AppsResult => ({
      ok: false,
      code,
      message,
      backend: 'bridge',
      failover: false,
    });
    if (this.client.info && !this.has('list_apps'))
      return no('UNSUPPORTED', 'list_apps: the connected helper does not declare it (update the helper app)');
    const r = await this.client.post(APPS_PATH, {}, d);
    if (!r.ok)
      return no(
        r.code === 'TIMEOUT' || r.code === 'UNSUPPORTED' || r.code === 'CANCELLED' ? r.code : 'UNAVAILABLE',
        r.message,
      );
    const a = AppsSchema.safeParse(r.body);
    if (!a.success) return no('READ_FAILED', `the helper's app list does not parse: ${a.error.issues[0]?.message}`);
    return { ok: true, apps: a.data.apps, labels: 'launcher', backend: 'bridge', failover: false };
  }
  async close(): Promise<void> {}
}

/** The helper's receipt → the core Receipt (status, delivery and error kept as the helper said). */
export function fromDeviceReceipt(rec: Recorder, r: ActionReceipt, injectedPx?: PxPoint): DeviceCall {
  const receipt = {
    ...rec.receipt(r.status, r.delivery, { injectedPx, error: r.error, ...(r.detail ? { detail: r.detail } : {}) }),
    pre: r.before ? { ...r.before } : undefined,
    post: r.after ? { ...r.after } : undefined,
  };
  if (r.error || r.status === 'unknown' || r.status === 'cancelled' || r.status === 'not_started')
    return {
      ok: false,
      code: r.error?.code ?? (r.status === 'unknown' ? 'TIMEOUT' : 'CANCELLED'),
      message: r.error?.message ?? `${r.action} ended ${r.status}`,
      receipt,
      device: r,
    };
  return { ok: true, receipt, device: r };
}
