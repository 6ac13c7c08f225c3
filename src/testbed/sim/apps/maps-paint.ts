import type { CanvasShape } from '../kit/view.js';
import type { MapState } from '../world.js';
import { type Merc, metresPerPx, PLACES, toMerc, worldPx } from './maps-data.js';

/**
 * What the map draws (pixels only; the tree has just the map's container). Land, parks and water
 * come from seeded value noise in Mercator space, so a place looks the same on every visit and
 * zooming shows coarser or finer features, as map tiles do. Roads follow a grid that halves with
 * each zoom level; place pins carry their names; a scale bar and the zoom level sit bottom left.
 */

const COLS = 18;
const WATER = '#6fa8dc';
const PARK = '#93c47d';
const LAND = '#efe9e1';
const BUILT = '#cfc6b8';

function hash3(x: number, y: number, k: number): number {
  let h = Math.imul(x | 0, 374761393) ^ Math.imul(y | 0, 668265263) ^ Math.imul(k | 0, 2246822519);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise at lattice level `k` (spacing 2^-k of the world). */
function valueNoise(m: Merc, k: number): number {
  const n = 2 ** k;
  const gx = m.x * n;
  const gy = m.y * n;
  const ix = Math.floor(gx);
  const iy = Math.floor(gy);
  const fx = gx - ix;
  const fy = gy - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash3(ix, iy, k);
  const b = hash3(ix + 1, iy, k);
  const c = hash3(ix, iy + 1, k);
  const d = hash3(ix + 1, iy + 1, k);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

function terrain(m: Merc, level: number): string {
  let v = 0;
  let wsum = 0;
  for (let o = 0; o < 4; o++) {
    const w = 0.5 ** o;
    v += valueNoise(m, level + o) * w;
    wsum += w;
  }
  v /= wsum;
  if (v < 0.38) return WATER;
  if (v < 0.46) return PARK;
  if (v < 0.62) return LAND;
  return BUILT;
}

export function paintMap(s: MapState, width: number, height: number): CanvasShape[] {
  if (width <= 0 || height <= 0) return [];
  const shapes: CanvasShape[] = [];
  const world = worldPx(s.zoom, width);
  const c = toMerc(s.center.lat, s.center.lon);
  const toPx = (m: Merc) => ({ x: (m.x - c.x) * world + width / 2, y: (m.y - c.y) * world + height / 2 });
  const toM = (x: number, y: number): Merc => ({ x: c.x + (x - width / 2) / world, y: c.y + (y - height / 2) / world });
  const level = Math.floor(s.zoom);

  // Terrain: a grid of cells coloured by the noise at their centres.
  const cell = width / COLS;
  const rows = Math.ceil(height / cell);
  for (let r = 0; r < rows; r++)
    for (let col = 0; col < COLS; col++) {
      const fill = terrain(toM((col + 0.5) * cell, (r + 0.5) * cell), level + 1);
      shapes.push({ kind: 'rect', x: col * cell, y: r * cell, w: cell + 0.5, h: cell + 0.5, fill });
    }

  // Roads: minor every 2^-(level+2) of the world, major every 4th line.
  const unit = width / 411;
  const step = 2 ** -(level + 2);
  const tl = toM(0, 0);
  const br = toM(width, height);
  for (let i = Math.ceil(tl.x / step); i * step <= br.x; i++) {
    const x = toPx({ x: i * step, y: 0 }).x;
    const major = i % 4 === 0;
    shapes.push({
      kind: 'line',
      points: [
        [x, 0],
        [x, height],
      ],
      stroke: major ? '#f6cf65' : '#ffffff',
      width: (major ? 5 : 2.5) * unit,
    });
  }
  for (let j = Math.ceil(tl.y / step); j * step <= br.y; j++) {
    const y = toPx({ x: 0, y: j * step }).y;
    const major = j % 4 === 0;
    shapes.push({
      kind: 'line',
      points: [
        [0, y],
        [width, y],
      ],
      stroke: major ? '#f6cf65' : '#ffffff',
      width: (major ? 5 : 2.5) * unit,
    });
  }

  // Place pins with their names.
  for (const p of PLACES) {
    const at = toPx(toMerc(p.lat, p.lon));
    if (at.x < -50 || at.y < -50 || at.x > width + 50 || at.y > height + 50) continue;
    const chosen = s.selected === p.name;
    shapes.push({
      kind: 'circle',
      cx: at.x,
      cy: at.y,
      r: (chosen ? 10 : 6) * unit,
      fill: '#ea4335',
      stroke: '#ffffff',
    });
    shapes.push({
      kind: 'text',
      x: at.x + 12 * unit,
      y: at.y + 5 * unit,
      text: p.name,
      size: 14 * unit,
      color: '#202124',
      bold: chosen,
    });
  }

  // Scale bar and zoom level: pixels only, like a real map's.
  const mpp = metresPerPx(s, width);
  const nice = [
    5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000,
  ];
  const metres = nice.find((m) => m / mpp >= 60 * unit) ?? 1_000_000;
  const barPx = metres / mpp;
  const label = metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
  const y0 = height - 40 * unit;
  shapes.push({
    kind: 'rect',
    x: 8 * unit,
    y: y0 - 18 * unit,
    w: barPx + 100 * unit,
    h: 34 * unit,
    fill: '#ffffff',
    radius: 6 * unit,
  });
  shapes.push({ kind: 'rect', x: 14 * unit, y: y0 + 6 * unit, w: barPx, h: 4 * unit, fill: '#202124' });
  shapes.push({ kind: 'text', x: 14 * unit, y: y0, text: label, size: 12 * unit, color: '#202124' });
  shapes.push({
    kind: 'text',
    x: 24 * unit + barPx,
    y: y0 + 8 * unit,
    text: `z ${s.zoom.toFixed(1)}`,
    size: 12 * unit,
    color: '#5f6368',
  });
  return shapes;
}
