import type { Deadline } from '../core/clock.js';
import type { ErrorCode, Observation } from '../core/types.js';
import type { CapturedScreenshot, Device } from '../device/device.js';
import type { WireSnapshot } from '../device/protocol/index.js';
import { perceive } from '../perception/perceive.js';

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

/** perception's `perceive`, fed the device's snapshot and screenshot (with its crop offset). */
export const defaultPerceiver: Perceiver = async (snap, shot, previous) => {
  const wire: WireSnapshot = shot
    ? {
        ...snap,
        screenshot: {
          format: 'png',
          width: shot.width,
          height: shot.height,
          offsetY: shot.offsetY,
          base64: shot.png.toString('base64'),
        },
      }
    : { ...snap, screenshot: undefined };
  const r = await perceive({ wire }, { previous, seq: snap.seq, takenAt: snap.takenAt });
  if (!r.ok) throw new Error(`snapshot does not parse: ${r.message}`);
  return r.observation;
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
