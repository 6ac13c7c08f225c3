/**
 * How a listing line writes a range control's value (a SeekBar's progress), defined once: perception
 * writes it, the planner's prompt reads which expect forms apply, and the reference model reads it
 * like a model. The value goes with its track's ends — `128 (0–255)` — since a bare `128/255`
 * hid the minimum (relay run I: a player could not tell where the track starts). A range-less
 * control (a uiautomator dump has no progress, and no screenshot was read) says so: `value not
 * readable`, never a made-up value.
 */

export interface ListedRange {
  current: number;
  min: number;
  max: number;
}

/** What a range-less slider's line says where neither the tree nor the screenshot gave its value. */
export const VALUE_NOT_READABLE = 'value not readable';

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** `128 (0–255)`. */
export function writeRange(r: ListedRange): string {
  return `${num(r.current)} (${num(r.min)}–${num(r.max)})`;
}

const NUM = '-?\\d+(?:\\.\\d+)?';
const RANGE_RE = new RegExp(`(?:^|\\s)(${NUM}) \\((${NUM})–(${NUM})\\)(?=\\s|$)`);

/** The range a line writes (writeRange), or undefined. */
export function readRange(line: string): ListedRange | undefined {
  const m = RANGE_RE.exec(line);
  if (!m) return undefined;
  return { current: Number(m[1]), min: Number(m[2]), max: Number(m[3]) };
}
