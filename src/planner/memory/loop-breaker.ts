/**
 * Catches the agent going round in circles: the same action chosen on the same page three times
 * forces a change of strategy (the action is banned there and the model is told); if it is stuck
 * again after that, the run is handed to the user.
 */
export type LoopVerdict =
  | { kind: 'ok' }
  | { kind: 'change_strategy'; hint: string }
  | { kind: 'hand_over'; reason: string };

export class LoopBreaker {
  private readonly counts = new Map<string, number>();
  private interventions = 0;
  constructor(
    private readonly limit = 3,
    private readonly maxInterventions = 2,
  ) {}

  /** Call with each action chosen (before dispatch). */
  check(pageHash: string, signature: string): LoopVerdict {
    const key = `${pageHash}|${signature}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n < this.limit) return { kind: 'ok' };
    this.counts.set(key, 0);
    this.interventions++;
    if (this.interventions > this.maxInterventions)
      return {
        kind: 'hand_over',
        reason: `stuck: "${signature}" repeated on the same screen despite a change of strategy`,
      };
    return {
      kind: 'change_strategy',
      hint: `"${signature}" was tried ${this.limit}× on this screen without progress; it is banned here — try a different approach (another element, scroll, back, or re-plan)`,
    };
  }

  /**
   * The action worked although the page state it is keyed by did not move (a pinch on a map shows
   * only in pixels): that was progress, not a circle, so its count starts again.
   */
  progressed(pageHash: string, signature: string): void {
    this.counts.delete(`${pageHash}|${signature}`);
  }
}
