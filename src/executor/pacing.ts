import type { Clock, Deadline } from '../core/clock.js';
import type { PxPoint } from '../core/geometry.js';

/**
 * Human-looking gestures and pacing (DESIGN §5): taps 40–60 ms (shorter ones are dropped by some
 * ROMs), swipes ≥ 300 ms on a curved path (faster becomes a fling), 150–400 ms jitter between
 * actions, condition polling every ~120 ms up to 6 s. All randomness is seeded so tests replay.
 */

export const TAP_MS = { min: 40, max: 60 } as const;
export const LONG_PRESS_MS = 700;
export const SWIPE_MIN_MS = 300;
export const JITTER_MS = { min: 150, max: 400 } as const;
export const POLL = { intervalMs: 120, timeoutMs: 6000 } as const;

export class Pacer {
  constructor(private readonly random: () => number) {}

  private between(min: number, max: number): number {
    return Math.round(min + this.random() * (max - min));
  }

  tapMs(): number {
    return this.between(TAP_MS.min, TAP_MS.max);
  }

  jitterMs(): number {
    return this.between(JITTER_MS.min, JITTER_MS.max);
  }

  /** A swipe never shorter than 300 ms; longer distances get a little more time. */
  swipeMs(from: PxPoint, to: PxPoint, requested?: number): number {
    const dist = Math.hypot(to.x - from.x, to.y - from.y);
    const natural = SWIPE_MIN_MS + Math.min(300, dist / 8) + this.between(0, 60);
    return Math.max(SWIPE_MIN_MS, Math.round(requested ?? natural));
  }

  /**
   * A cubic Bézier from `from` to `to` whose control points bow sideways by a few percent of the
   * length, so the path is curved like a thumb's, not a ruler line.
   */
  curvedPath(from: PxPoint, to: PxPoint, steps = 12): PxPoint[] {
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len;
    const ny = dx / len;
    const bow = len * (0.04 + this.random() * 0.04) * (this.random() < 0.5 ? -1 : 1);
    const c1 = { x: from.x + dx / 3 + nx * bow, y: from.y + dy / 3 + ny * bow };
    const c2 = { x: from.x + (2 * dx) / 3 + nx * bow, y: from.y + (2 * dy) / 3 + ny * bow };
    const out: PxPoint[] = [];
    for (let i = 0; i <= steps; i++) {
      const t = i / steps;
      const u = 1 - t;
      out.push({
        x: Math.round(u * u * u * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * to.x),
        y: Math.round(u * u * u * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * to.y),
      });
    }
    return out;
  }

  /** The pause between two actions, cut short by the deadline. */
  async pause(deadline: Deadline): Promise<number> {
    const ms = this.jitterMs();
    await deadline.sleep(Math.min(ms, deadline.remaining()));
    return ms;
  }
}

/**
 * The 150–400 ms gap between actions, counted from the previous dispatch (reads happen inside it):
 * a rate limit between actions, not an action's cost.
 */
export class ActionGap {
  private lastDispatchAt?: number;
  constructor(
    private readonly pacer: Pacer,
    private readonly clock: Clock,
  ) {}

  /** Wait out what is left of the gap; returns how long this call waited (ms). */
  async wait(d: Deadline): Promise<number> {
    if (this.lastDispatchAt === undefined) return 0;
    const wait = this.lastDispatchAt + this.pacer.jitterMs() - this.clock.now();
    if (wait <= 0) return 0;
    const t0 = this.clock.now();
    await d.sleep(wait);
    return this.clock.now() - t0;
  }

  /** A dispatch ended now: the next action's gap counts from here. */
  dispatched(): void {
    this.lastDispatchAt = this.clock.now();
  }
}

export interface PollResult<T> {
  ok: boolean;
  value?: T;
  polls: number;
  /** The last error a probe reported; a failed read never counts as the condition being met. */
  lastError?: string;
}

/**
 * Condition polling with early exit: probe, and if not yet true, sleep ~120 ms and probe again, up
 * to `timeoutMs` (6 s by default) and never past the deadline.
 */
export async function pollUntil<T>(
  probe: () => Promise<{ done: boolean; value?: T; error?: string }>,
  deadline: Deadline,
  opts: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<PollResult<T>> {
  const d = deadline.child(opts.timeoutMs ?? POLL.timeoutMs);
  const interval = opts.intervalMs ?? POLL.intervalMs;
  let polls = 0;
  let lastError: string | undefined;
  for (;;) {
    polls++;
    const r = await probe();
    if (r.error !== undefined) lastError = r.error;
    else if (r.done) return { ok: true, value: r.value, polls };
    if (d.remaining() <= 0) return { ok: false, polls, lastError };
    await d.sleep(Math.min(interval, d.remaining()));
    if (d.remaining() <= 0) {
      // One last probe at the deadline: a condition that became true exactly now still counts.
      polls++;
      const last = await probe();
      if (last.error === undefined && last.done) return { ok: true, value: last.value, polls };
      return { ok: false, polls, lastError: last.error ?? lastError };
    }
  }
}
