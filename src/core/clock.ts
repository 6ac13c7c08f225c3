/**
 * Time is injected everywhere (never `Date.now()` / `setTimeout` directly in logic), so the virtual
 * phone and the agent can run a 40-step task in seconds under a virtual clock.
 */
export interface Clock {
  /** Milliseconds since an arbitrary epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class RealClock implements Clock {
  now(): number {
    return performance.timeOrigin + performance.now();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = () => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A deterministic clock. `advance(ms)` moves time and fires due sleepers in order. With
 * `autoAdvance`, whenever sleepers are pending the clock jumps to the earliest one on the next
 * macrotask — so code that only waits on this clock runs at full speed.
 */
export class VirtualClock implements Clock {
  private t: number;
  private seq = 0;
  private timers: Timer[] = [];
  private scheduled = false;
  readonly autoAdvance: boolean;

  constructor(opts: { start?: number; autoAdvance?: boolean } = {}) {
    this.t = opts.start ?? 1_700_000_000_000;
    this.autoAdvance = opts.autoAdvance ?? true;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.t + Math.max(0, ms), seq: this.seq++, resolve };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal?.reason);
      };
      timer.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      this.schedule();
    });
  }

  /** Move time forward by `ms`, firing every sleeper due on the way, in order. */
  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
    }
    this.t = target;
  }

  /**
   * Like `advance`, but lets each fired sleeper's continuation run (one macrotask) before the next
   * fires, so code observes the time it was woken at.
   */
  async tick(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
      await new Promise((r) => setImmediate(r));
    }
    this.t = Math.max(this.t, target);
  }

  pending(): number {
    return this.timers.length;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq)) best = x;
    return best;
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((x) => x !== timer);
    this.t = Math.max(this.t, timer.at);
    timer.resolve();
  }

  private schedule(): void {
    if (!this.autoAdvance || this.scheduled) return;
    this.scheduled = true;
    // setImmediate lets promise chains settle first, so a sleeper registered "at the same time"
    // by other code is ordered correctly.
    setImmediate(() => {
      this.scheduled = false;
      const next = this.earliest();
      if (next) {
        this.fire(next);
        if (this.timers.length) this.schedule();
      }
    });
  }
}

/**
 * One deadline passed down through every nested call, with the run's cancel signal: every device
 * call takes one, and a backend gives up when the time passes or the signal fires. `log` collects
 * what was done so far (it propagates to the parent) and ends up in the error; the executor's
 * stages hold it as a `Progress` (./progress.ts), which adds racing and the errors.
 */
export class Deadline {
  readonly log: string[] = [];
  protected constructor(
    readonly clock: Clock,
    readonly at: number,
    protected readonly parent?: Deadline,
    /** Fires when the run is cancelled (Ctrl-C, MCP cancellation); never fires when absent. */
    readonly signal?: AbortSignal,
  ) {}

  static after(clock: Clock, ms: number, signal?: AbortSignal): Deadline {
    return new Deadline(clock, clock.now() + ms, undefined, signal);
  }

  static never(clock: Clock): Deadline {
    return new Deadline(clock, Number.POSITIVE_INFINITY);
  }

  remaining(): number {
    return Math.max(0, this.at - this.clock.now());
  }

  expired(): boolean {
    return this.clock.now() >= this.at;
  }

  /** The run was cancelled: stop, send nothing more. */
  get aborted(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** A nested deadline that never outlives this one and shares its cancel signal. */
  child(ms: number): Deadline {
    return new Deadline(this.clock, Math.min(this.at, this.clock.now() + ms), this, this.signal);
  }

  note(line: string): void {
    this.log.push(line);
    if (this.log.length > LOG_LINES) this.log.splice(0, this.log.length - LOG_LINES);
    this.parent?.note(line);
  }

  /**
   * Sleep, but never past the deadline; returns false when the deadline cut the sleep short.
   * Rejects with the signal's reason when cancelled.
   */
  async sleep(ms: number, signal: AbortSignal | undefined = this.signal): Promise<boolean> {
    const r = this.remaining();
    await this.clock.sleep(Math.min(ms, r), signal);
    return ms <= r;
  }
}

/** A run-long deadline's log keeps its newest lines only (the error names the last steps). */
const LOG_LINES = 200;
