import type { HistoryEntry } from '../prompt/types.js';

/** Short-term memory: the whole run is kept, the prompt sees only the last few steps. */
export class History {
  private readonly entries: HistoryEntry[] = [];
  constructor(private readonly window = 5) {}
  add(e: HistoryEntry): void {
    this.entries.push(e);
  }
  recent(n = this.window): HistoryEntry[] {
    return this.entries.slice(-n);
  }
  all(): readonly HistoryEntry[] {
    return this.entries;
  }
  static from(entries: HistoryEntry[], window = 5): History {
    const h = new History(window);
    for (const e of entries) h.add(e);
    return h;
  }
}
