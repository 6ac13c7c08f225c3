import type { Deadline } from '../core/clock.js';
import type { ErrorCode, Observation } from '../core/types.js';
import type { CapturedScreenshot, Device } from '../device/device.js';
import type { WireSnapshot } from '../device/protocol/index.js';
import { observeTree } from '../perception/observe-tree.js';
import { wireToTree } from '../perception/parse-wire.js';

/**
 * Snapshot → Observation for the executor's own reads (re-check, post-action evidence). The
 * perception layer does the work; the loop may inject its full `perceive` (frame hash, screenshot
 * fusion) through `Perceiver`.
 */

export type Perceiver = (
  snap: WireSnapshot,
  screenshot: CapturedScreenshot | undefined,
  previous: Observation | undefined,
) => Observation | Promise<Observation>;

export const treePerceiver: Perceiver = (snap, _shot, previous) => {
  const parsed = wireToTree(snap);
  if (!parsed.ok) throw new Error(`snapshot does not parse: ${parsed.message}`);
  return observeTree(parsed.tree, { previous, seq: snap.seq, takenAt: snap.takenAt }).observation;
};

export type Observed =
  | {
      ok: true;
      obs: Observation;
      snap: WireSnapshot;
      screenshot?: CapturedScreenshot;
      backend: string;
      failover: boolean;
    }
  | { ok: false; code: ErrorCode; message: string };

export async function observeDevice(
  device: Device,
  perceive: Perceiver,
  previous: Observation | undefined,
  d: Deadline,
  opts: { screenshot?: boolean } = {},
): Promise<Observed> {
  const r = await device.snapshot({ screenshot: opts.screenshot }, d);
  if (!r.ok) return { ok: false, code: r.code, message: r.message };
  try {
    const obs = await perceive(r.snapshot, r.screenshot, previous);
    return { ok: true, obs, snap: r.snapshot, screenshot: r.screenshot, backend: r.backend, failover: r.failover };
  } catch (e) {
    return { ok: false, code: 'READ_FAILED', message: e instanceof Error ? e.message : String(e) };
  }
}
