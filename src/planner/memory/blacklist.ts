/**
 * Actions that failed on a page (by page hash). DESIGN §5: the same action failing twice on the same
 * page is banned there; the loop breaker can ban one at once.
 */
export class Blacklist {
  private readonly fails = new Map<string, Map<string, number>>();
  private readonly banned = new Map<string, Set<string>>();
  constructor(private readonly threshold = 2) {}

  recordFailure(pageHash: string, signature: string): boolean {
    const m = this.fails.get(pageHash) ?? new Map<string, number>();
    const n = (m.get(signature) ?? 0) + 1;
    m.set(signature, n);
    this.fails.set(pageHash, m);
    if (n >= this.threshold) this.ban(pageHash, signature);
    return n >= this.threshold;
  }

  ban(pageHash: string, signature: string): void {
    const s = this.banned.get(pageHash) ?? new Set<string>();
    s.add(signature);
    this.banned.set(pageHash, s);
  }

  isBanned(pageHash: string, signature: string): boolean {
    return this.banned.get(pageHash)?.has(signature) ?? false;
  }

  list(pageHash: string): string[] {
    return [...(this.banned.get(pageHash) ?? [])];
  }

  toJSON(): Record<string, string[]> {
    return Object.fromEntries([...this.banned].map(([k, v]) => [k, [...v]]));
  }

  static fromJSON(data: Record<string, string[]>, threshold = 2): Blacklist {
    const b = new Blacklist(threshold);
    for (const [page, sigs] of Object.entries(data)) for (const s of sigs) b.ban(page, s);
    return b;
  }
}
