import { LINE_ID_RE } from '../src/core/element-ref.js';
import { parseBounds, rectArea } from '../src/core/geometry.js';
import { readGridLine } from '../src/core/grid-line.js';
import type { WireSnapshot } from '../src/core/snapshot.js';
import { AGENT_COMPACT } from '../src/executor/observe.js';
import { compactView, displayWidth, shownIds, truncate } from '../src/perception/compact.js';
import { OBFUSCATED_RE } from '../src/perception/control-labels.js';
import { cleanText, withoutStateWord } from '../src/perception/element-text.js';
import { isKeyboardKey, keyboardWindows } from '../src/perception/keyboard.js';
import { observeTree } from '../src/perception/observe-tree.js';
import { wireToTree } from '../src/perception/parse-wire.js';
import { parseUiautomatorXml } from '../src/perception/parse-xml.js';
import type { UiTree } from '../src/perception/tree.js';
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

/**
 * A node as the source wrote it (uiautomator XML attributes, or a wire/DroidBot snapshot node),
 * read apart from the parser so recall is judged against the source, in perception's node order.
 */
export interface RawNode {
  className: string;
  /** As the source gives them, for reports. */
  bounds: string;
  area: number;
  text: string;
  desc: string;
  resourceId: string;
  clickable: boolean;
  longClickable: boolean;
  checkable: boolean;
  scrollable: boolean;
  editable: boolean;
  /** Indices of its children in the same list. */
  children: number[];
}

function evidenceOf(nodes: readonly RawNode[], n: RawNode): string[] {
  // An obfuscated id (`0_resource_name_obfuscated`) is no label: it names nothing.
  const rid = OBFUSCATED_RE.test(n.resourceId) ? '' : tail(n.resourceId);
  // A switch's appended "ON"/"OFF" is its state, which the line shows as on/off.
  const text = n.checkable ? withoutStateWord(cleanText(n.text)) : cleanText(n.text);
  const own = [text, cleanText(n.desc), rid].filter((s) => s.length > 0);
  const below: string[] = [];
  const walk = (e: RawNode): void => {
    for (const c of e.children) {
      const k = nodes[c];
      if (!k) continue;
      const t = cleanText(k.text) || cleanText(k.desc);
      if (t) below.push(t);
      walk(k);
    }
  };
  walk(n);
  return [...own, ...below];
}

function isActionableRaw(n: RawNode): boolean {
  if (n.area <= 0) return false;
  return (
    n.clickable || n.longClickable || n.checkable || n.scrollable || n.editable || n.className.includes('EditText')
  );
}

/** uiautomator XML → raw nodes, pre-order over <node> elements (the parser's node indices). */
function xmlNodes(xml: string): RawNode[] {
  const raw = readXml(xml);
  if (!raw.ok) throw new Error(raw.message);
  const out: RawNode[] = [];
  const walk = (e: XmlElement): number => {
    const a = e.attrs;
    const b = parseBounds(a.bounds ?? '');
    const idx = out.length;
    const node: RawNode = {
      className: a.class ?? '',
      bounds: a.bounds ?? '',
      area: b ? rectArea(b) : 0,
      text: a.text ?? '',
      desc: a['content-desc'] ?? '',
      resourceId: a['resource-id'] ?? '',
      clickable: a.clickable === 'true',
      longClickable: a['long-clickable'] === 'true',
      checkable: a.checkable === 'true',
      scrollable: a.scrollable === 'true',
      editable: false,
      children: [],
    };
    out.push(node);
    for (const c of e.children) if (c.name === 'node') node.children.push(walk(c));
    return idx;
  };
  const top = (e: XmlElement): void => {
    if (e.name === 'node') walk(e);
    else for (const c of e.children) top(c);
  };
  top(raw.root);
  return out;
}

/** A wire snapshot (the helper's, or a DroidBot state read as one) → raw nodes, in its node order. */
function wireNodes(s: WireSnapshot): RawNode[] {
  const out: RawNode[] = s.nodes.map((n) => ({
    className: n.className,
    bounds: `[${n.bounds.left},${n.bounds.top}][${n.bounds.right},${n.bounds.bottom}]`,
    area: n.flags.visible ? rectArea(n.bounds) : 0,
    text: n.text,
    desc: n.desc,
    resourceId: n.resourceId,
    clickable: n.flags.clickable,
    longClickable: n.flags.longClickable,
    checkable: n.flags.checkable,
    scrollable: n.flags.scrollable,
    editable: n.flags.editable,
    children: [],
  }));
  for (const n of s.nodes) if (n.parent >= 0) out[n.parent]?.children.push(n.id);
  return out;
}

