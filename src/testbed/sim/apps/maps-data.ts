import type { MapState, World } from '../world.js';

/**
 * The Maps app's places and geometry: Web-Mercator projection (the one tile maps use), zooming
 * around a focus point and panning, and great-circle distance for checks.
 */

export interface Place {
  name: string;
  nameZh: string;
  address: string;
  lat: number;
  lon: number;
}

export const PLACES: readonly Place[] = [
  { name: 'Eiffel Tower', nameZh: '埃菲尔铁塔', address: 'Champ de Mars, Paris', lat: 48.8584, lon: 2.2945 },
  { name: 'Golden Gate Bridge', nameZh: '金门大桥', address: 'San Francisco, CA', lat: 37.8199, lon: -122.4783 },
  {
    name: 'Sydney Opera House',
    nameZh: '悉尼歌剧院',
    address: 'Bennelong Point, Sydney',
    lat: -33.8568,
    lon: 151.2153,
  },
  { name: 'Tokyo Tower', nameZh: '东京塔', address: 'Minato City, Tokyo', lat: 35.6586, lon: 139.7454 },
  { name: 'Central Park', nameZh: '中央公园', address: 'New York, NY', lat: 40.7829, lon: -73.9654 },
  { name: 'Colosseum', nameZh: '罗马斗兽场', address: 'Piazza del Colosseo, Rome', lat: 41.8902, lon: 12.4922 },
  { name: 'Forbidden City', nameZh: '故宫', address: 'Dongcheng, Beijing', lat: 39.9163, lon: 116.3972 },
  { name: 'Big Ben', nameZh: '大本钟', address: 'Westminster, London', lat: 51.5007, lon: -0.1246 },
  { name: 'Oriental Pearl Tower', nameZh: '东方明珠', address: 'Pudong, Shanghai', lat: 31.2397, lon: 121.4998 },
  { name: 'Space Needle', nameZh: '太空针塔', address: 'Seattle, WA', lat: 47.6205, lon: -122.3493 },
];

export const MIN_ZOOM = 2;
export const MAX_ZOOM = 19;
/** Where a search result is shown: about a city district on screen. */
export const SEARCH_ZOOM = 12;
/** A map tile is 256 dp; the canvas is about 411 dp wide on the virtual phone. */
const TILE_DP = 256;
const CANVAS_DP = 411;

/** The map state on the world, created on first use (a world made without the Maps app). */
export function mapState(world: World): MapState {
  world.maps ??= { center: { lat: 37.7749, lon: -122.4194 }, zoom: 10, locked: false };
  return world.maps;
}

export function seedMaps(world: World, random: () => number): void {
  // Start somewhere ordinary (a city centre), slightly different per seed, far from every place.
  world.maps = {
    center: { lat: 37.77 + (random() - 0.5) * 0.02, lon: -122.42 + (random() - 0.5) * 0.02 },
    zoom: 10,
    locked: false,
  };
}

export function findPlaces(query: string): Place[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return PLACES.filter(
    (p) => p.name.toLowerCase().includes(q) || p.nameZh.includes(q) || p.address.toLowerCase().includes(q),
  );
}

/** Mercator position in 0..1 (x east, y south). */
export interface Merc {
  x: number;
  y: number;
}

const MAX_LAT = 85.05112878;

export function toMerc(lat: number, lon: number): Merc {
  const la = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return { x: (lon + 180) / 360, y: (1 - Math.log(Math.tan(la) + 1 / Math.cos(la)) / Math.PI) / 2 };
}

export function fromMerc(m: Merc): { lat: number; lon: number } {
  const x = m.x - Math.floor(m.x);
  const y = Math.min(1, Math.max(0, m.y));
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
  return { lat: round6(lat), lon: round6(x * 360 - 180) };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Width of the whole world in canvas pixels at `zoom`, for a canvas `width` px wide. */
export function worldPx(zoom: number, width: number): number {
  return ((TILE_DP * width) / CANVAS_DP) * 2 ** zoom;
}

export function clampZoom(z: number): number {
  return Math.round(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z)) * 1000) / 1000;
}

/**
 * Zoom by `scale` keeping the point under `focus` (canvas px) where it is, as a pinch does: the
 * place between the fingers stays between the fingers.
 */
export function zoomAround(
  s: MapState,
  scale: number,
  focus: { x: number; y: number },
  size: { width: number; height: number },
): void {
  if (!(scale > 0) || !Number.isFinite(scale)) return;
  const z1 = clampZoom(s.zoom + Math.log2(scale));
  const w0 = worldPx(s.zoom, size.width);
  const w1 = worldPx(z1, size.width);
  const c = toMerc(s.center.lat, s.center.lon);
  const fx = focus.x - size.width / 2;
  const fy = focus.y - size.height / 2;
  const f = { x: c.x + fx / w0, y: c.y + fy / w0 };
  s.center = fromMerc({ x: f.x - fx / w1, y: f.y - fy / w1 });
  s.zoom = z1;
}

/** Move the content with the finger by (dx, dy) canvas px. */
export function panBy(s: MapState, dx: number, dy: number, width: number): void {
  const w = worldPx(s.zoom, width);
  const c = toMerc(s.center.lat, s.center.lon);
  s.center = fromMerc({ x: c.x - dx / w, y: c.y - dy / w });
}

/** Great-circle distance in metres. */
export function distanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Ground metres per canvas pixel at the centre. */
export function metresPerPx(s: MapState, width: number): number {
  return (40_075_016.686 * Math.cos((s.center.lat * Math.PI) / 180)) / worldPx(s.zoom, width);
}
