import type { Rect } from '../core/geometry.js';
import { clip } from './xml-reader.js';

/** Coordinates beyond this are not a screen (a 2.4 MB run of digits parses to Infinity). */
const MAX_COORD = 1_000_000;

/**
 * Bounds that parse but cannot be a view: inverted (`[9,9][1,1]`), negative, or absurdly large. The
 * node is kept with empty bounds at its top-left (so nothing is ever tapped there) or, when only
 * negative, as given (clipping drops what is off-screen); each kind is reported once, as a note.
 * Both tree readers (uiautomator XML, DroidBot states) apply it; `shown` is the bounds as written.
 */
export class ImpossibleBounds {
  private readonly seen = new Map<string, { count: number; first: string }>();

  check(b: Rect, shown: string): Rect {
    const values = [b.left, b.top, b.right, b.bottom];
    let kind: string | undefined;
    let out = b;
    if (values.some((v) => !Number.isSafeInteger(v) || Math.abs(v) > MAX_COORD)) {
      kind = 'coordinates beyond any screen';
      const x = Number.isSafeInteger(b.left) ? Math.max(-MAX_COORD, Math.min(MAX_COORD, b.left)) : 0;
      const y = Number.isSafeInteger(b.top) ? Math.max(-MAX_COORD, Math.min(MAX_COORD, b.top)) : 0;
      out = { left: x, top: y, right: x, bottom: y };
    } else if (b.right < b.left || b.bottom < b.top) {
      kind = 'inverted bounds';
      out = { left: b.left, top: b.top, right: b.left, bottom: b.top };
    } else if (values.some((v) => v < 0)) kind = 'negative bounds';
    if (kind) {
      const s = this.seen.get(kind);
      if (s) s.count++;
      else this.seen.set(kind, { count: 1, first: clip(shown) });
    }
    return out;
  }

  notes(): string[] {
    return [...this.seen].map(
      ([kind, s]) =>
        `${s.count} node${s.count === 1 ? '' : 's'} with ${kind} (first: ${s.first})${kind === 'negative bounds' ? '' : ', treated as empty'}`,
    );
  }
}
