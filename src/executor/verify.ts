import type { Deadline } from '../core/clock.js';
import type { Decision, Element, Expect, Observation } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { WireSnapshot } from '../device/protocol/index.js';
import { needsFrames } from './frames.js';
import { observeDevice, type Perceiver } from './observe.js';
import { pollUntil } from './pacing.js';
import { pageSignature, snapshotLoading } from './page-compare.js';
import type { ToolTable } from './tool-spec.js';
import { type Outcome, validate } from './validator.js';

/**
 * Post-action verification (interaction-latency RFC §6.1), the one implementation the agent's loop
 * and MCP's direct tools share:
 * - `light`: reads until the first settled one that satisfies `expect` (or the poll budget ends);
 * - `full`: until the expectation holds on two identical consecutive settled reads.
 * The last read is the post-action observation the next step decides on; with `screenshots` it
 * carries the frame, so the archive and a vision model see the screen the tree describes.
 */

/**
 * The one verification vocabulary (agent, MCP controls, executor calls): `none` claims only
 * delivery, `light` and `full` poll as above. Guarded actions are verified in full whatever is asked.
 */
export const VERIFICATION_MODES = ['none', 'light', 'full'] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];
/** The modes that read after the action (an executor's default, the poll's rule). */
export type PollMode = Exclude<VerificationMode, 'none'>;

/**
 * The expectations judged on the screen after the action alone — the target's state or absence,
 * the keyboard, the app in front: a `light` check of one needs no read right before the touch
 * where the phone checks the target at the instant it touches (guarded_touch), since a screen
 * older than the touch cannot make it pass. Any other compares the screens before and after (a
 * change, a text that appears, no change) and is judged against a fresh read.
 */
const JUDGED_AFTER: ReadonlySet<Expect['kind']> = new Set([
  'element_state',
  'element_gone',
  'keyboard_shown',
  'app_foreground',
]);

/** Light verification compares against the screen right before the touch (a fresh read). */
export function comparesScreens(expect: Expect): boolean {
  return !JUDGED_AFTER.has(expect.kind);
}

export interface Verified {
  outcome?: Outcome;
  post?: Observation;
  /** The PNG of `post`, when captured. */
  png?: Buffer;
  reads: number;
  lastError?: string;
}

export interface VerifyCtx {
  device: Device;
  /** The registry's table: the validator judges an action by what its tool does. */
  tools: ToolTable;
  perceive: Perceiver;
  mode: PollMode;
  screenshots: boolean;
  /** The action moves fingers on the glass (a frame is evidence where a slider has no value). */
  gesture?: boolean;
  poll?: { timeoutMs?: number; intervalMs?: number };
}

export async function verifyAction(
  ctx: VerifyCtx,
  decision: Decision,
  pre: Observation,
  target: Element | undefined,
  d: Deadline,
): Promise<Verified> {
  let reads = 0;
  let post: Observation | undefined;
  let png: Buffer | undefined;
  let outcome: Outcome | undefined;
  let prevSig: string | undefined;
  const r = await pollUntil<true>(
    async () => {
      reads++;
      const o = await observeDevice(ctx.device, ctx.perceive, post ?? pre, d, {
        screenshot: ctx.screenshots || needsFrames(decision.expect.kind, ctx.gesture, pre),
      });
      if (!o.ok) return { done: false, error: o.message };
      post = o.obs;
      png = o.screenshot?.png;
      outcome = validate(ctx.tools, decision.expect, pre, o.obs, decision.action, target);
      d.note(`read ${reads}: ${outcome.ok ? 'expectation holds' : (outcome.reason ?? 'not yet')}`);
      // A transition or a spinner is not a page to decide on yet: keep polling (early exit after).
      if (o.obs.unstable || snapshotLoading(o.snap)) {
        if (!outcome.signals.includes('loading')) outcome.signals.push('loading');
        return { done: false };
      }
      const sig = pageSignature(o.obs);
      const stable = prevSig === sig;
      prevSig = sig;
      if (!outcome.ok) return { done: false };
      return { done: ctx.mode === 'light' || stable };
    },
    d,
    { timeoutMs: ctx.poll?.timeoutMs, intervalMs: ctx.poll?.intervalMs },
  );
  return { outcome, post, png, reads, lastError: r.lastError };
}

/** A read already made after the action (the text ladder's read-back), accepted when it settles and satisfies `expect`. */
export async function reuseRead(
  tools: ToolTable,
  perceive: Perceiver,
  snap: WireSnapshot,
  decision: Decision,
  pre: Observation,
  target: Element | undefined,
): Promise<Verified | undefined> {
  if (snapshotLoading(snap)) return undefined;
  try {
    const post = await perceive(snap, undefined, pre);
    if (post.unstable) return undefined;
    const outcome = validate(tools, decision.expect, pre, post, decision.action, target);
    return outcome.ok ? { outcome, post, reads: 0 } : undefined;
  } catch {
    return undefined;
  }
}
