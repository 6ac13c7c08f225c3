import { checkSeek, recordingParams, setupRecording } from '../recordings-check.js';
import type { TaskDef } from '../types.js';

/**
 * REC-02: as REC-01, with playback running when the app opens: the cursor moves one second per
 * second until paused, so no reading is evidence before the pause.
 */
export const REC_02: TaskDef = {
  id: 'REC-02',
  category: 'recordings',
  tags: ['recordings', 'timeline', 'gesture', 'playing', 'en'],
  instruction: 'The {camera} recording is playing: stop it at exactly {time}.',
  params: recordingParams,
  setup: (phone, p) => setupRecording(phone, p, { playing: true }),
  check: checkSeek,
  mayChange: ['recordings'],
  optimalSteps: 3,
  intents: ['launch "Recordings"', 'seek "Timeline" "{time}"', 'done'],
};
