import type { Clock } from '../core/clock.js';
import type { Observation } from '../core/types.js';
import type { CompactOptions } from '../perception/compact.js';
import { compactDelta, diffObservations, type StateDelta } from '../perception/delta.js';

/**
 * Snapshot revisions for state deltas (interaction-latency RFC §8): every observation the server
 * makes gets a revision number; the latest eight (for at most ten minutes, at most 500 elements
 * each) are kept so a client can ask for what changed since one it has. Process-local: gone on
 * restart. A delta lists at most 200 changes; beyond that it is truncated — a change signal only.
 */

/**
 * How MCP lists a screen and its deltas: the full listing, naming MCP's own tool for text, with
 * every resource id that names something (clients select by them, in every language alike).
 */
export const MCP_COMPACT: CompactOptions = { typeTool: 'type_text', everyResourceId: true };

export const KEEP_REVISIONS = 8;
export const KEEP_MS = 10 * 60_000;
export const MAX_NODES = 500;
export const MAX_CHANGES = 200;

interface Kept {
  revision: number;
  at: number;
  obs: Observation;
  capped: boolean;
}

export type DeltaAnswer =
  | {
      delta_available: true;
      base_snapshot_revision: number;
      snapshot_revision: number;
      added: number;
      removed: number;
      changed: number;
      truncated: boolean;
      omitted_changes?: number;
      /** The delta in the compact view's line format (what a model reads). */
      text: string;
    }
  | { delta_available: false; snapshot_revision: number; reason: 'BASE_REVISION_UNAVAILABLE' | 'NO_BASE' };

export class Revisions {
  private next = 1;
  private kept: Kept[] = [];

  constructor(private readonly clock: Clock) {}

  /** Keep an observation; returns its revision. */
  add(obs: Observation): number {
    this.expire();
    const capped = obs.elements.length > MAX_NODES;
    const stored = capped ? { ...obs, elements: obs.elements.slice(0, MAX_NODES) } : obs;
    const revision = this.next++;
    this.kept.push({ revision, at: this.clock.now(), obs: stored, capped });
    if (this.kept.length > KEEP_REVISIONS) this.kept.shift();
    return revision;
  }

  latest(): { revision: number; obs: Observation } | undefined {
    this.expire();
    const k = this.kept.at(-1);
    return k && { revision: k.revision, obs: k.obs };
  }

  get(revision: number): Observation | undefined {
    this.expire();
    return this.kept.find((k) => k.revision === revision)?.obs;
  }

  /** What changed from `base` to the kept revision `to`. */
  delta(base: number | undefined, to: number): DeltaAnswer {
    if (base === undefined) return { delta_available: false, snapshot_revision: to, reason: 'NO_BASE' };
    const from = this.kept.find((k) => k.revision === base);
    const next = this.kept.find((k) => k.revision === to);
    if (!from || !next) return { delta_available: false, snapshot_revision: to, reason: 'BASE_REVISION_UNAVAILABLE' };
    const full = diffObservations(from.obs, next.obs);
    const { delta, omitted } = limit(full);
    const truncated = omitted > 0 || from.capped || next.capped;
    let text = compactDelta(delta, next.obs, MCP_COMPACT, `revision ${base}`);
    if (truncated)
      text += `\n… truncated${omitted ? ` (${omitted} more changes)` : ''}: a change signal only — observe without since_revision before choosing a target`;
    return {
      delta_available: true,
      base_snapshot_revision: base,
      snapshot_revision: to,
      added: full.added.length,
      removed: full.removed.length,
      changed: full.changed.length,
      truncated,
      ...(omitted ? { omitted_changes: omitted } : {}),
      text,
    };
  }

  /** Forget everything (device disconnect). */
  clear(): void {
    this.kept = [];
  }

  private expire(): void {
    const cutoff = this.clock.now() - KEEP_MS;
    this.kept = this.kept.filter((k) => k.at >= cutoff);
  }
}

/** At most MAX_CHANGES element changes, in the order added → removed → changed. */
function limit(d: StateDelta): { delta: StateDelta; omitted: number } {
  const total = d.added.length + d.removed.length + d.changed.length;
  if (total <= MAX_CHANGES) return { delta: d, omitted: 0 };
  let room = MAX_CHANGES;
  const take = <T>(xs: T[]): T[] => {
    const out = xs.slice(0, room);
    room -= out.length;
    return out;
  };
  return {
    delta: { ...d, added: take(d.added), removed: take(d.removed), changed: take(d.changed) },
    omitted: total - MAX_CHANGES,
  };
}
