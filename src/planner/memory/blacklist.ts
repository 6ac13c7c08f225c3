/**
 * Actions that failed on a page (by page hash). DESIGN §5: the same action failing twice on the same
 * page is banned there; the loop breaker can ban one at once. A ban is keyed by the action's
 * signature (a point rounded to a 20-unit grid, so a retry a few units off is the same action) and
 * shown as the action was sent (`tap point=503,897`), never as the grid point it is keyed by.
 */
export class Blacklist {
  private readonly fails = new Map<string, Map<string, number>>();
  private readonly banned = new Map<string, Set<string>>();
  /** signature → the action as it was sent, for the prompt. */
  private readonly shown = new Map<string, string>();
  constructor(private readonly threshold = 2) {}

  recordFailure(pageHash: string, signature: string, shown?: string): boolean {
    const m = this.fails.get(pageHash) ?? new Map<string, number>();
    const n = (m.get(signature) ?? 0) + 1;
    m.set(signature, n);
    this.fails.set(pageHash, m);
    if (n >= this.threshold) this.ban(pageHash, signature, shown);
    return n >= this.threshold;
  }

  ban(pageHash: string, signature: string, shown?: string): void {
    const s = this.banned.get(pageHash) ?? new Set<string>();
    s.add(signature);
    this.banned.set(pageHash, s);
    if (shown) this.shown.set(signature, shown);
  }

  isBanned(pageHash: string, signature: string): boolean {
    return this.banned.get(pageHash)?.has(signature) ?? false;
  }

  /** The signatures banned on a page. */
  signatures(pageHash: string): string[] {
    return [...(this.banned.get(pageHash) ?? [])];
  }

  /** The page's bans as the prompt shows them: each action as it was sent. */
  list(pageHash: string): string[] {
    return this.signatures(pageHash).map((sig) => this.shownAs(sig));
  }

  /** How a banned signature is shown (the signature itself when the action was not recorded). */
  shownAs(signature: string): string {
    return this.shown.get(signature) ?? signature;
  }

  toJSON(): Record<string, string[]> {
    return Object.fromEntries([...this.banned].map(([k, v]) => [k, [...v]]));
  }

  /** signature → shown, for the checkpoint. */
  shownJSON(): Record<string, string> {
    return Object.fromEntries(this.shown);
  }

  /** Failures below the ban threshold (page → signature → count): a run's state keeps them too. */
  failuresJSON(): Record<string, Record<string, number>> {
    return Object.fromEntries([...this.fails].map(([k, v]) => [k, Object.fromEntries(v)]));
  }

  static fromJSON(
    data: Record<string, readonly string[]>,
    threshold = 2,
    shown: Record<string, string> = {},
    failures: Record<string, Record<string, number>> = {},
  ): Blacklist {
    const b = new Blacklist(threshold);
    for (const [page, sigs] of Object.entries(data)) for (const s of sigs) b.ban(page, s, shown[s]);
    for (const [page, m] of Object.entries(failures)) b.fails.set(page, new Map(Object.entries(m)));
    return b;
  }
}
