import { checkUncertain, recordingParams, setupRecording } from '../recordings-check.js';
import type { TaskDef } from '../types.js';

/**
 * REC-03: this camera model shows no current-time readout; only the pixels, the watermark (its own
 * drifting clock), event cards and the drag bubble show times. The second cannot be confirmed, so
 * the right end is a hand-over (`ask_user`, paused), whatever its words; `done` is a false done.
 */
export const REC_03: TaskDef = {
  id: 'REC-03',
  category: 'recordings',
  tags: ['recordings', 'timeline', 'uncertain', 'en'],
  instruction: 'Find {time} on the {camera} camera timeline and pause the playback there.',
  params: recordingParams,
  setup: (phone, p) => setupRecording(phone, p, { playing: true, readout: false }),
  check: (w, run) => checkUncertain(w, run),
  mayChange: ['recordings'],
  optimalSteps: 3,
  intents: ['launch "Recordings"', 'seek "Timeline" "{time}"'],
};
