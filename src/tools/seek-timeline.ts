import { reportedSkill } from '../executor/skill-step.js';
import { findTimeline } from '../perception/timeline.js';
import { seekTimeline as seek, seekReadings, seekSummary } from './seek-timeline/seek.js';
import type { Tool } from './tool.js';

/**
 * The skill that seeks a self-drawn recording timeline to a second (./seek-timeline/seek.ts): it
 * pauses, zooms, drags and reads the readout until it settles, and verifies itself by that readout.
 */

const TIME_RE = /^\d{1,2}:\d{2}:\d{2}$/;
/** How long one seek may take: it pauses, zooms, drags and waits for the readout to settle several times. */
const TIMEOUT_MS = 30_000;

export const seekTimeline: Tool = {
  name: 'seek_timeline',
  // A drag by hand is named only where touch_gesture is offered (not over plain ADB).
  help: (_k, offered) =>
    `seek_timeline(target_id=timeline, text=HH:MM:SS) pauses, seeks, reports the residual or uncertain${offered.has('touch_gesture') ? '; a drag by hand is a touch_gesture of 2 frames (finger down, finger up)' : ''}`,
  // Drags and reads; it zooms too when the device can pinch.
  needs: [['snapshot', 'swipe', 'tap']],
  offeredOn: (t) => t.timeline,
  parse: (a) => {
    const to = a.text?.trim() ?? '';
    if (!a.target_id || !TIME_RE.test(to))
      return {
        ok: false,
        error: 'seek_timeline needs target_id (the timeline) and text=HH:MM:SS (the time to seek to)',
      };
    // The skill's own budget (ms), as a wait's: the action's deadline covers it.
    return { ok: true, action: { args: { time: to, timeout_ms: TIMEOUT_MS } } };
  },
  // It reads its readout at the target; the model's expect is not needed.
  expectation: (a) => ({ kind: 'text_appears', text: a.text?.trim() ?? '', note: 'seek_timeline reads its readout' }),
  aim: (a, obs) => {
    const tl = findTimeline(obs, a.target_id);
    return tl
      ? { ok: true, element: tl }
      : {
          ok: false,
          code: 'NOT_FOUND',
          message: `no recording timeline${a.target_id ? ` with id ${a.target_id}` : ''} on this screen: give the timeline's id`,
        };
  },
  // The readout reached the target and agreed with the scale.
  summary: seekSummary,
  readings: seekReadings,
  skill: (deps, a, obs, timeline, d) =>
    reportedSkill(deps, obs, (io) => seek(io, { timeline, target: String(a.args?.time ?? a.text ?? ''), obs }, d), {
      name: 'seek_timeline',
      summary: seekSummary,
      signals: ['readout_stable', 'scale_consistent'],
    }),
};
