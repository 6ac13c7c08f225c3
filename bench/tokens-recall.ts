import { formatBounds, parseBounds, type Rect, rectArea } from '../src/core/geometry.js';
import type { WireSnapshot } from '../src/core/snapshot.js';
import { compactView, displayWidth, truncate } from '../src/perception/compact.js';
import { cleanText } from '../src/perception/elements.js';
import { isKeyboardKey, keyboardWindows } from '../src/perception/keyboard.js';
import { observeTree } from '../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../src/perception/parse-xml.js';
import type { UiTree } from '../src/perception/tree.js';
import { readXml, type XmlElement } from '../src/perception/xml-reader.js';

/**
 * Actionable recall of the compact view, judged from the raw XML (shared/fixtures TOKENS.md):
 * a node is actionable when clickable / long-clickable / checkable / scrollable is "true" or its
 * class contains EditText, and its bounds have area > 0. A labelled one (own text, content-desc,
 * resource id, or text of its descendants) is recalled when the element it became has a line in the
 * compact view that shows at least one of those labels (from uiautomator XML, or a DroidBot state read as
 * a snapshot). Nodes perception drops because nobody can
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

/** A node as its source wrote it (uiautomator XML or a DroidBot state), in the tree's pre-order. */
export interface RawNode {
  className: string;
  /** As written (`[x1,y1][x2,y2]`), for messages. */
  shown: string;
  bounds: Rect | undefined;
  clickable: boolean;
  longClickable: boolean;
  checkable: boolean;
  scrollable: boolean;
  text: string;
  desc: string;
  resourceId: string;
  children: RawNode[];
}

function evidenceOf(n: RawNode): string[] {
  const own = [cleanText(n.text), cleanText(n.desc), tail(n.resourceId)].filter((s) => s.length > 0);
  const below: string[] = [];
  const walk = (e: RawNode): void => {
    for (const c of e.children) {
      const t = cleanText(c.text) || cleanText(c.desc);
      if (t) below.push(t);
      walk(c);
    }
  };
  walk(n);
  return [...own, ...below];
}

function isActionableRaw(n: RawNode): boolean {
  if (!n.bounds || rectArea(n.bounds) <= 0) return false;
  return n.clickable || n.longClickable || n.checkable || n.scrollable || n.className.includes('EditText');
}

/** Shown labels are truncated to 40 display columns; compare a prefix that survives truncation. */
function shows(line: string, evidence: string): boolean {
  const e = evidence.replace(/"/g, "'");
  const prefix = displayWidth(e) > 30 ? truncate(e, 31).slice(0, -1) : e;
  return line.includes(prefix);
}

/** uiautomator XML's <node> elements in pre-order (the parser's node indices). */
export function rawFromXml(xml: string): RawNode[] {
  const raw = readXml(xml);
  if (!raw.ok) throw new Error(raw.message);
  const order: RawNode[] = [];
  const convert = (e: XmlElement): RawNode => {
    const a = e.attrs;
    const node: RawNode = {
      className: a.class ?? '',
      shown: a.bounds ?? '',
      bounds: parseBounds(a.bounds ?? ''),
      clickable: a.clickable === 'true',
      longClickable: a['long-clickable'] === 'true',
      checkable: a.checkable === 'true',
      scrollable: a.scrollable === 'true',
      text: a.text ?? '',
      desc: a['content-desc'] ?? '',
      resourceId: a['resource-id'] ?? '',
      children: [],
    };
    order.push(node);
    node.children = e.children.filter((c) => c.name === 'node').map(convert);
    return node;
  };
  const walk = (e: XmlElement): void => {
    if (e.name === 'node') convert(e);
    else for (const c of e.children) walk(c);
  };
  walk(raw.root);
  return order;
}

/** A snapshot's nodes (a DroidBot state read as a helper's), in its order. */
export function rawFromSnapshot(snap: WireSnapshot): RawNode[] {
  const nodes: RawNode[] = snap.nodes.map((n) => ({
    className: n.className,
    shown: formatBounds(n.bounds),
    bounds: n.bounds,
    clickable: n.flags.clickable,
    longClickable: n.flags.longClickable,
    checkable: n.flags.checkable,
    scrollable: n.flags.scrollable,
    text: n.text,
    desc: n.desc,
    resourceId: n.resourceId,
    children: [],
  }));
  const at = new Map(snap.nodes.map((n, i) => [n.id, i]));
  snap.nodes.forEach((n, i) => {
    const p = n.parent >= 0 ? at.get(n.parent) : undefined;
    if (p !== undefined) nodes[p]?.children.push(nodes[i] as RawNode);
  });
  return nodes;
}

export function actionableRecall(xml: string): RecallReport {
  const parsed = parseUiautomatorXml(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return recallOn(parsed.tree, rawFromXml(xml));
}

/** Recall of the compact view of `tree`, judged from the nodes its source wrote (`raw[i]` is tree node i). */
export function recallOn(tree: UiTree, raw: readonly RawNode[]): RecallReport {
  const { observation, extract } = observeTree(tree);
  const compact = compactView(observation);
  const keyboards = keyboardWindows(observation);
  const lineOf = new Map<string, string>();
  for (const line of compact.split('\n')) {
    const m = /^\[([0-9a-f]{4,8}(?:~\d+)?)\]/.exec(line);
    if (m) lineOf.set(m[1], line);
  }
  const report: RecallReport = { actionable: 0, labelled: 0, recalled: 0, excluded: [], misses: [], compact };
  raw.forEach((el, idx) => {
    if (!isActionableRaw(el)) return;
    report.actionable++;
    const evidence = evidenceOf(el);
    if (evidence.length === 0) return;
    report.labelled++;
    const dropped = extract.dropReasons[idx];
    if (dropped && dropped !== 'zero_area') {
      report.excluded.push({ reason: dropped, bounds: el.shown, label: evidence[0] });
      return;
    }
    const id = extract.nodeToId.get(idx);
    // The on-screen keyboard is one line of the compact view on purpose (text goes in with `type`).
    const el0 = id ? observation.elements.find((e) => e.id === id) : undefined;
    if (el0 && isKeyboardKey(el0, keyboards) && !lineOf.has(id ?? '')) {
      report.excluded.push({ reason: 'keyboard_key', bounds: el.shown, label: evidence[0] });
      return;
    }
    const line = id ? lineOf.get(id) : undefined;
    // A node merged into the control that wraps it (same bounds, or a row's switch) is that control:
    // the survivor's own labels count for it too.
    const survivor = id ? observation.elements.find((e) => e.id === id) : undefined;
    const merged = survivor !== undefined && extract.mergedNodes.has(idx);
    const survivorEvidence =
      merged && survivor ? [survivor.label ?? '', survivor.resourceId.split('/').pop() ?? ''] : [];
    if (line && [...evidence, ...survivorEvidence].some((e) => e && shows(line, e))) {
      report.recalled++;
      return;
    }
    report.misses.push({
      className: el.className,
      bounds: el.shown,
      evidence: evidence.slice(0, 4),
      why: !id ? 'no element' : !line ? `element ${id} has no actionable line` : `line lacks its labels: ${line}`,
    });
  });
  return report;
}
