/**
 * The listing's grid line (issue 22): a regular grid of look-alike unlabelled cells — a calendar's
 * month of `#month_view_background` cells, a gallery's thumbnails — is one line instead of one line
 * a cell, and every cell keeps its id (ids row by row, rows split by ` / `):
 *
 *     grid 6×7 #month_view_background x 72…929 y 309…885, ids by row: 1fc 606 … / 7ba 7b6 … / …
 *
 * `look` is what each cell's own line would have said besides its id and centre (verb, class,
 * state, resource id). A cell's centre is its column's and row's place in the even spacing between
 * the first and the last. Written by perception and read by the reference model (which reads the
 * listing as a model does, importing only core), so the format is kept here, once.
 */

export interface GridLine {
  rows: number;
  cols: number;
  /** Verb, class, state and resource id the cells share (may be empty). */
  look: string;
  /** Centres of the first and last column, the first and last row (0..1000). */
  x: readonly [number, number];
  y: readonly [number, number];
  /** The cells' ids as listed, row by row (the last row may be shorter). */
  ids: readonly (readonly string[])[];
}

export function writeGridLine(g: GridLine): string {
  const look = g.look ? ` ${g.look}` : '';
  const ids = g.ids.map((row) => row.join(' ')).join(' / ');
  return `grid ${g.rows}×${g.cols}${look} x ${g.x[0]}…${g.x[1]} y ${g.y[0]}…${g.y[1]}, ids by row: ${ids}`;
}

const GRID_RE = /^grid (\d+)×(\d+)(?: (.*?))? x (\d+)…(\d+) y (\d+)…(\d+), ids by row: (.+)$/;

export function readGridLine(line: string): GridLine | undefined {
  const m = GRID_RE.exec(line.trim());
  if (!m) return undefined;
  const ids = (m[8] ?? '').split(' / ').map((row) => row.split(' ').filter(Boolean));
  return {
    rows: Number(m[1]),
    cols: Number(m[2]),
    look: m[3] ?? '',
    x: [Number(m[4]), Number(m[5])],
    y: [Number(m[6]), Number(m[7])],
    ids,
  };
}

/** Where a cell's centre is (0..1000), from the grid's even spacing. */
export function gridCellCentre(g: GridLine, row: number, col: number): { x: number; y: number } {
  const at = (span: readonly [number, number], i: number, n: number) =>
    n > 1 ? Math.round(span[0] + ((span[1] - span[0]) * i) / (n - 1)) : span[0];
  return { x: at(g.x, col, g.cols), y: at(g.y, row, g.rows) };
}
