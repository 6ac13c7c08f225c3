import type { Element, Observation } from '../core/types.js';

/**
 * Scroll-end detection (DESIGN §4): the page hash changes on every scroll, so "did it move" is not
 * "is there more". The end is reached when two of three signals agree: the container is no longer
 * scrollable (or no longer offers scroll_forward), an end-of-list text is visible, and ≥ 80% of the
 * visible fingerprints are the same after the last two swipes.
 */

const END_TEXT_RE =
  /no more|end of (the )?(list|results|page)|that's all|you'?re all caught up|nothing (more|else)|reached the end|到底了|没有更多|已经到底|已显示全部|暂无更多|已加载全部|沒有更多|더 이상|больше нет|конец списка|keine weiteren|no hay más|fin de la liste|tidak ada lagi/i;

export interface ScrollSignals {
  notScrollable: boolean;
  endText: string | undefined;
  overlap: number | undefined;
}

export interface ScrollEndVerdict {
  atEnd: boolean;
  signals: ScrollSignals;
  /** Human-readable list of the signals that fired. */
  reasons: string[];
}

/** |a ∩ b| / |b| over visible fingerprints (ordinal suffixes kept: a repeated row is a repeat). */
export function fingerprintOverlap(a: readonly string[], b: readonly string[]): number {
  if (b.length === 0) return 1;
  const set = new Set(a);
  let common = 0;
  for (const id of b) if (set.has(id)) common++;
  return common / b.length;
}

function findContainer(o: Observation, container: Element | undefined): Element | undefined {
  if (!container) return undefined;
  const byId = o.elements.find((e) => e.id === container.id);
  if (byId) return byId;
  // Same control if the resource id and class match and it overlaps most of the old bounds.
  return o.elements.find(
    (e) =>
      e.resourceId === container.resourceId &&
      e.className === container.className &&
      Math.abs(e.bounds.top - container.bounds.top) < 50 &&
      Math.abs(e.bounds.bottom - container.bounds.bottom) < 50,
  );
}

/**
 * Tracks one scroll container across swipes. Feed it the observation before the first swipe and
 * after each swipe; `verdict()` says whether the end has been reached.
 */
export interface ScrollEndState {
  container?: Element;
  history: string[][];
}

export class ScrollEndTracker {
  private readonly history: string[][] = [];
  private latest: Observation | undefined;

  constructor(private readonly container?: Element) {}

  /** What it has seen, as data (the agent's run state is plain data): the verdict needs only the next read. */
  toJSON(): ScrollEndState {
    return { container: this.container, history: this.history.map((h) => [...h]) };
  }

  static fromJSON(v: ScrollEndState): ScrollEndTracker {
    const t = new ScrollEndTracker(v.container);
    for (const h of v.history) t.history.push([...h]);
    return t;
  }

  /** Record the observation after a swipe (or the starting one). */
  record(o: Observation): ScrollEndVerdict {
    // Positions, not ids: ids follow rows through a scroll, places say whether anything moved.
    this.history.push(o.elements.map((e) => e.place ?? e.id));
    this.latest = o;
    return this.verdict();
  }

  verdict(): ScrollEndVerdict {
    const o = this.latest;
    const signals: ScrollSignals = { notScrollable: false, endText: undefined, overlap: undefined };
    const reasons: string[] = [];
    if (!o) return { atEnd: false, signals, reasons };
    if (this.container) {
      const c = findContainer(o, this.container);
      const cannotForward = c?.actions !== undefined && !c.actions.includes('scroll_forward');
      signals.notScrollable = !c?.flags.scrollable || cannotForward;
      if (signals.notScrollable) reasons.push(c ? 'container cannot scroll further' : 'container gone');
    }
    const texts = [...o.texts, ...o.elements.map((e) => e.label ?? '')];
    signals.endText = texts.find((t) => END_TEXT_RE.test(t));
    if (signals.endText) reasons.push(`end-of-list text "${signals.endText}"`);
    const n = this.history.length;
    if (n >= 3) {
      // After two swipes: the last swipe left ≥ 80% of what was visible in place.
      signals.overlap = fingerprintOverlap(this.history[n - 2], this.history[n - 1]);
    }
    if (signals.overlap !== undefined && signals.overlap >= 0.8) {
      reasons.push(`${Math.round(signals.overlap * 100)}% of fingerprints unchanged after two swipes`);
    }
    const fired = [signals.notScrollable, signals.endText !== undefined, (signals.overlap ?? 0) >= 0.8].filter(Boolean);
    return { atEnd: fired.length >= 2, signals, reasons };
  }
}
