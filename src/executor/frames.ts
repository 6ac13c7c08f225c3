import type { Observation } from '../core/types.js';
import { hammingDistance, SAME_FRAME_MAX_DISTANCE } from '../perception/frame.js';

/**
 * Whether the executor captures frames around an action: for an expectation only a screenshot can
 * confirm, and for a gesture (fingers on the glass) on a screen with a slider whose value the tree does not carry (a
 * uiautomator dump has no progress) — there the frame is the evidence of what the touch did, and
 * "nothing changed" must never be said while its picture moved.
 */
export function needsFrames(kind: string, gesture?: boolean, obs?: Observation): boolean {
  if (kind === 'frame_changes') return true;
  if (!gesture || !obs) return false;
  return obs.elements.some((e) => e.role === 'SeekBar' && (!e.range || e.range.fromFrame === true));
}

/** Blockhash distance of two frames, or undefined when either side has none. */
export function frameDistance(pre: Observation, post: Observation): number | undefined {
  if (!pre.frameHash || !post.frameHash) return undefined;
  return hammingDistance(pre.frameHash, post.frameHash);
}

/** Whether the frame moved beyond capture noise (a caret blink, anti-aliasing). */
export function frameChanged(pre: Observation, post: Observation): boolean | undefined {
  const d = frameDistance(pre, post);
  return d === undefined ? undefined : d > SAME_FRAME_MAX_DISTANCE;
}
