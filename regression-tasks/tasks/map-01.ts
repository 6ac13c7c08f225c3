import { distanceM, PLACES } from '../../src/testbed/sim/apps/maps-data.js';
import type { TaskDef } from '../types.js';

/** How far from the place the map's centre may end (the search centres on it; pinching keeps it). */
const MAX_OFF_M = 300;
/** Places the task asks for: distinct names, none a substring of another's suggestion list. */
const TASK_PLACES = ['Eiffel Tower', 'Golden Gate Bridge', 'Sydney Opera House', 'Colosseum', 'Big Ben'];

/**
 * MAP-01: find a place, then zoom in with pinches until the map is at least at zoom {z}. The map
 * is a canvas: its tree shows only a "Map" node, so every pinch can be confirmed only by the
 * screenshot changing (`frame_changes`). Search shows the place at zoom 12; three pinches of 2.5×
 * reach ≈ 15.9, enough for either z.
 */
export const MAP_01: TaskDef = {
  id: 'MAP-01',
  category: 'maps',
  tags: ['maps', 'pinch', 'visual-first', 'en'],
  instruction: 'Show {place} on the map at zoom ≥ {z}.',
  params: (r) => ({
    place: TASK_PLACES[Math.floor(r() * TASK_PLACES.length)] ?? 'Eiffel Tower',
    z: String(14 + Math.floor(r() * 2)),
  }),
  check: (w, run, p) => {
    const s = w.maps;
    const place = PLACES.find((x) => x.name === p.place);
    if (!s || !place) return { ok: false, reason: `no map state or unknown place ${p.place}` };
    const off = distanceM(s.center, place);
    // The zoom as the map shows it ("z 15.0", one decimal): a pinch's float ratio may leave 14.997.
    const shown = Math.round(s.zoom * 10) / 10;
    return shown >= Number(p.z) && off <= MAX_OFF_M && run.status === 'done'
      ? { ok: true }
      : {
          ok: false,
          reason: `zoom ${s.zoom.toFixed(2)} (wanted ≥ ${p.z}), centre ${off.toFixed(0)} m from ${p.place}, status=${run.status}`,
        };
  },
  optimalSteps: 7,
  intents: [
    'launch "Maps"',
    'type "Search here" "{place}"',
    'tap "{place}"',
    'pinch "Map" 2.5',
    'pinch "Map" 2.5',
    'pinch "Map" 2.5',
    'done',
  ],
};
