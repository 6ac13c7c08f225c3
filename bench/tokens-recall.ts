import { parseBounds, rectArea } from '../src/core/geometry.js';
import { AGENT_COMPACT } from '../src/executor/observe.js';
import { compactView, displayWidth, shownIds, truncate } from '../src/perception/compact.js';
import { OBFUSCATED_RE } from '../src/perception/control-labels.js';
import { cleanText } from '../src/perception/elements.js';
import { isKeyboardKey, keyboardWindows } from '../src/perception/keyboard.js';
import { observeTree } from '../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../src/perception/parse-xml.js';
import { readXml, type XmlElement } from '../src/perception/xml-reader.js';

/**
 * Actionable recall of the compact view, judged from the raw XML (shared/fixtures TOKENS.md):
 * a node is actionable when clickable / long-clickable / checkable / scrollable is "true" or its
 * class contains EditText, and its bounds have area > 0. A labelled one (own text, content-desc,
 * resource id, or text of its descendants) is recalled when the element it became has a line in the
 * compact view that shows at least one of those labels. Nodes perception drops because nobody can
 * see or touch them (off-screen, behind a higher window or a dialog's backdrop) are reported apart.
 */

export interface RecallMiss {
  className: string;
  bounds: string;
  evidence: string[];
  why: string;
}

export interface RecallReport {
  actionable: number;
  labelled: number;
  recalled: number;
  excluded: { reason: string; bounds: string; label: string }[];
  misses: RecallMiss[];
  compact: string;
}

function tail(rid: string): string {
  const i = rid.lastIndexOf('/');
  return i >= 0 ? rid.slice(i + 1) : rid;
}

function evidenceOf(el: XmlElement): string[] {
  const a = el.attrs;
  // An obfuscated id (`0_resource_name_obfuscated`) is no label: it names nothing.
  const rid = OBFUSCATED_RE.test(a['resource-id'] ?? '') ? '' : tail(a['resource-id'] ?? '');
  const own = [cleanText(a.text ?? ''), cleanText(a['content-desc'] ?? ''), rid].filter((s) => s.length > 0);
  const below: string[] = [];
  const walk = (e: XmlElement): void => {
    for (const c of e.children) {
      const t = cleanText(c.attrs.text ?? '') || cleanText(c.attrs['content-desc'] ?? '');
      if (t) below.push(t);
      walk(c);
    }
  };
  walk(el);
  return [...own, ...below];
}

function isActionableRaw(a: Record<string, string>): boolean {
  const b = parseBounds(a.bounds ?? '');
  if (!b || rectArea(b) <= 0) return false;
  return (
    a.clickable === 'true' ||
    a['long-clickable'] === 'true' ||
    a.checkable === 'true' ||
    a.scrollable === 'true' ||
    (a.class ?? '').includes('EditText')
  );
}

/** Shown labels are truncated to 40 display columns; compare a prefix that survives truncation. */
function shows(line: string, evidence: string): boolean {
  const e = evidence.replace(/"/g, "'");
  const prefix = displayWidth(e) > 30 ? truncate(e, 31).slice(0, -1) : e;
  return line.includes(prefix);
}

export function actionableRecall(xml: string): RecallReport {
  const parsed = parseUiautomatorXml(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  const { observation, extract } = observeTree(parsed.tree);
  // What the agent sends the model (ids as shortest prefixes, no navigation bar).
  const compact = compactView(observation, AGENT_COMPACT);
  const keyboards = keyboardWindows(observation);
  const bars = new Set(observation.windows.filter((w) => w.type === 'navigation_bar').map((w) => w.id));
  const shown = shownIds(
    observation,
    observation.elements.map((e) => e.id),
  );
  const byShown = new Map([...shown].map(([full, s]) => [s, full]));
  const lineOf = new Map<string, string>();
  for (const line of compact.split('\n')) {
    const m = /^\[([0-9a-f]{3,8}(?:~\d+)?)\]/.exec(line);
    const full = m?.[1] ? byShown.get(m[1]) : undefined;
    if (full) lineOf.set(full, line);
  }
  const raw = readXml(xml);
  if (!raw.ok) throw new Error(raw.message);
  // Pre-order over <node> elements matches the parser's node indices.
  const order: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    if (e.name === 'node') order.push(e);
    for (const c of e.children) walk(c);
  };
  walk(raw.root);
  const absorbed = new Set([...extract.mergedNodes].map((n) => extract.nodeToId.get(n)));
  const report: RecallReport = { actionable: 0, labelled: 0, recalled: 0, excluded: [], misses: [], compact };
  order.forEach((el, idx) => {
    if (!isActionableRaw(el.attrs)) return;
    report.actionable++;
    const evidence = evidenceOf(el);
    if (evidence.length === 0) return;
    report.labelled++;
    const dropped = extract.dropReasons[idx];
    if (dropped && dropped !== 'zero_area') {
      report.excluded.push({ reason: dropped, bounds: el.attrs.bounds ?? '', label: evidence[0] });
      return;
    }
    const id = extract.nodeToId.get(idx);
    // The on-screen keyboard is one line of the compact view on purpose (text goes in with `type`).
    const el0 = id ? observation.elements.find((e) => e.id === id) : undefined;
    if (el0 && isKeyboardKey(el0, keyboards) && !lineOf.has(id ?? '')) {
      report.excluded.push({ reason: 'keyboard_key', bounds: el.attrs.bounds ?? '', label: evidence[0] });
      return;
    }
    // The navigation bar's keys are left out on purpose: back and home are tools.
    if (el0 && bars.has(el0.window)) {
      report.excluded.push({ reason: 'navigation_bar', bounds: el.attrs.bounds ?? '', label: evidence[0] });
      return;
    }
    const line = id ? lineOf.get(id) : undefined;
    // A node merged into the control that wraps it (same bounds, or a row's switch) is that control:
    // the survivor's own labels count for it too.
    const survivor = id ? observation.elements.find((e) => e.id === id) : undefined;
    // …and a control that absorbed its wrapper (same bounds) carries the wrapper's name.
    const merged = survivor !== undefined && (extract.mergedNodes.has(idx) || absorbed.has(survivor.id));
    const survivorEvidence =
      merged && survivor ? [survivor.label ?? '', survivor.resourceId.split('/').pop() ?? ''] : [];
    if (line && [...evidence, ...survivorEvidence].some((e) => e && shows(line, e))) {
      report.recalled++;
      return;
    }
    report.misses.push({
      className: el.attrs.class ?? '',
      bounds: el.attrs.bounds ?? '',
      evidence: evidence.slice(0, 4),
      why: !id ? 'no element' : !line ? `element ${id} has no actionable line` : `line lacks its labels: ${line}`,
    });
  });
  return report;
}
