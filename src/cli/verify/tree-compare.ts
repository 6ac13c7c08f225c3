import type { WireNode, WireSnapshot } from '../../device/protocol/wire.js';
import { redactPii } from '../../executor/guardrails/pii.js';

/**
 * The helper's tree against `uiautomator dump` of the same screen: the labelled nodes of the
 * foreground app in each (text, else description; never a field's or a password's text), matched by
 * label and nearest bounds. Labels in the result are masked (PII redacted, cut to 40 characters).
 */

export interface TreeComparison {
  foreground: string;
  helperLabels: number;
  dumpLabels: number;
  matched: number;
  /** Matched labels whose bounds differ by more than BOUNDS_PX on some edge. */
  boundsOff: number;
  /** The largest edge difference among matched labels, px. */
  maxBoundsPx: number;
  /** matched / the larger of the two label counts (1 when both are empty). */
  agreement: number;
  onlyHelper: string[];
  onlyDump: string[];
}

export const BOUNDS_PX = 8;
const LISTED = 10;

function labelOf(n: WireNode): string {
  if (n.flags.password) return n.desc.trim();
  return (n.flags.editable ? n.desc || n.hint || '' : n.text || n.desc).trim();
}

function labelled(s: WireSnapshot, pkg: string, appWindowsOnly: boolean): WireNode[] {
  const wins = new Set(s.windows.filter((w) => w.type === 'application' && w.package === pkg).map((w) => w.id));
  return s.nodes.filter(
    (n) => n.flags.visible && labelOf(n) !== '' && n.package === pkg && (!appWindowsOnly || wins.has(n.window)),
  );
}

const edgeDiff = (a: WireNode, b: WireNode) =>
  Math.max(
    Math.abs(a.bounds.left - b.bounds.left),
    Math.abs(a.bounds.top - b.bounds.top),
    Math.abs(a.bounds.right - b.bounds.right),
    Math.abs(a.bounds.bottom - b.bounds.bottom),
  );

const masked = (label: string) => {
  const r = redactPii(label);
  return r.length > 40 ? `${r.slice(0, 39)}…` : r;
};

export function compareTrees(helper: WireSnapshot, dump: WireSnapshot): TreeComparison {
  const pkg = helper.foreground.package;
  const ours = labelled(helper, pkg, true);
  // A dump lists one window (the focused app's, on some phones with system UI): its nodes of the app.
  const theirs = labelled(dump, pkg, false);
  const free = new Set(theirs);
  let matched = 0;
  let boundsOff = 0;
  let maxBoundsPx = 0;
  const onlyHelper: string[] = [];
  for (const n of ours) {
    const same = [...free].filter((m) => labelOf(m) === labelOf(n)).sort((a, b) => edgeDiff(a, n) - edgeDiff(b, n));
    const m = same[0];
    if (!m) {
      onlyHelper.push(masked(labelOf(n)));
      continue;
    }
    free.delete(m);
    matched++;
    const d = edgeDiff(m, n);
    maxBoundsPx = Math.max(maxBoundsPx, d);
    if (d > BOUNDS_PX) boundsOff++;
  }
  const larger = Math.max(ours.length, theirs.length);
  return {
    foreground: pkg,
    helperLabels: ours.length,
    dumpLabels: theirs.length,
    matched,
    boundsOff,
    maxBoundsPx,
    agreement: larger === 0 ? 1 : matched / larger,
    onlyHelper: onlyHelper.slice(0, LISTED),
    onlyDump: [...free].map((m) => masked(labelOf(m))).slice(0, LISTED),
  };
}
