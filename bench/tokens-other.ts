import path from 'node:path';
import type { WireSnapshot } from '../src/core/snapshot.js';
import { loadStateFile, statesUnder } from '../src/testbed/replay/state-file.js';
import { VirtualPhone } from '../src/testbed/sim/index.js';
import { type RecallReport, snapshotRecall } from './tokens-recall.js';

/**
 * bench:tokens beyond the uiautomator dumps: the virtual phone's launch screens and every recorded
 * real-app state in ../shared (DroidBot graphs, DroidTask), through the same listing and recall.
 */

export interface SourceRow {
  source: string;
  screens: number;
  /** Screens with an actionable node (the median is over these). */
  withActionable: number;
  medianPerActionable: number;
  medianTokens: number;
  labelled: number;
  recalled: number;
  excluded: number;
  misses: string[];
  failed: string[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

function row(
  source: string,
  reports: { name: string; r: RecallReport }[],
  failed: string[],
  count: (s: string) => number,
): SourceRow {
  const per = reports.filter((x) => x.r.actionable > 0).map((x) => count(x.r.compact) / x.r.actionable);
  return {
    source,
    screens: reports.length,
    withActionable: per.length,
    medianPerActionable: Math.round(median(per) * 10) / 10,
    medianTokens: median(reports.map((x) => count(x.r.compact))),
    labelled: reports.reduce((a, x) => a + x.r.labelled - x.r.excluded.length, 0),
    recalled: reports.reduce((a, x) => a + x.r.recalled, 0),
    excluded: reports.reduce((a, x) => a + x.r.excluded.length, 0),
    misses: reports.flatMap((x) => x.r.misses.map((m) => `${x.name}: ${m.className} ${m.bounds}: ${m.why}`)),
    failed,
  };
}

/** The virtual phone's screens: every launchable app as it opens. */
export async function simRow(count: (s: string) => number): Promise<SourceRow> {
  const phone = new VirtualPhone({ seed: 7 });
  const reports: { name: string; r: RecallReport }[] = [];
  for (const app of phone.packages().filter((p) => p.activities.length > 0)) {
    const r = await phone.launch(app.package);
    if (!r.ok) continue;
    await phone.clock.sleep(1500);
    reports.push({ name: app.package, r: snapshotRecall((await phone.readTree()) as WireSnapshot) });
  }
  return row('virtual phone (launch screen of each app)', reports, [], count);
}

/** Every recorded state under `dir` (DroidBot's `states/*.json`), read as a helper snapshot. */
export async function recordedRow(
  source: string,
  dir: string,
  pattern: RegExp,
  count: (s: string) => number,
): Promise<SourceRow> {
  const reports: { name: string; r: RecallReport }[] = [];
  const failed: string[] = [];
  for (const file of await statesUnder(dir, pattern)) {
    const name = path.relative(dir, file);
    try {
      const { read } = await loadStateFile(file, { imageBytes: false });
      reports.push({ name, r: snapshotRecall(read.snapshot) });
    } catch (e) {
      failed.push(`${name}: ${(e as Error).message}`);
    }
  }
  return row(source, reports, failed, count);
}
