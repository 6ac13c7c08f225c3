import { type Point, type Rect, rectArea, rectCenter, rectContains } from '../../core/geometry.js';
import type { RecordedView, ScrollDirection, Transition } from './graph.js';

/**
 * Which recorded event an input is (pure): a tap is a touch whose target view contains the point
 * (the innermost, when views nest), a long press a long touch, a swipe a scroll of the view under
 * the finger in the direction the content moves, typing a set_text on the same field, back and
 * home their key events, a launch its intent. No match: the recording does not say what happens.
 */

const from = (recorded: readonly Transition[], state: string) => recorded.filter((t) => t.from === state);

/**
 * The first state of `states` with a matching event: the current state, then its twins (the other
 * destinations the same recorded event reached from the same screen — one screen the recording saved
 * several times, e.g. with renumbered view ids), so what was recorded from any of them still follows.
 */
function firstHit(
  recorded: readonly Transition[],
  states: readonly string[],
  ok: (t: Transition, i: number) => boolean,
): Transition | undefined {
  for (let i = 0; i < states.length; i++) {
    const hit = pick(
      from(recorded, states[i] as string).filter((t) => ok(t, i)),
      recorded,
    );
    if (hit) return hit;
  }
  return undefined;
}

/** The states the event that led here also reached from where it started (none for a fresh state). */
export function twinsOf(recorded: readonly Transition[], via: Transition): string[] {
  const same = (t: Transition): boolean => {
    if (t.kind !== via.kind) return false;
    // The same target: by hash, else each view holding the other's centre (a web page renumbers its ids).
    if ('view' in t && 'view' in via) {
      if (t.view.viewStr && t.view.viewStr === via.view.viewStr) return true;
      return (
        rectContains(t.view.bounds, rectCenter(via.view.bounds)) &&
        rectContains(via.view.bounds, rectCenter(t.view.bounds))
      );
    }
    if (t.kind === 'key' && via.kind === 'key') return t.key === via.key;
    if (t.kind === 'intent' && via.kind === 'intent') return t.op === via.op && t.package === via.package;
    return false;
  };
  const out = from(recorded, via.from)
    .filter((t) => same(t) && t.to !== via.to && t.to !== via.from)
    .map((t) => t.to);
  return [...new Set(out)];
}

export type Match = { ok: true; transition: Transition } | { ok: false; why: string };

/**
 * Where a tap lands: the innermost recorded view containing it. Ties (one event, several recorded
 * outcomes): a move before a self-loop, the most recorded destination, the one the recording went
 * on from (more recorded moves out of it), the earliest.
 */
function pick(candidates: Transition[], recorded: readonly Transition[]): Transition | undefined {
  if (candidates.length === 0) return undefined;
  const onward = (s: string) => recorded.filter((t) => t.from === s && t.to !== s).length;
  const area = (t: Transition) => ('view' in t ? rectArea(t.view.area ?? t.view.bounds) : 0);
  const smallest = Math.min(...candidates.map(area));
  const inner = candidates.filter((t) => area(t) === smallest);
  const count = new Map<string, number>();
  for (const t of inner) count.set(t.to, (count.get(t.to) ?? 0) + 1);
  return [...inner].sort(
    (a, b) =>
      Number(a.to === a.from) - Number(b.to === b.from) ||
      (count.get(b.to) ?? 0) - (count.get(a.to) ?? 0) ||
      onward(b.to) - onward(a.to) ||
      a.eventId - b.eventId,
  )[0];
}

function contains(v: RecordedView, p: Point): boolean {
  return rectContains(v.area ?? v.bounds, p);
}

export function matchTouch(recorded: readonly Transition[], states: readonly string[], p: Point, long: boolean): Match {
  const kind = long ? 'long_touch' : 'touch';
  const hit = firstHit(recorded, states, (t) => t.kind === kind && contains(t.view, p));
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${long ? 'long press' : 'tap'} at ${Math.round(p.x)},${Math.round(p.y)}` };
}

/** The way the content goes for a finger moving by (dx, dy) (DroidBot's direction). */
export function scrollDirection(dx: number, dy: number): ScrollDirection {
  if (Math.abs(dy) >= Math.abs(dx)) return dy < 0 ? 'DOWN' : 'UP';
  return dx < 0 ? 'RIGHT' : 'LEFT';
}

export function matchScroll(
  recorded: readonly Transition[],
  states: readonly string[],
  start: Point,
  dir: ScrollDirection,
): Match {
  const hit = firstHit(recorded, states, (t) => t.kind === 'scroll' && t.direction === dir && contains(t.view, start));
  if (hit) return { ok: true, transition: hit };
  // Said in the finger's direction, as the swipe tool takes it: DroidBot's "scroll up" for a
  // downward swipe read as the opposite of what was sent (a relay player).
  return {
    ok: false,
    why: `no recorded swipe ${FINGER[dir]} at ${Math.round(start.x)},${Math.round(start.y)}`,
  };
}

/** The finger's direction for the way the content goes (scrollDirection's inverse). */
const FINGER: Record<ScrollDirection, string> = { DOWN: 'up', UP: 'down', RIGHT: 'left', LEFT: 'right' };

/** The field as the replay knows it: its temp_id and bounds in the state it is in. */
export interface Field {
  tempId: number;
  viewStr?: string;
  bounds: Rect;
}

/** The same field: by hash (any state), by temp_id (its own state), else (a twin) by where it is. */
function sameField(v: RecordedView, f: Field, ownState: boolean): boolean {
  if (v.viewStr && f.viewStr && v.viewStr === f.viewStr) return true;
  if (ownState) return !(v.viewStr && f.viewStr) && v.tempId === f.tempId;
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
  for (const [i, s] of states.entries()) {
    const onField = from(recorded, s).filter((t) => t.kind === 'set_text' && sameField(t.view, field, i === 0));
    const same = onField.filter(
      (t) => t.kind === 'set_text' && (t.text === undefined || normalizeText(t.text) === typed),
    );
    const hit = pick(same, recorded);
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

export function matchKey(recorded: readonly Transition[], states: readonly string[], key: string): Match {
  const name = key.toUpperCase();
  const hit = firstHit(recorded, states, (t) => t.kind === 'key' && t.key === name);
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${name} key` };
}

export function matchIntent(
  recorded: readonly Transition[],
  states: readonly string[],
  op: 'start' | 'stop',
  pkg: string,
): Match {
  const hit = firstHit(recorded, states, (t) => t.kind === 'intent' && t.op === op && t.package === pkg);
  if (hit) return { ok: true, transition: hit };
  return { ok: false, why: `no recorded ${op === 'start' ? 'launch' : 'force stop'} of ${pkg}` };
}
