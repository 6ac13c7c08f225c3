import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAct } from '../../src/planner/act-tool.js';
import { RECORDINGS_PACKAGE } from '../../src/testbed/sim/apps/recordings.js';
import { REGISTRY } from '../../src/tools/index.js';
import type { SeekReport } from '../../src/tools/seek-timeline/seek.js';
import { makeExecutor, observe } from '../executor/helpers.js';
import { dualRig } from './executor-rig.js';

/**
 * seek_timeline over plain adb on a camera without a "Current time" readout (REC-03): the skill
 * pauses and, with nothing to steer by, drags nothing; its result says the cursor did not move.
 */

let rig: Awaited<ReturnType<typeof dualRig>>;
beforeAll(async () => {
  rig = await dualRig({ seed: 5 });
});
afterAll(async () => {
  await rig?.close();
});

describe('seek_timeline over adb without a readout', () => {
  it('pauses, drags nothing, and says the cursor did not move (uncertain, ask_user)', async () => {
    const s = rig.phone.world.recordings;
    if (!s) throw new Error('no recordings state');
    s.position = 15 * 3600 + 2 * 60 + 40;
    s.playing = true;
    s.readout = false;
    await rig.phone.launch(RECORDINGS_PACKAGE);
    await rig.clock.sleep(400);
    const ex = makeExecutor(rig.adb, rig.clock, { verification: 'light' });
    const obs = await observe(ex);
    expect(REGISTRY.offered(rig.adb.capabilities())).toContain('seek_timeline');
    const timeline = obs.elements.find((e) => e.resourceId.endsWith(':id/timeline'));
    const act = parseAct(
      { thought: 'seek', tool: 'seek_timeline', target_id: timeline?.id, text: '15:10:00' },
      { catalog: REGISTRY.catalog, tools: ['seek_timeline'], ids: new Set(obs.elements.map((e) => e.id)) },
    );
    if (!act.ok) throw new Error(act.error);
    const r = await ex.run(act.value.decision, obs);
    const report = r.value as SeekReport;
    expect(report.status).toBe('uncertain');
    expect(report.moves).toBe(0);
    expect(s.playing).toBe(false);
    const at = Math.floor(s.position);
    await rig.clock.sleep(1_500);
    expect(Math.floor(s.position)).toBe(at);
    expect(r.error).toMatch(/cursor not moved \(no drag was made\)/);
    expect(r.error).toMatch(/the cursor did not move, only playback was paused.*ask_user/);
  });
});
