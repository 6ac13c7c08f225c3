import { describe, expect, it } from 'vitest';
import { MAP_01 } from '../../regression-tasks/tasks/map-01.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import { PLACES } from '../../src/testbed/sim/apps/maps-data.js';
import type { VirtualPhone } from '../../src/testbed/sim/phone.js';
import type { World } from '../../src/testbed/sim/world.js';

/** MAP-01 judges the zoom the map shows ("z 15.0"), not the float a pinch's finger ratio left. */
describe('MAP-01 check', () => {
  const place = PLACES.find((p) => p.name === 'Eiffel Tower');
  if (!place) throw new Error('no Eiffel Tower in PLACES');
  const judge = async (zoom: number) =>
    MAP_01.check(
      { maps: { center: { lat: place.lat, lon: place.lon }, zoom, locked: false } } as unknown as World,
      { status: 'done' } as unknown as Parameters<TaskDef['check']>[1],
      { place: 'Eiffel Tower', z: '15' },
      undefined as unknown as VirtualPhone,
    );
  it('passes a map that shows z 15.0 after pinches that left 14.997', async () => {
    expect((await judge(14.997)).ok).toBe(true);
    expect((await judge(15.4)).ok).toBe(true);
  });
  it('fails a map that shows z 14.9', async () => {
    const r = await judge(14.94);
    expect(r.ok).toBe(false);
  });
});
