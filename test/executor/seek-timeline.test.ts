import { afterEach, describe, expect, it } from 'vitest';
import type { Decision, Observation } from '../../src/core/types.js';
import { hasTimeline } from '../../src/perception/timeline.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { RECORDINGS_PACKAGE } from '../../src/testbed/sim/apps/recordings.js';
import { hms, parseHms } from '../../src/testbed/sim/apps/recordings-data.js';
import { REGISTRY } from '../../src/tools/index.js';
import type { SeekReport } from '../../src/tools/seek-timeline/seek.js';
import { testApp } from '../sim/engine-helpers.js';
import { bridgeRig, makeExecutor, observe } from './helpers.js';

/**
 * seek_timeline over the real bridge on the virtual phone's Recordings app: the closed loop reaches
 * the second (paused or playing at start) by the readout bound to the cursor, says what it rested
 * on, and refuses to claim a second when there is no readout — whatever the watermark, the event
 * cards or the drag bubble show.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function openRecordings(seed: number, setup: { start: number; playing?: boolean; readout?: boolean }) {
  rig = await bridgeRig({ seed });
  const s = rig.phone.world.recordings;
  if (!s) throw new Error('no recordings state');
  s.position = setup.start;
  s.playing = setup.playing ?? false;
  s.readout = setup.readout ?? true;
  await rig.phone.launch(RECORDINGS_PACKAGE);
  await rig.clock.sleep(400);
  const ex = makeExecutor(rig.device, rig.clock, { verification: 'light' });
  return { ex, obs: await observe(ex), state: s };
}

function seekDecision(obs: Observation, time: string): Decision {
  const timeline = obs.elements.find((e) => e.resourceId.endsWith(':id/timeline'));
  if (!timeline) throw new Error('no timeline on screen');
  const r = parseAct(
    { thought: 'seek', tool: 'seek_timeline', target_id: timeline.id, text: time },
    { catalog: REGISTRY.catalog, tools: ['seek_timeline'], ids: new Set(obs.elements.map((e) => e.id)) },
  );
  if (!r.ok) throw new Error(r.error);
  return r.value.decision;
}

describe('seek_timeline on the Recordings app', () => {
  it.each([
    [1, 11 * 3600 + 7 * 60 + 41, 14 * 60, false],
    [2, 15 * 3600 + 22 * 60 + 5, -9 * 60, false],
    [3, 9 * 3600 + 40 * 60 + 17, 6 * 60, true],
    [4, 13 * 3600 + 3 * 60 + 58, -19 * 60, true],
  ])('seed %i: reaches second %i from %i s before it, playing at start: %s', async (seed, target, away, playing) => {
    const { ex, obs, state } = await openRecordings(seed, { start: target - away, playing });
    const r = await ex.run(seekDecision(obs, hms(target)), obs);
    const report = r.value as SeekReport;
    if (process.env.SEEK_DEBUG) console.log(JSON.stringify(report), rig?.clock.now());
    expect(r.ok, JSON.stringify(report)).toBe(true);
    expect(report.status).toBe('reached');
    expect(Math.abs(Math.floor(state.position) - target)).toBeLessThanOrEqual(1);
    expect(state.playing).toBe(false);
    // The readout it claims is the phone's, and the residual is what is left of it.
    expect(parseHms(report.reached ?? '')).toBe(Math.floor(state.position));
    expect(report.residualSec).toBe(target - Math.floor(state.position));
    expect(report.evidence.join(' ')).toMatch(/readout .* stable/);
    expect(report.evidence.join(' ')).toMatch(/scale [\d.]+ s\/px/);
    expect(report.ignored.join(' ')).toMatch(/watermark/);
    expect(report.ignored.join(' ')).toMatch(/event card/);
    expect(report.pinches).toBeGreaterThan(0);
    if (playing) expect(report.evidence[0]).toMatch(/paused with "Pause"/);
  });

  it('claims no second without a readout: uncertain, paused, nothing read from the watermark or the cards', async () => {
    const { ex, obs, state } = await openRecordings(5, { start: 12 * 3600, playing: true, readout: false });
    const r = await ex.run(seekDecision(obs, '12:10:30'), obs);
    const report = r.value as SeekReport;
    expect(r.ok).toBe(false);
    expect(report.status).toBe('uncertain');
    expect(report.reached).toBeUndefined();
    expect(report.residualSec).toBeUndefined();
    expect(r.error).toMatch(/uncertain/);
    expect(report.ignored.join(' ')).toMatch(/watermark.*event card|event card.*watermark/);
    expect(state.playing).toBe(false);
    // Where the cursor is: where it was (nothing but the pause was sent); its second: unknown.
    expect(report.moves).toBe(0);
    expect(report.cursor).toBe('cursor not moved (no drag was made); its second unknown: no readout bound to it');
    expect(r.error).toMatch(
      /^seek uncertain: target 12:10:30 · cursor not moved \(no drag was made\); its second unknown/,
    );
    expect(r.error).toMatch(/the cursor did not move, only playback was paused/);
  });

  it('a drag by hand: a two-frame touch_gesture on the timeline moves the cursor, roughly by its length', async () => {
    const { ex, obs, state } = await openRecordings(6, { start: 10 * 3600 });
    const timeline = obs.elements.find((e) => e.resourceId.endsWith(':id/timeline'));
    if (!timeline) throw new Error('no timeline');
    const y = Math.round((timeline.bounds.top + timeline.bounds.bottom) / 2);
    const r = parseAct(
      {
        thought: 'drag it left by hand',
        tool: 'touch_gesture',
        frames: [
          { at_ms: 0, points: [{ x: 700, y }] },
          { at_ms: 400, points: [{ x: 300, y }] },
        ],
        expect: 'frame_changes',
      },
      { catalog: REGISTRY.catalog, tools: ['touch_gesture'], ids: new Set(obs.elements.map((e) => e.id)) },
    );
    if (!r.ok) throw new Error(r.error);
    const before = state.position;
    const done = await ex.run(r.value.decision, obs);
    expect(done.ok, done.error).toBe(true);
    await rig?.clock.sleep(1000);
    // Content moves with the finger: dragging left shows later times.
    expect(state.position).toBeGreaterThan(before);
  });

  it('refuses a time that is not HH:MM:SS before anything is sent', () => {
    const r = parseAct(
      { thought: 'seek', tool: 'seek_timeline', target_id: 'abc', text: 'half past two' },
      { catalog: REGISTRY.catalog, tools: ['seek_timeline'], ids: new Set(['abc']) },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/HH:MM:SS/);
  });

  it('the timeline is what makes the screen a seek_timeline screen (not the launcher, not a SeekBar)', async () => {
    rig = await bridgeRig({ seed: 1 });
    const ex = makeExecutor(rig.device, rig.clock);
    expect(hasTimeline(await observe(ex))).toBe(false);
    await rig.phone.launch(RECORDINGS_PACKAGE);
    await rig.clock.sleep(400);
    expect(hasTimeline(await observe(ex))).toBe(true);
    await rig.phone.launch('com.android.settings');
    await rig.clock.sleep(400);
    expect(hasTimeline(await observe(ex))).toBe(false);
  });
});

describe('seek_timeline against a readout that is not bound to the cursor', () => {
  it('a "current time" that does not follow the drags is not evidence: uncertain, no second claimed', async () => {
    const frozen = testApp('com.example.frozen', () => ({
      activity: '.Main',
      title: 'Frozen',
      root: {
        kind: 'column',
        children: [
          { kind: 'text', id: 'current_time', text: '10:00:00' },
          {
            kind: 'canvas',
            id: 'timeline',
            desc: 'Timeline',
            height: 110,
            paint: () => [],
            onDrag: () => {},
            onPinch: () => {},
          },
        ],
      },
    }));
    rig = await bridgeRig({ seed: 1, apps: [frozen] });
    await rig.phone.launch('com.example.frozen');
    await rig.clock.sleep(400);
    const ex = makeExecutor(rig.device, rig.clock, { verification: 'light' });
    const obs = await observe(ex);
    const r = await ex.run(seekDecision(obs, '10:05:00'), obs);
    const report = r.value as SeekReport;
    expect(r.ok).toBe(false);
    expect(report.status).toBe('uncertain');
    expect(report.reached).toBeUndefined();
    expect(report.reason).toMatch(/did not follow/);
    // The failed seek says where the cursor reads, and that the reading is not trusted.
    expect(report.cursor).toBe('cursor readout 10:00:00 (stable, not trusted)');
    expect(r.error).toContain('· cursor readout 10:00:00 (stable, not trusted) ·');
  });
});
