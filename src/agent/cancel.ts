import { CancelledError } from '../core/errors.js';

/**
 * A run's cancel (DESIGN §1): one AbortSignal from the caller's (Ctrl-C, an MCP cancellation) and
 * the run's deadline. The model call takes it (the OpenAI client aborts the request), and the
 * device ports stop waiting on it; between phases the step checks it. Either way the run ends
 * `interrupted` with its journal and checkpoint as they were: resumable.
 */

export interface RunControl {
  /** Cancels the run at any stage: it ends within a second, resumable. */
  signal?: AbortSignal;
  /** The run's deadline (real ms from its start or resume): past it the run is cancelled the same way. */
  deadlineMs?: number;
}

export function cancelledBy(sig: AbortSignal): CancelledError {
  return sig.reason instanceof CancelledError
    ? sig.reason
    : new CancelledError(`the run was cancelled${reasonOf(sig.reason)}`);
}

/**
 * The run's one cancel signal: the caller's, and its deadline's. Whatever the run is waiting on
 * (a model call, a read, an action) stops waiting when it fires; `body` gets the signal.
 */
export async function controlled<T>(o: RunControl, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(new CancelledError(`the run was cancelled${reasonOf(o.signal?.reason)}`));
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  // Real time on purpose: a deadline is the caller's wall clock, whatever clock the logic runs on.
  const timer =
    o.deadlineMs !== undefined
      ? setTimeout(() => ctl.abort(new CancelledError(`the run's deadline of ${o.deadlineMs} ms passed`)), o.deadlineMs)
      : undefined;
  try {
    return await body(ctl.signal);
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/** `p`, or the signal's reason as soon as it fires (what `p` was doing is left to finish on its own). */
export function cancellable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(cancelledBy(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledBy(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function reasonOf(r: unknown): string {
  if (r === undefined) return '';
  const m = r instanceof Error ? r.message : String(r);
  return m && !/^This operation was aborted$/.test(m) ? ` (${m})` : '';
}
