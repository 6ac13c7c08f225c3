import { rectCenter } from '../core/geometry.js';
import type { Element } from '../core/types.js';

/**
 * Regular grids of look-alike controls (issue 22): a calendar's month view is 42 cells whose day
 * numbers are drawn, not in the tree, and a gallery's thumbnails are all `#media_item_holder` —
 * one line each says the same thing 42 times. A grid is found only where the evidence is
 * geometric and exact: the cells look alike (the same look: verb, class, state, resource id, and no
 * label of their own), have the same size, and sit on evenly spaced rows and columns, every row
 * full but the last (a gallery's last row is partly filled, from the left).
 */

export interface LookAlikeGrid {
  /** Cells row by row, each row left to right. */
  rows: Element[][];
  cols: number;
  /** What each cell's line would say besides its id and centre. */
  look: string;
  /** Centres (0..1000) of the first and last column and row. */
  x: [number, number];
  y: [number, number];
}

/** Fewer cells read fine as lines. */
const MIN_CELLS = 6;
/** Normalized units (0..1000) two centres or sizes may differ by and still be one column, row or size. */
const TOL = 4;

/** Values within TOL of each other, as one sorted list of cluster means. */
function clusters(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    if (last && v - (last[last.length - 1] ?? v) <= TOL) last.push(v);
    else out.push([v]);
  }
  return out.map((c) => c.reduce((a, b) => a + b, 0) / c.length);
}

function evenlySpaced(centres: readonly number[]): boolean {
  if (centres.length < 2) return false;
  const step = ((centres[centres.length - 1] ?? 0) - (centres[0] ?? 0)) / (centres.length - 1);
  return step > TOL && centres.every((c, i) => Math.abs(c - ((centres[0] ?? 0) + step * i)) <= TOL);
}

const nearest = (cs: readonly number[], v: number) => cs.findIndex((c) => Math.abs(c - v) <= TOL);

function sameSize(cells: readonly Element[]): boolean {
  const w = (e: Element) => e.bounds.right - e.bounds.left;
  const h = (e: Element) => e.bounds.bottom - e.bounds.top;
  const [first] = cells;
  return !!first && cells.every((e) => Math.abs(w(e) - w(first)) <= TOL && Math.abs(h(e) - h(first)) <= TOL);
}

/** The group laid out as a grid, or undefined when it is not one. */
function asGrid(cells: readonly Element[], look: string): LookAlikeGrid | undefined {
  if (cells.length < MIN_CELLS || !sameSize(cells)) return undefined;
  const centres = cells.map((e) => ({ e, c: rectCenter(e.bounds) }));
  const xs = clusters(centres.map((p) => p.c.x));
  const ys = clusters(centres.map((p) => p.c.y));
  if (xs.length < 2 || ys.length < 2 || !evenlySpaced(xs) || !evenlySpaced(ys)) return undefined;
  const rows: (Element | undefined)[][] = ys.map(() => xs.map(() => undefined));
  for (const { e, c } of centres) {
    const row = rows[nearest(ys, c.y)];
    const col = nearest(xs, c.x);
    if (!row || col < 0 || row[col]) return undefined;
    row[col] = e;
  }
  // Every row full but the last, which fills from the left.
  const filled = rows.map((r) => r.findIndex((e) => !e));
  if (filled.slice(0, -1).some((f) => f >= 0)) return undefined;
  const lastGap = filled[filled.length - 1] ?? -1;
  const last = rows[rows.length - 1] ?? [];
  if (lastGap >= 0 && last.slice(lastGap).some(Boolean)) return undefined;
  const round = (v: number | undefined) => Math.round(v ?? 0);
  return {
    rows: rows.map((r) => r.filter((e): e is Element => !!e)),
    cols: xs.length,
    look,
    x: [round(xs[0]), round(xs[xs.length - 1])],
    y: [round(ys[0]), round(ys[ys.length - 1])],
  };
}

/**
 * The grids among the listed controls. `lookOf` says what a control's line would show besides its
 * id and centre, or undefined where the control has a name of its own (then it is not a look-alike).
 */
export function lookAlikeGrids(
  listed: readonly Element[],
  lookOf: (e: Element) => string | undefined,
): LookAlikeGrid[] {
  const groups = new Map<string, Element[]>();
  const looks = new Map<string, string>();
  for (const e of listed) {
    const look = lookOf(e);
    if (look === undefined) continue;
    // Cells of one grid share a window (a dialog's grid is not the page's).
    const key = `${e.window} ${look}`;
    looks.set(key, look);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const grids: LookAlikeGrid[] = [];
  for (const [key, cells] of groups) {
    const g = asGrid(cells, looks.get(key) ?? '');
    if (g) grids.push(g);
  }
  return grids;
}
