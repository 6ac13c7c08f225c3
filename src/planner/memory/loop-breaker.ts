/**
 * Catches the agent going round in circles: the same action chosen on the same page three times
 * without progress forces a change of strategy (the action is banned there and the model is told);
 * if it is stuck again after that, the run is handed to the user.
 *
 * Progress: an action after which the next decision is made on another page (the Apps button
 * opened the drawer) moved the run on, however often it is chosen again later — so its count
 * starts again. Keys are `page:state` (the loop keys by page hash and screen state); the part
 * before the first ':' names the page, so a toggle flipped back and forth on one page still counts.
 */
export type LoopVerdict =
  | { kind: 'ok' }
  | { kind: 'change_strategy'; hint: string }
  | { kind: 'hand_over'; reason: string };

export class LoopBreaker {
  private readonly counts = new Map<string, number>();
  private interventions = 0;
  /** The last action chosen, and the page it was chosen on. */
  private last?: { key: string; page: string };
  constructor(
    private readonly limit = 3,
    private readonly maxInterventions = 2,
  ) {}

  /** Call with each action chosen (before dispatch); `shown` names it in the verdict as it was sent. */
  check(pageHash: string, signature: string, shown = signature): LoopVerdict {
    const key = `${pageHash}|${signature}`;
    const page = pageOf(pageHash);
    // The previous action led to another page: it worked, whatever it is chosen for next time.
    if (this.last && this.last.page !== page) this.counts.delete(this.last.key);
    this.last = { key, page };
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n < this.limit) return { kind: 'ok' };
    this.counts.set(key, 0);
    this.interventions++;
    if (this.interventions > this.maxInterventions)
      return {
        kind: 'hand_over',
        reason: `stuck: "${shown}" repeated on the same screen despite a change of strategy`,
      };
    return {
      kind: 'change_strategy',
      hint: `"${shown}" was tried ${this.limit}× on this screen without progress; it is banned here — try a different approach (another element, scroll, back, or re-plan)`,
    };
  }

  /**
   * The action worked although the page state it is keyed by did not move (a pinch on a map shows
   * only in pixels): that was progress, not a circle, so its count starts again.
   */
  progressed(pageHash: string, signature: string): void {
    this.counts.delete(`${pageHash}|${signature}`);
  }

  /** Its counts as data (a run's state is plain data, checkpointed). */
  toJSON(): LoopBreakerState {
    return { counts: Object.fromEntries(this.counts), interventions: this.interventions, last: this.last };
  }

  static fromJSON(v: LoopBreakerState | undefined): LoopBreaker {
    const b = new LoopBreaker();
    if (!v) return b;
    for (const [k, n] of Object.entries(v.counts)) b.counts.set(k, n);
    b.interventions = v.interventions;
    b.last = v.last && { ...v.last };
    return b;
  }
}

export interface LoopBreakerState {
  counts: Record<string, number>;
  interventions: number;
  last?: { key: string; page: string };
}

function pageOf(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(0, i);
}
