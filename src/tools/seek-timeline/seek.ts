import type { Deadline } from '../../core/clock.js';
import type { Element, Observation } from '../../core/types.js';
import type { Device } from '../../device/device.js';
import { observeDevice, type Perceiver } from '../../executor/observe.js';
import type { SkillResult } from '../../executor/skill-step.js';
import {
  boundReadout,
  bubbleShown,
  describeIgnored,
  findTimeline,
  formatClock,
  parseClock,
  pauseControl,
  timeReadings,
} from '../../perception/timeline.js';
import { zoomRequest } from '../pinch.js';

/**
 * The `seek_timeline` skill: seek a self-drawn recording timeline to a second by the seed's closed
 * loop (时间轴精度). Pause first (a playing cursor never settles); zoom a little, since the app's
 * scale is not the fingers' ratio; measure the scale from the readout before and after a drag
 * (momentum included: every drag is the same 400 ms gesture, so the measured gain holds for the
 * next); drag by the local pixel→time mapping, wait until the readout is stable, read the residual
 * and correct, zooming in when the residual is smaller than a drag can resolve. The readout bound
 * to the cursor is second-level evidence only when stable and when the last move it measured agreed
 * with the scale; event cards, watermarks and drag bubbles never are. Without a readout it claims
 * nothing: the result is `uncertain`.
 */

export interface SeekReport {
  status: 'reached' | 'uncertain' | 'failed';
  target: string;
  /** The readout's last stable value, when it counts as evidence (never on `uncertain`). */
  reached?: string;
  /** target − reached, seconds (positive: the cursor is before the target). */
  residualSec?: number;
  /**
   * Where the cursor was left when the target was not reached, and on what that rests: its last
   * stable readout, one unsettled read, or unknown (no readout) — never a decoy's time.
   */
  cursor?: string;
  /** What the result rests on. */
  evidence: string[];
  /** Times on screen that were not used, and why. */
  ignored: string[];
  moves: number;
  pinches: number;
  paused: boolean;
  reason?: string;
}

export interface SeekDeps {
  device: Device;
  perceive: Perceiver;
}

export type SeekResult = SkillResult<SeekReport>;

const DRAG_MS = 400;
/** Readout samples this far apart and equal: settled (no momentum left, paused). */
const SETTLE_GAP_MS = 600;
/** Longer than a playback tick: equal across it means the cursor is not playing. */
const PAUSE_GAP_MS = 1100;
const MAX_SETTLE_TRIES = 10;
const BUBBLE_POLL_MS = 150;
const MAX_MOVES = 16;
const MAX_PINCHES = 8;
/** The seed's "zoom a little" before measuring, and the step when a residual needs finer pixels. */
const FIRST_ZOOM = 1.3;
const ZOOM_IN = 4;
/** A measuring drag moves the readout at least this far (s), so whole seconds give the scale to ~10%. */
const MEASURE_SEC = 10;
const ZOOM_OUT = 0.4;

type Settled = { ok: true; obs: Observation; sec: number } | { ok: false; obs?: Observation; reason: string };

class Seek {
  reads = 0;
  dispatched = false;
  moves = 0;
  pinches = 0;
  paused = false;
  /** The readout's last settled second (two equal reads), when there was one. */
  stable?: number;
  readonly evidence: string[] = [];
  readonly ignored = new Set<string>();
  private last?: Observation;

  constructor(
    private readonly deps: SeekDeps,
    private readonly d: Deadline,
    private timeline: Element,
  ) {}

  async read(): Promise<Observation | undefined> {
    const r = await observeDevice(this.deps.device, this.deps.perceive, this.last, this.d);
    this.reads++;
    if (!r.ok) return undefined;
    this.last = r.obs;
    for (const t of timeReadings(r.obs))
      if (t.source !== 'readout') this.ignored.add(describeIgnored(t).replace(/ \d.*$/, ''));
    const tl = findTimeline(r.obs, this.timeline.id) ?? findTimeline(r.obs);
    if (tl) this.timeline = tl;
    return r.obs;
  }

  latest(): Observation | undefined {
    return this.last;
  }