/** Shown labels are truncated to 40 display columns; compare a prefix that survives truncation. */
function shows(line: string, evidence: string): boolean {
  const e = evidence.replace(/"/g, "'");
  const prefix = displayWidth(e) > 30 ? truncate(e, 31).slice(0, -1) : e;
  return line.includes(prefix);
}

/** Recall of a uiautomator dump's listing. */
export function actionableRecall(xml: string): RecallReport {
  const parsed = parseUiautomatorXml(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return recallOf(parsed.tree, xmlNodes(xml));
}

/** Recall of a wire snapshot's listing (a DroidBot state read as a helper snapshot). */
export function snapshotRecall(snapshot: WireSnapshot): RecallReport {
  const parsed = wireToTree(snapshot);
  if (!parsed.ok) throw new Error(parsed.message);
  return recallOf(parsed.tree, wireNodes(snapshot));
}

function recallOf(tree: UiTree, order: readonly RawNode[]): RecallReport {
  const { observation, extract } = observeTree(tree);
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
    // A grid line lists its cells' ids; each cell is recalled by it (its look names the cells).
    const ids = readGridLine(line)?.ids.flat() ?? [LINE_ID_RE.exec(line)?.[1]];
    for (const shownId of ids) {
      const full = shownId ? byShown.get(shownId) : undefined;
      if (full) lineOf.set(full, line);
    }
  }
  const absorbed = new Set([...extract.mergedNodes].map((n) => extract.nodeToId.get(n)));
  const report: RecallReport = { actionable: 0, labelled: 0, recalled: 0, excluded: [], misses: [], compact };
  order.forEach((el, idx) => {
    if (!isActionableRaw(el)) return;
    report.actionable++;
    const evidence = evidenceOf(order, el);
    if (evidence.length === 0) return;
    report.labelled++;
    const dropped = extract.dropReasons[idx];
    if (dropped && dropped !== 'zero_area') {
      report.excluded.push({ reason: dropped, bounds: el.bounds, label: evidence[0] });
      return;
    }
    const id = extract.nodeToId.get(idx);
    // The on-screen keyboard is one line of the compact view on purpose (text goes in with `type`).
    const el0 = id ? observation.elements.find((e) => e.id === id) : undefined;
    if (el0 && isKeyboardKey(el0, keyboards) && !lineOf.has(id ?? '')) {
      report.excluded.push({ reason: 'keyboard_key', bounds: el.bounds, label: evidence[0] });
      return;
    }
    // The navigation bar's keys are left out on purpose: back and home are tools.
    if (el0 && bars.has(el0.window)) {
      report.excluded.push({ reason: 'navigation_bar', bounds: el.bounds, label: evidence[0] });
      return;
    }
    const line = id ? lineOf.get(id) : undefined;
    // A node merged into the control that wraps it (same bounds, or a row's switch) is that control:
    // the survivor's own labels count for it too.
    const survivor = id ? observation.elements.find((e) => e.id === id) : undefined;
    // …and a control that absorbed its wrapper (same bounds) carries the wrapper's name.
    const merged = survivor !== undefined && (extract.mergedNodes.has(idx) || absorbed.has(survivor.id));
    // A node with no text or description of its own is named by perception (the text beside a check
    // box, a list's first item, its id in words): that name on its line recalls it.
    const nameless = !cleanText(el.text) && !cleanText(el.desc);
    const survivorEvidence =
      (merged || nameless) && survivor ? [survivor.label ?? '', survivor.resourceId.split('/').pop() ?? ''] : [];
    if (line && [...evidence, ...survivorEvidence].some((e) => e && shows(line, e))) {
      report.recalled++;
      return;
    }
    report.misses.push({
      className: el.className,
      bounds: el.bounds,
      evidence: evidence.slice(0, 4),
      why: !id ? 'no element' : !line ? `element ${id} has no actionable line` : `line lacks its labels: ${line}`,
    });
  });
  return report;
}
