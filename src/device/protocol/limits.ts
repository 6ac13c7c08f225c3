import { z } from 'zod';

/** Action names and the limits of the helper protocol v3 (helper/PROTOCOL.md §3). */

export const ACTION_NAMES = [
  'tap',
  'long_press',
  'swipe',
  'touch_gesture',
  'pinch',
  'key',
  'set_text',
  'ime_commit',
  'launch_app',
  'read_control',
  'control_action',
  'wait_until',
  'scroll_to',
  'action_sequence',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const LIMITS = {
  maxFingers: 5,
  minFrames: 2,
  maxFrames: 32,
  maxGestureMs: 10_000,
  maxPinchMs: 10_000,
  maxWaitMs: 30_000,
  maxScrolls: 20,
  maxScrollMs: 30_000,
  /** scroll_to's budget when the request names none (what the planner's scroll_to always gets). */
  defaultScrolls: 10,
  defaultScrollMs: 10_000,
  /** Members of one action_sequence (the task's max burst). */
  maxBurstActions: 8,
  /** A wait inside an action_sequence. */
  maxGroupWaitMs: 3_000,
  /** Characters of text in all members of one action_sequence together. */
  maxSequenceTextChars: 1_024,
  /** The serialized members of one action_sequence (parameter-stream guard). */
  maxSequenceParamChars: 16_384,
  /** Characters of one set_text / ime_commit outside a sequence. */
  maxTextChars: 16_384,
  /** Polling period of wait_until / scroll_to on the phone's clock. */
  pollMs: 120,
} as const;

/** Client-chosen operation id: resending the same id returns the stored receipt, never a second dispatch. */
export const OpIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'op_id: 1–64 characters of A–Z a–z 0–9 . _ : -')
  .optional();
