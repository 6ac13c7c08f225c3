import type { Action } from '../core/types.js';

/**
 * The recovery ladder and the blacklist signal (DESIGN §5, article §3.4), as state the loop owns:
 * retry once → other method (id ↔ coordinates) → back and replan → after three ineffective backs,
 * stop and say why. The same action failing twice on the same page hash is banned there.
 */

export type RecoveryStep = 'retry' | 'other_method' | 'back_and_replan' | 'stop';

/** Identity of an action for the blacklist: tool, target and arguments, not the model's prose. */
export function actionKey(a: Action): string {
  const where = a.target_id ?? (a.point ? `${Math.round(a.point.x / 10)},${Math.round(a.point.y / 10)}` : '');
  const extra = a.text ?? a.direction ?? a.package ?? (a.args ? JSON.stringify(a.args) : '');
  return `${a.tool}|${where}|${extra}`;
}

export class RecoveryLadder {
  private failuresInRow = 0;
  private ineffectiveBacks = 0;
  private readonly failures = new Map<string, number>();
  private readonly banned = new Map<string, Set<string>>();

  constructor(private readonly opts: { banAfter?: number; maxIneffectiveBacks?: number } = {}) {}

  /** Record an outcome; returns the next rung after a failure (or undefined after a success). */
  record(pageHash: string, action: Action, ok: boolean): RecoveryStep | undefined {
    if (ok) {
      this.failuresInRow = 0;
      return undefined;
    }
    const key = `${pageHash}|${actionKey(action)}`;
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    if (n >= (this.opts.banAfter ?? 2)) {
      const set = this.banned.get(pageHash) ?? new Set<string>();
      set.add(actionKey(action));
      this.banned.set(pageHash, set);
    }
    this.failuresInRow++;
    if (this.failuresInRow === 1) return 'retry';
    if (this.failuresInRow === 2) return 'other_method';
    return this.ineffectiveBacks >= (this.opts.maxIneffectiveBacks ?? 3) ? 'stop' : 'back_and_replan';
  }

  /** After a `back`: did it change the page? Three that did not → stop. */
  recordBack(changedPage: boolean): RecoveryStep | undefined {
    if (changedPage) {
      this.ineffectiveBacks = 0;
      this.failuresInRow = 0;
      return undefined;
    }
    this.ineffectiveBacks++;
    return this.ineffectiveBacks >= (this.opts.maxIneffectiveBacks ?? 3) ? 'stop' : 'back_and_replan';
  }

  isBanned(pageHash: string, action: Action): boolean {
    return this.banned.get(pageHash)?.has(actionKey(action)) ?? false;
  }

  /** Action keys banned on this page, for the planner's prompt. */
  bannedOn(pageHash: string): string[] {
    return [...(this.banned.get(pageHash) ?? [])];
  }

  /** The other method of the ladder's second rung: a target id becomes its point, and back. */
  static otherMethod(a: Action, centre?: { x: number; y: number }): Action | undefined {
    if (a.target_id && centre) return { ...a, target_id: undefined, point: centre };
    return undefined;
  }
}
