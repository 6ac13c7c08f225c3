import { type Point, type Rect, rectArea, rectContains } from '../../core/geometry.js';
import type { RecordedView, ScrollDirection, Transition } from './graph.js';

/**
 * Which recorded event an input is (pure): a tap is a touch whose target view contains the point
 * (the innermost, when views nest), a long press a long touch, a swipe a scroll of the view under
 * the finger in the direction the content moves, typing a set_text on the same field, back and
 * home their key events, a launch its intent. No match: the recording does not say what happens.
 */

const from = (recorded: readonly Transition[], state: string) => recorded.filter((t) => t.from === state);

export type Match = { ok: true; transition: Transition } | { ok: false; why: string };

/** Where a tap lands: the innermost recorded view containing it. Ties: a move before a self-loop, then the most recorded destination. */
function pick(candidates: Transition[]): Transition | undefined {
  if (candidates.length === 0) return undefined;
  const area = (t: Transition) => ('view' in t ? rectArea(t.view.bounds) : 0);
  const smallest = Math.min(...candidates.map(area));
  const inner = candidates.filter((t) => area(t) === smallest);
  const count = new Map<string, number>();
  for (const t of inner) count.set(t.to, (count.get(t.to) ?? 0) + 1);
  return [...inner].sort(
    (a, b) =>
      Number(a.to === a.from) - Number(b.to === b.from) ||
      (count.get(b.to) ?? 0) - (count.get(a.to) ?? 0) ||
      a.eventId - b.eventId,
  )[0];
}

function contains(v: RecordedView, p: Point): boolean {
  return rectContains(v.bounds, p);
}

export function matchTouch(recorded: readonly Transition[], state: string, p: Point, long: boolean): Match {
  const kind = long ? 'long_touch' : 'touch';
  const hit = pick(from(recorded, state).filter((t) => t.kind === kind && contains(t.view, p)));
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${long ? 'long press' : 'tap'} at ${Math.round(p.x)},${Math.round(p.y)}` };
}

/** The way the content goes for a finger moving by (dx, dy) (DroidBot's direction). */
export function scrollDirection(dx: number, dy: number): ScrollDirection {
  if (Math.abs(dy) >= Math.abs(dx)) return dy < 0 ? 'DOWN' : 'UP';
  return dx < 0 ? 'RIGHT' : 'LEFT';
}

export function matchScroll(recorded: readonly Transition[], state: string, start: Point, dir: ScrollDirection): Match {
  const hit = pick(
    from(recorded, state).filter((t) => t.kind === 'scroll' && t.direction === dir && contains(t.view, start)),
  );
  if (hit) return { ok: true, transition: hit };
  return {
    ok: false,
    why: `no recorded scroll ${dir.toLowerCase()} at ${Math.round(start.x)},${Math.round(start.y)}`,
  };
}

/** The field as the replay knows it: its temp_id and bounds in the state it is in. */
export interface Field {
  tempId: number;
  viewStr?: string;
  bounds: Rect;
}

function sameField(v: RecordedView, f: Field): boolean {
  if (v.viewStr && f.viewStr) return v.viewStr === f.viewStr;
  if (v.tempId !== undefined) return v.tempId === f.tempId;
  return rectContains(v.bounds, { x: (f.bounds.left + f.bounds.right) / 2, y: (f.bounds.top + f.bounds.bottom) / 2 });
}

export function normalizeText(s: string): string {
  return s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Typing into `field` in one of `states` (the current one first, then where the field was focused). */
export function matchText(
  recorded: readonly Transition[],
  states: readonly string[],
  field: Field,
  text: string,
): Match {
  const typed = normalizeText(text);
  let recordedOther: string | undefined;
  for (const s of states) {
    const onField = from(recorded, s).filter((t) => t.kind === 'set_text' && sameField(t.view, field));
    const same = onField.filter(
      (t) => t.kind === 'set_text' && (t.text === undefined || normalizeText(t.text) === typed),
    );
    const hit = pick(same);
    if (hit) return { ok: true, transition: hit };
    const other = onField.find((t) => t.kind === 'set_text' && t.text !== undefined);
    if (other && other.kind === 'set_text') recordedOther = other.text;
  }
  return {
    ok: false,
    why:
      recordedOther !== undefined
        ? `the recording typed ${JSON.stringify(recordedOther)} into this field, not this text`
        : 'no recorded typing into this field',
  };
}

export function matchKey(recorded: readonly Transition[], state: string, key: string): Match {
  const name = key.toUpperCase();
  const hit = pick(from(recorded, state).filter((t) => t.kind === 'key' && t.key === name));
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${name} key` };
}

export function matchIntent(recorded: readonly Transition[], state: string, op: 'start' | 'stop', pkg: string): Match {
  const hit = pick(from(recorded, state).filter((t) => t.kind === 'intent' && t.op === op && t.package === pkg));
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${op === 'start' ? 'launch' : 'force stop'} of ${pkg}` };
}
