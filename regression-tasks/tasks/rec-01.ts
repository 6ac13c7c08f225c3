import { checkSeek, recordingParams, setupRecording } from '../recordings-check.js';
import type { TaskDef } from '../types.js';

/**
 * REC-01: seek a self-drawn recording timeline to a second and leave it paused. The timeline has no
 * range in the tree; its readout (bound to the fixed cursor) is the evidence; the watermark, event
 * cards and the drag bubble show other times. Success: paused within ±1 s.
 */
export const REC_01: TaskDef = {
  id: 'REC-01',
  category: 'recordings',
  tags: ['recordings', 'timeline', 'gesture', 'en'],
  instruction: 'Go to {time} in the {camera} recording and pause there.',
  params: recordingParams,
  setup: (phone, p) => setupRecording(phone, p, {}),
  check: checkSeek,
  mayChange: ['recordings'],
  optimalSteps: 3,
  intents: ['launch "Recordings"', 'seek "Timeline" "{time}"', 'done'],
};
