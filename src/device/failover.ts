import { type Clock, Deadline } from '../core/clock.js';
import type { PxPoint } from '../core/geometry.js';
import type { Logger } from '../core/logger.js';
import type { KeyName } from '../core/types.js';
import { squashLabel } from './app-label.js';
import {
  type AppsResult,
  asFailover,
  type ControlRequest,
  type Device,
  type DeviceCall,
  type DeviceCapabilities,
  type DeviceHealth,
  type SnapshotResult,
  type TouchOptions,
} from './device.js';
import type { ActionRequest } from './protocol/index.js';

/**
 * Helper first; when it stops answering, continue on ADB — loudly logged, and visible in every
 * receipt (`backend`, `failover: true`) — and go back to the helper when it answers again.
 *
 * Only calls that provably never reached the phone (`not_delivered`) are re-run on the fallback.
 * A call that may have acted (`unknown`) is returned as is: the executor observes before any retry.
 * Native control actions have no meaning over ADB and are never replayed there.
 */

export interface FailoverOptions {
  primary: Device;
  fallback: Device;
  clock: Clock;
  logger: Logger;
  /** How often to probe the helper while on the fallback (ms). */
  probeEveryMs?: number;
}

type Failed = { ok: false; code: string; receipt: { delivery: string } };

function helperGone(r: { ok: boolean; code?: string }): boolean {
  return !r.ok && (r.code === 'UNAVAILABLE' || r.code === 'TIMEOUT');
}

export class FailoverDevice implements Device {
  readonly name = 'failover';
  private onFallback = false;
  private lastProbe = 0;
  /** Names from the last app list → package: a name either backend listed launches on both. */
  private listed = new Map<string, string>();
  /** Every switch, for the run report. */
  readonly switches: { at: number; to: 'bridge' | 'adb'; why: string }[] = [];

  constructor(private readonly o: FailoverOptions) {}

  get usingFallback(): boolean {
    return this.onFallback;
  }

  private switchTo(to: 'bridge' | 'adb', why: string): void {
    this.onFallback = to === 'adb';
    this.switches.push({ at: this.o.clock.now(), to, why });
    if (to === 'adb') this.o.logger.warn(`FAILOVER: the helper stopped answering (${why}); continuing on adb`, { to });
    else this.o.logger.warn(`FAILOVER: the helper answers again; back from adb to the helper`, { to });
  }

  /** While on the fallback, probe the helper now and then; switch back when it answers. */
  private async maybeReturn(d: Deadline): Promise<void> {
    if (!this.onFallback) return;
    const now = this.o.clock.now();
    if (now - this.lastProbe < (this.o.probeEveryMs ?? 2_000)) return;
    this.lastProbe = now;
    const h = await this.o.primary.health(d.child(Math.min(1_000, d.remaining())));
    if (h.ok) this.switchTo('bridge', h.detail);
  }

  capabilities(): DeviceCapabilities {
    const c = (this.onFallback ? this.o.fallback : this.o.primary).capabilities();
    return { ...c, backend: 'failover', detail: `${this.onFallback ? 'adb (failover)' : 'helper'}: ${c.detail ?? ''}` };
  }

  async health(d: Deadline): Promise<DeviceHealth> {
    const h = await this.o.primary.health(d);
    if (h.ok) return h;
    const f = await this.o.fallback.health(d);
    return { ...f, failover: true, detail: `helper down (${h.detail}); adb: ${f.detail}` };
  }

  async snapshot(opts: { screenshot?: boolean }, d: Deadline): Promise<SnapshotResult> {
    await this.maybeReturn(d);
    if (!this.onFallback) {
      const r = await this.o.primary.snapshot(opts, this.share(d));
      if (r.ok || !helperGone(r)) return r;
      this.switchTo('adb', r.message);
      this.lastProbe = this.o.clock.now();
    }
    const f = await this.o.fallback.snapshot(opts, d);
    return { ...f, failover: true };
  }

  /** The helper's share of a deadline: a hung helper must leave time for the fallback. */
  private share(d: Deadline): Deadline {
    return d.child(Math.max(1_000, Math.floor(d.remaining() / 2)));
  }

  /** Run on the helper; on "not answering" switch, and re-run on adb only if nothing was delivered. */
  private async route(
    call: (dev: Device, d: Deadline) => Promise<DeviceCall>,
    d: Deadline,
    replayable = true,
  ): Promise<DeviceCall> {
    await this.maybeReturn(d);
    if (!this.onFallback) {
      // Native calls (long waits, scrolls) keep the whole deadline: they are never replayed anyway.
      const r = await call(this.o.primary, replayable ? this.share(d) : d);
      if (r.ok || !helperGone(r)) return r;
      this.switchTo('adb', r.message);
      this.lastProbe = this.o.clock.now();
      if ((r as Failed).receipt.delivery !== 'not_delivered' || !replayable) return r;
    }
    return asFailover(await call(this.o.fallback, d));
  }

  // A guarded touch is never replayed on adb, which cannot check the guard: the executor reads again.
  tap(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.tap(p, o, dl), d, !o.guard);
  }
  longPress(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.longPress(p, o, dl), d, !o.guard);
  }
  swipe(path: PxPoint[], o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.swipe(path, o, dl), d, !o.guard);
  }
  key(k: KeyName | 'delete' | 'search' | 'menu', d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.key(k, dl), d);
  }
  setText(text: string, o: { selector?: ControlRequest['selector'] }, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.setText(text, o, dl), d);
  }
  imeCommit(text: string, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.imeCommit(text, dl), d);
  }
  inputText(text: string, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.inputText(text, dl), d);
  }
  launchApp(t: { package?: string; label?: string; activity?: string }, d: Deadline): Promise<DeviceCall> {
    // adb's names (package words) mean nothing to the helper's label match, and the helper's
    // localized labels nothing to adb's: a name from the list goes by its package.
    const pkg = !t.package && t.label ? this.listed.get(squashLabel(t.label)) : undefined;
    const target = pkg ? { package: pkg, activity: t.activity } : t;
    return this.route((x, dl) => x.launchApp(target, dl), d);
  }
  native(req: ActionRequest, d: Deadline): Promise<DeviceCall> {
    return this.route((x, dl) => x.native(req, dl), d, false);
  }
  /**
   * The helper's list (real labels); adb's when the helper is gone or has no such op (an older
   * helper). A read: nothing to replay, so the only question is who answers.
   */
  async listApps(d: Deadline): Promise<AppsResult> {
    await this.maybeReturn(d);
    if (!this.onFallback) {
      const r = await this.o.primary.listApps(this.share(d));
      if (r.ok) return this.remember(r);
      if (helperGone(r)) {
        this.switchTo('adb', r.message);
        this.lastProbe = this.o.clock.now();
      }
    }
    return this.remember({ ...(await this.o.fallback.listApps(d)), failover: true });
  }

  private remember(r: AppsResult): AppsResult {
    if (r.ok) this.listed = new Map(r.apps.map((a) => [squashLabel(a.label), a.package]));
    return r;
  }
  async close(): Promise<void> {
    await Promise.all([this.o.primary.close(), this.o.fallback.close()]);
  }

  /** For callers that want to probe right now (tests, `phone-agent doctor`). */
  async probe(): Promise<void> {
    this.lastProbe = 0;
    await this.maybeReturn(Deadline.after(this.o.clock, 2_000));
  }
}
