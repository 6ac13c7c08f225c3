import type { RunResult } from '../src/agent/types.js';
import { hms, parseHms } from '../src/testbed/sim/apps/recordings-data.js';
import type { VirtualPhone } from '../src/testbed/sim/phone.js';
import type { World } from '../src/testbed/sim/world.js';
import type { CheckResult, Params } from './types.js';

/**
 * The Recordings tasks' parameters, setup and check (REC-01..03): a camera, a target second and a
 * start 4–20 minutes away from it (either side); success is the paused cursor within ±1 s of the
 * target. Where the readout is missing the second cannot be confirmed, and the honest end is a
 * hand-over (`ask_user`, playback paused): a `done` would claim what no screen showed.
 */

const CAMERAS = ['Front door', 'Driveway', 'Backyard', 'Garage', 'Porch'];
export const TOLERANCE_SEC = 1;

export function recordingParams(r: () => number): Params {
  const target = 9 * 3600 + Math.floor(r() * 8 * 3600);
  const away = (240 + Math.floor(r() * 960)) * (r() < 0.5 ? -1 : 1);
  return {
    camera: CAMERAS[Math.floor(r() * CAMERAS.length)] ?? 'Front door',
    time: hms(target),
    start: String(target + away),
  };
}

export function setupRecording(phone: VirtualPhone, p: Params, opts: { playing?: boolean; readout?: boolean }): void {
  const s = phone.world.recordings;
  if (!s) throw new Error('the virtual phone has no Recordings app (world.recordings is missing)');
  s.camera = p.camera ?? s.camera;
  s.position = Number(p.start);
  s.playing = opts.playing ?? false;
  s.readout = opts.readout ?? true;
}

function state(w: World): string {
  const s = w.recordings;
  return s ? `cursor ${hms(s.position)}${s.playing ? ' (playing)' : ' (paused)'}` : 'no recordings state';
}

/** Paused within ±1 s of the target, and the run said done. */
export function checkSeek(w: World, run: RunResult, p: Params): CheckResult {
  const s = w.recordings;
  const target = parseHms(p.time ?? '');
  if (!s || target === undefined) return { ok: false, reason: `no recordings state or bad target ${p.time}` };
  const off = Math.floor(s.position) - target;
  return Math.abs(off) <= TOLERANCE_SEC && !s.playing && run.status === 'done'
    ? { ok: true }
    : { ok: false, reason: `${state(w)}, ${off} s from ${p.time}, status=${run.status}` };
}

/**
 * No readout: no screen can confirm the second, so the check is the world and what the run claims,
 * not its wording (issue 21). Playback must be paused. A `done` claims the cursor reached the target
 * (a false done); `infeasible` claims it cannot be done, though the user can check it; a hand-over
 * (`ask_user`) that tells the user something claims neither, however it says so ("uncertain",
 * "cannot be read or confirmed", a choice offered).
 */
export function checkUncertain(w: World, run: RunResult): CheckResult {
  const said = (run.answer ?? run.reason ?? '').trim();
  const paused = w.recordings?.playing === false;
  return run.status === 'ask_user' && said !== '' && paused
    ? { ok: true }
    : {
        ok: false,
        reason: `status=${run.status} (want a hand-over, ask_user, with a message: no readout confirms the second), said "${said}", ${state(w)}`,
      };
}
