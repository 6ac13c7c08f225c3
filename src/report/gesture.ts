import { LINE_ID_RE } from '../core/element-ref.js';
import type { Point } from '../core/geometry.js';
import { longPress } from '../tools/long-press.js';
import { swipe } from '../tools/swipe.js';
import { tap } from '../tools/tap.js';
import type { StepFile } from './schema.js';

/**
 * Where a step touched the screen, in 0..1000 normalized space (DESIGN §3), recovered from what the
 * step file holds: the planner's own point, else the pixel the executor injected (over the screen
 * size in the observation header), else the centre of the target element in the observation.
 */

export type Gesture =
  | { kind: 'tap'; at: Point; long: boolean }
  | { kind: 'swipe'; from: Point; to: Point }
  | { kind: 'focus'; at: Point };

/** `… · 1080x2400 (0.45) · …` in the first line of the compact observation. */
export function screenSize(observation: string): { w: number; h: number } | undefined {
  const m = /(?:^|\s)(\d+)x(\d+) \(/.exec(observation.split('\n', 1)[0] ?? '');
  return m ? { w: Number(m[1]), h: Number(m[2]) } : undefined;
}

/** The step's screen size: recorded with the step, else from an older run's observation header. */
export function stepScreen(record: StepFile): { w: number; h: number } | undefined {
  return record.screen ?? screenSize(record.observation);
}

/** The line of element `id` (a full id): the listing shows the id or a prefix of it (`[e7a]`). */
function lineOf(observation: string, id: string): string | undefined {
  const [hex = '', ord] = id.split('~');
  return observation.split('\n').find((line) => {
    const [shown = '', o] = LINE_ID_RE.exec(line)?.[1]?.split('~') ?? [];
    return shown !== '' && hex.startsWith(shown) && o === ord;
  });
}

/** An element line `[id] verb … x,y` of the compact observation: its normalized centre, where it shows one. */
export function elementCentre(observation: string, id: string): Point | undefined {
  const m = /\s(\d+),(\d+)$/.exec(lineOf(observation, id) ?? '');
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined;
}

/** Whether the step's target is a password field (the compact view marks it `[password]`). */
export function targetIsPassword(record: StepFile): boolean {
  const id = record.decision?.action.target_id;
  if (!id) return false;
  return lineOf(record.observation, id)?.includes('[password]') ?? false;
}

const clamp = (v: number) => Math.min(1000, Math.max(0, v));
/** The executor swipes 30 % of the screen along the direction, centred on the target (dispatch.ts). */
const SWIPE_SPAN = 300;

export function gestureOf(record: StepFile): Gesture | undefined {
  const a = record.decision?.action;
  if (!a) return undefined;
  const screen = stepScreen(record);
  const injected = record.receipt?.injectedPx;
  const fromInjected =
    injected && screen ? { x: (injected.x / screen.w) * 1000, y: (injected.y / screen.h) * 1000 } : undefined;
  // The target's box is recorded with the step; an older run's listing has its centre.
  const box = record.target && record.target.id === a.target_id ? record.target.bounds : undefined;
  const centre = box
    ? { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 }
    : a.target_id
      ? elementCentre(record.observation, a.target_id)
      : undefined;
  switch (a.tool) {
    case tap.name:
    case longPress.name: {
      const at = a.point ?? fromInjected ?? centre;
      const long = a.tool === longPress.name;
      return at ? { kind: 'tap', at, long } : undefined;
    }
    case swipe.name: {
      const dir = a.direction ?? 'up';
      const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[dir];
      // The injected point of a swipe is where the finger went down.
      const mid = a.point ?? centre ?? { x: 500, y: 500 };
      const from = fromInjected ?? {
        x: clamp(mid.x - (d[0] * SWIPE_SPAN) / 2),
        y: clamp(mid.y - (d[1] * SWIPE_SPAN) / 2),
      };
      return {
        kind: 'swipe',
        from,
        to: { x: clamp(from.x + d[0] * SWIPE_SPAN), y: clamp(from.y + d[1] * SWIPE_SPAN) },
      };
    }
    default: {
      const at = a.point ?? centre;
      return at ? { kind: 'focus', at } : undefined;
    }
  }
}

/**
 * Normalized point → percentage of the screenshot. A capture without the status bar (shorter than
 * the screen's aspect says) is missing rows at the top; positions are shifted by them.
 */
export function toPercent(
  p: Point,
  screen: { w: number; h: number } | undefined,
  shot: { width?: number; height?: number } | undefined,
): { x: number; y: number } {
  let y = p.y / 10;
  if (screen && shot?.width && shot.height) {
    const fullH = (shot.width * screen.h) / screen.w;
    const missing = fullH - shot.height;
    if (missing > shot.height * 0.01) y = (((p.y / 1000) * fullH - missing) / shot.height) * 100;
  }
  return { x: p.x / 10, y };
}
