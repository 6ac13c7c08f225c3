import { type Clock, Deadline } from './clock.js';
import { CancelledError, errorMessage, TimeoutError } from './errors.js';

/**
 * One operation's progress, Playwright-style: the deadline and the cancel signal every call under
 * it honours, and the log of what was tried, which ends up in the error when time runs out or the
 * run is cancelled. A Progress is a Deadline, so it is handed to device calls as it is; `race`
 * bounds a promise that takes no deadline of its own (a confirmation, a model call), and
 * `throwIfAborted` is the check between stages. The run's Progress is the parent of each action's:
 * cancelling the run ends the action in flight.
 *
 * The race's timer is real time, as the device clients' caps are: under a virtual clock the
 * deadline's remaining virtual ms bound the real wait, so a hung promise cannot hang a test.
 */
export class Progress extends Deadline {
  private readonly pending = new Set<string>();
  private readonly startedAt: number;

  private constructor(clock: Clock, at: number, parent?: Deadline, signal?: AbortSignal) {
    super(clock, at, parent, signal);
    this.startedAt = clock.now();
  }

  /** A Progress of `timeoutMs` (none: no deadline, only the signal), cancelled by `signal`. */
  static start(clock: Clock, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Progress {
    const at = opts.timeoutMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + opts.timeoutMs;
    return new Progress(clock, at, undefined, opts.signal);
  }

  /** A nested Progress that never outlives this one; its log and cancellation flow through this one. */
  override child(ms: number): Progress {
    return new Progress(this.clock, Math.min(this.at, this.clock.now() + ms), this, this.signal);
  }

  /** Throws a CancelledError (the run was cancelled) or a TimeoutError (the deadline passed), naming `what`. */
  throwIfAborted(what: string): void {
    if (this.aborted) throw this.cancelled(what);
    if (this.expired()) throw this.timedOut(what);
  }

  /**
   * `work` bounded by this Progress: rejects with a TimeoutError naming what was pending when the
   * deadline passes, and with a CancelledError as soon as the signal fires (the work itself is left
   * to settle on its own; pass it this Progress to stop it too).
   */
  race<T>(what: string, work: Promise<T> | (() => Promise<T>)): Promise<T> {
    try {
      this.throwIfAborted(what);
    } catch (e) {
      if (typeof work !== 'function') work.catch(() => undefined);
      return Promise.reject(e);
    }
    this.pending.add(what);
    const p = typeof work === 'function' ? work() : work;
    return new Promise<T>((resolve, reject) => {
      const left = this.remaining();
      const timer = Number.isFinite(left)
        ? setTimeout(() => reject(this.timedOut(what)), Math.min(left, MAX_TIMER_MS))
        : undefined;
      timer?.unref?.();
      const onAbort = () => reject(this.cancelled(what));
      this.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(what);
      };
      p.then(
        (v) => {
          done();
          resolve(v);
        },
        (e: unknown) => {
          done();
          reject(e);
        },
      );
    });
  }

  /** The error for "the deadline passed while `what` was under way", with the log. */
  timedOut(what: string): TimeoutError {
    const pending = [...new Set([what, ...this.pending])];
    return new TimeoutError(
      `${what}: the deadline (${this.budget()}) passed while ${pending.join(', ')} was pending`,
      this.log,
    );
  }

  /** The error for "the run was cancelled during `what`", with the log. */
  cancelled(what: string): CancelledError {
    const reason = this.signal?.reason;
    const why = reason === undefined ? '' : ` (${errorMessage(reason)})`;
    return new CancelledError(`${what}: cancelled${why}`, this.log);
  }

  private budget(): string {
    return Number.isFinite(this.at) ? `${Math.round(this.at - this.startedAt)} ms` : 'none';
  }
}

/** setTimeout's ceiling (a longer delay fires at once). */
const MAX_TIMER_MS = 2_147_483_647;