  /** A gesture was sent: the cursor may have moved, so the last settled second no longer says where it is. */
  private moved(delivery: string): void {
    if (delivery === 'not_delivered') return;
    this.dispatched = true;
    this.stable = undefined;
  }

  /** Where the cursor is, as far as the readout says; `trusted` false: quoted, never claimed. */
  cursor(trusted: boolean): string {
    if (this.stable !== undefined)
      return trusted
        ? `cursor at ${formatClock(this.stable)} (its readout, stable over ${SETTLE_GAP_MS} ms)`
        : `cursor readout ${formatClock(this.stable)} (stable, not trusted)`;
    const r = this.last ? boundReadout(this.last).reading : undefined;
    if (r) return `cursor readout ${r.text} (one read, not settled)`;
    // Nothing but the pause was sent: wherever the cursor is, it is where the seek found it.
    if (this.moves === 0 && this.pinches === 0)
      return 'cursor not moved (no drag was made); its second unknown: no readout bound to it';
    return 'cursor unknown: no readout bound to it';
  }

  /** Two reads `gapMs` apart showing the same readout, with no drag bubble: the cursor has settled. */
  async settle(gapMs: number): Promise<Settled> {
    let why = 'no read';
    for (let i = 0; i < MAX_SETTLE_TRIES && !this.d.expired(); i++) {
      const a = await this.read();
      if (!a) continue;
      // Still being dragged or coasting: look again shortly, without spending a full gap.
      if (bubbleShown(a)) {
        await this.d.sleep(BUBBLE_POLL_MS);
        continue;
      }
      await this.d.sleep(gapMs);
      const b = await this.read();
      if (!b) continue;
      const ra = boundReadout(a);
      const rb = boundReadout(b);
      if (ra.conflict || rb.conflict) return { ok: false, obs: b, reason: ra.conflict ?? rb.conflict ?? '' };
      if (!ra.reading || !rb.reading) return { ok: false, obs: b, reason: 'no readout bound to the cursor' };
      if (ra.reading.sec === rb.reading.sec && !bubbleShown(b)) {
        this.stable = rb.reading.sec;
        return { ok: true, obs: b, sec: rb.reading.sec };
      }
      why = `the readout moved from ${ra.reading.text} to ${rb.reading.text} in ${gapMs} ms`;
    }
    return { ok: false, obs: this.last, reason: `the readout did not settle (${why})` };
  }

  private get box() {
    return this.timeline.boundsPx;
  }

  get width(): number {
    return this.box.right - this.box.left;
  }

  /** One horizontal drag through the timeline's middle; dx < 0 moves the content left (later times). */
  async drag(dx: number): Promise<boolean> {
    const b = this.box;
    const cx = (b.left + b.right) / 2;
    const cy = Math.round((b.top + b.bottom) / 2);
    const path = Array.from({ length: 9 }, (_, i) => ({ x: Math.round(cx - dx / 2 + (dx * i) / 8), y: cy }));
    const r = await this.deps.device.swipe(path, { durationMs: DRAG_MS }, this.d);
    this.moved(r.receipt.delivery);
    this.moves++;
    return r.ok;
  }

  async zoom(scale: number, obs: Observation): Promise<boolean> {
    const p = zoomRequest(this.timeline.id, scale, obs);
    if (!p.ok || !p.req) return false;
    const r = await this.deps.device.native(p.req, this.d);
    this.moved(r.receipt.delivery);
    this.pinches++;
    return r.ok;
  }

  async tap(e: Element): Promise<boolean> {
    const b = e.boundsPx;
    const p = { x: Math.round((b.left + b.right) / 2), y: Math.round((b.top + b.bottom) / 2) };
    const r = await this.deps.device.tap(p, { durationMs: 50 }, this.d);
    this.moved(r.receipt.delivery);
    return r.ok;
  }

  canPinch(): boolean {
    return this.deps.device.capabilities().ops.has('pinch');
  }
}

export interface SeekRequest {
  timeline: Element;
  target: string;
  obs: Observation;
}

