import type { Deadline } from '../core/clock.js';
import { InvalidInputError } from '../core/errors.js';
import type { ErrorCode, Observation } from '../core/types.js';
import type { CapturedScreenshot, Device } from '../device/device.js';
import type { WireSnapshot } from '../device/protocol/index.js';
import { type CompactOptions, compactView } from '../perception/compact.js';
import { perceive } from '../perception/perceive.js';
import type { VisualFirstRegistry } from '../perception/quality.js';
import { FieldHints } from './field-hints.js';

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

/**
 * What the agent shows the model: the compact view without the navigation bar (back/home reach it),
 * ids as their shortest unique prefix (the planner reads them back to full ids), no screen size in
 * the header (the prompt states the aspect beside the fence), and the lean lines (compact.ts).
 */
export const AGENT_COMPACT: CompactOptions = { hideNavigationBar: true, fullIds: false, screenSize: false, lean: true };

/** How many pages' last observations a perceiver keeps (a task visits a handful). */
const PAGES_KEPT = 16;

function pageOf(o: Observation): string {
  return `${o.app.package}/${o.app.activity}`;
}

/**
 * The one perceiver: perception's `perceive` fed the device's snapshot and screenshot (with its
 * crop offset), remembering visual-first pages across reads, and keeping the compact view it built
 * for each observation so nobody builds it twice.
 */
export class SnapshotPerceiver {
  private readonly compacts = new WeakMap<Observation, string>();
  /**
   * The last observation of each page (package/activity), most recent last. Ids are carried from
   * the screen before by content (DESIGN §4); after another page in between (a product page, then
   * BACK to the menu) they are carried from this page's own last read instead, so a row that kept
   * its id through a scroll keeps it after coming back (relay run I: same item, new id after BACK).
   */
  private readonly pages = new Map<string, Observation>();
  /** What fields showed before the agent typed into them, as their hints (field-hints.ts). */
  readonly fields = new FieldHints();
  constructor(private readonly opts: { registry?: VisualFirstRegistry; compact?: CompactOptions } = {}) {}

  readonly perceive: Perceiver = async (raw, shot, before) => {
    const snap = this.fields.apply(raw);
    const page = `${snap.foreground.package}/${snap.foreground.activity}`;
    const previous = before && pageOf(before) !== page ? (this.pages.get(page) ?? before) : before;
    const wire: WireSnapshot = shot
      ? {
          ...snap,
          screenshot: {
            format: 'png',
            width: shot.width,
            height: shot.height,
            offsetY: shot.offsetY,
            seq: shot.seq,
            base64: shot.png.toString('base64'),
          },
        }
      : { ...snap, screenshot: undefined };
    const r = await perceive(
      { wire },
      { previous, seq: snap.seq, takenAt: snap.takenAt, registry: this.opts.registry, compact: this.opts.compact },
    );
    if (!r.ok) throw new InvalidInputError('the device snapshot', `${r.message}; observe again`);
    this.compacts.set(r.observation, r.compact);
    this.pages.delete(page);
    this.pages.set(page, r.observation);
    if (this.pages.size > PAGES_KEPT) this.pages.delete(this.pages.keys().next().value as string);
    return r.observation;
  };

  /** The compact view of an observation this perceiver made (built again only for foreign ones). */
  compact(obs: Observation): string {
    let text = this.compacts.get(obs);
    if (text === undefined) {
      text = compactView(obs, this.opts.compact);
      this.compacts.set(obs, text);
    }
    return text;
  }
}

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

/** A snapshot read elsewhere (the text ladder's read-back) as an observation; undefined if unstable or unparsable. */
export async function perceiveSettled(
  perceive: Perceiver,
  snap: WireSnapshot,
  previous: Observation,
): Promise<Observation | undefined> {
  try {
    const o = await perceive(snap, undefined, previous);
    return o.unstable ? undefined : o;
  } catch {
    return undefined;
  }
}