export async function seekTimeline(deps: SeekDeps, req: SeekRequest, d: Deadline): Promise<SeekResult> {
  const target = parseClock(req.target);
  const s = new Seek(deps, d, req.timeline);
  const result = (status: SeekReport['status'], extra: Partial<SeekReport> = {}): SeekResult => ({
    report: {
      status,
      target: target === undefined ? req.target : formatClock(target),
      evidence: s.evidence,
      ignored: [...s.ignored],
      moves: s.moves,
      pinches: s.pinches,
      paused: s.paused,
      ...(status === 'reached' ? {} : { cursor: s.cursor(status === 'failed') }),
      ...extra,
    },
    post: s.latest(),
    reads: s.reads,
    dispatched: s.dispatched,
  });
  if (target === undefined) return result('failed', { reason: `"${req.target}" is not a time: give text=HH:MM:SS` });

  // 1. Pause first: a playing cursor never settles, and a second read while it moves is no evidence.
  let obs = (await s.read()) ?? req.obs;
  const pause = pauseControl(obs);
  if (pause) {
    if (!(await s.tap(pause))) return result('failed', { reason: `tapping "${pause.text || pause.desc}" failed` });
    s.evidence.push(`paused with "${pause.text || pause.desc}"`);
  }
  const first = await s.settle(PAUSE_GAP_MS);
  if (!first.ok) {
    // No readout: nothing here can say which second the cursor is on. Claim none.
    const none = /no readout/.test(first.reason);
    return result(none ? 'uncertain' : 'failed', {
      paused: !!pause || none,
      reason: none
        ? 'no readout bound to the cursor, so the seek did not drag (it would have nothing to steer by): the cursor did not move, only playback was paused; the second under it cannot be read (event cards, watermarks and drag bubbles are not the current time); tell the user the time is uncertain (ask_user)'
        : `${first.reason}; pause playback and try again`,
    });
  }
  s.paused = true;
  obs = first.obs;
  let now = first.sec;

  // 2. Zoom a little; the first drag after any pinch measures the scale (readout before and after).
  if (s.canPinch() && (await s.zoom(FIRST_ZOOM, obs))) {
    const z = await s.settle(SETTLE_GAP_MS);
    if (!z.ok) return result('failed', { reason: z.reason });
    obs = z.obs;
    now = z.sec;
  }
  const loop = { gain: undefined as number | undefined, guess: undefined as number | undefined, consistent: false };
  let lastCheck = '';
  /** The app would not zoom further in: a residual under one drag's resolution stays. */
  let atMaxZoom = !s.canPinch();
  let gainBeforePinch: number | undefined;
  const minDrag = Math.max(40, 0.04 * s.width);
  const maxDrag = 0.8 * s.width;
  const toward = (r: number) => -Math.sign(r || 1);

  while (s.moves < MAX_MOVES && !d.expired()) {
    const residual = target - now;
    if (residual === 0 && loop.consistent) break;
    const { gain } = loop;
    let dx: number;
    if (gain === undefined) {
      // Measuring drag: toward the target, long enough for whole-second readouts to give the scale
      // to a tenth (it may overshoot: the corrections after it are measured).
      const px = loop.guess ? Math.max(Math.abs(residual), MEASURE_SEC) / loop.guess : 0.25 * s.width;
      dx = toward(residual) * Math.min(maxDrag, Math.max(minDrag, px));
    } else {
      const need = Math.abs(residual) / gain;
      const zoomIn = residual !== 0 && need < 1.5 * minDrag && !atMaxZoom && s.pinches < MAX_PINCHES;
      const zoomOut = need > 4 * maxDrag && s.pinches < MAX_PINCHES;
      if (zoomIn || zoomOut) {
        // Finer pixels (a second wider than the smallest drag that is not a tap), or a wider view.
        const scale = zoomIn ? ZOOM_IN : ZOOM_OUT;
        if (!(await s.zoom(scale, obs))) break;
        const z = await s.settle(SETTLE_GAP_MS);
        if (!z.ok) return result('failed', { reason: z.reason });
        obs = z.obs;
        now = z.sec;
        gainBeforePinch = zoomIn ? gain : undefined;
        Object.assign(loop, { guess: gain / Math.sqrt(scale), gain: undefined, consistent: false });
        continue;
      }
      if (residual !== 0 && need < minDrag && Math.abs(residual) <= 1 && loop.consistent) break;
      dx = toward(residual) * Math.min(maxDrag, Math.max(minDrag, need));
    }
    dx = Math.round(dx);
    const predicted = gain !== undefined ? -dx * gain : undefined;
    if (!(await s.drag(dx))) return result('failed', { reason: 'the drag was not delivered' });
    const z = await s.settle(SETTLE_GAP_MS);
    if (!z.ok) return result('failed', { reason: z.reason });
    const observed = z.sec - now;
    obs = z.obs;
    now = z.sec;
    // The readout must follow the content, the other way round from the finger.
    if (observed === 0 || Math.sign(observed) !== Math.sign(-dx)) {
      loop.consistent = false;
      if (gain === undefined)
        return result('uncertain', {
          reason: `the readout (${formatClock(now)}) did not follow a ${dx} px drag (it moved ${observed} s): it may not be bound to the cursor; tell the user the time is uncertain (ask_user)`,
        });
      continue;
    }
    if (predicted !== undefined) {
      loop.consistent = Math.abs(observed - predicted) <= Math.max(1.5, 0.3 * Math.abs(predicted));
      lastCheck = `drag ${dx} px: scale predicted ${predicted.toFixed(1)} s, readout moved ${observed} s`;
    }
    const measured = observed / -dx;
    // A pinch that left the scale as it was: the app is at its finest zoom.
    if (gain === undefined && gainBeforePinch !== undefined && measured > 0.85 * gainBeforePinch) atMaxZoom = true;
    gainBeforePinch = undefined;
    // A change of a few whole seconds measures the scale too coarsely to replace a longer one.
    if (gain === undefined || Math.abs(observed) >= MEASURE_SEC / 2) Object.assign(loop, { gain: measured });
    loop.guess = undefined;
  }

  const consistent = loop.consistent;
  const gain = loop.gain;
  const residual = target - now;
  const scale = gain !== undefined ? `${gain.toFixed(3)} s/px` : 'unmeasured';
  if (consistent) s.evidence.push(`scale ${scale} (${lastCheck})`);
  s.evidence.push(`readout ${formatClock(now)} stable over ${SETTLE_GAP_MS} ms`);
  // An untrusted reading is quoted in the reason, never reported as the second reached.
  if (!consistent)
    return result('uncertain', {
      reason: `the readout (${formatClock(now)}) was stable but its last change did not agree with the measured scale (${lastCheck || 'no measured move'}); tell the user the time is uncertain (ask_user)`,
    });
  if (Math.abs(residual) > 1)
    return result('failed', {
      reached: formatClock(now),
      residualSec: residual,
      reason: `stopped ${residual} s from the target after ${s.moves} drags and ${s.pinches} pinches; call seek_timeline again`,
    });
  return result('reached', { reached: formatClock(now), residualSec: residual });
}

/** One line for the model's history. */
/** The readout it settled on, when that counts as evidence (a cursor left unsure reads nothing). */
export function seekReadings(value: unknown): string[] {
  const r = value as Partial<SeekReport> | undefined;
  return r && typeof r.reached === 'string' ? [r.reached] : [];
}

export function seekSummary(value: unknown): string | undefined {
  const r = value as Partial<SeekReport> | undefined;
  if (!r || typeof r !== 'object' || !r.status || !r.target) return undefined;
  const parts = [`seek ${r.status}: target ${r.target}`];
  if (r.reached !== undefined) parts.push(`readout ${r.reached} (residual ${r.residualSec ?? '?'} s)`);
  else if (r.cursor) parts.push(r.cursor);
  if (r.evidence?.length) parts.push(`evidence: ${r.evidence.join('; ')}`);
  if (r.ignored?.length) parts.push(`not evidence: ${r.ignored.join(', ')}`);
  if (r.reason) parts.push(r.reason);
  return parts.join(' · ');
}
