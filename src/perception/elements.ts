import { type Rect, rectPxToNorm } from '../core/geometry.js';
import type { Element, Flags } from '../core/types.js';
import { clippedCheckable } from './clipped-check.js';
import { humanizeRid, joinParts, type LabelPart, rowLabel, truncateWord, uniqueJoin } from './control-labels.js';
import { assignIds } from './element-ids.js';
import { cleanText, withoutStateWord } from './element-text.js';
import type { PriorElement } from './fingerprint.js';
import { isActionable, roleOf } from './roles.js';
import { structuralLabel } from './structural-labels.js';
import type { UiNode, UiTree } from './tree.js';
import { computeVisibility, type DropReason } from './visibility.js';

/**
 * Element extraction (DESIGN §3–4): actionable nodes become elements; a clickable container without
 * text takes its descendants' labels; every other visible text attaches to its nearest actionable
 * ancestor (or stands alone); layout-only containers collapse; nested duplicates merge.
 */

export interface ExtractResult {
  /** Actionable elements and text labels, in document (reading) order. */
  elements: Element[];
  /** Non-actionable visible text not already used as an actionable element's label. */
  texts: string[];
  /** Node index → element id (actionable or label) for nodes kept or merged into an element. */
  nodeToId: Map<number, string>;
  /** Nodes merged into another element (a wrapper with the same bounds, a row's switch). */
  mergedNodes: Set<number>;
  dropped: Record<DropReason | 'merged', number>;
  /** Per-node drop reasons (undefined = kept), for diagnostics and recall checks. */
  dropReasons: (DropReason | undefined)[];
}

interface Draft {
  node: UiNode;
  vis: Rect;
  actionable: boolean;
  role: string;
  flags: Flags;
  resourceId: string;
  desc: string;
  /** Draft index of the owning actionable (labels) or of the nearest actionable ancestor. */
  owner: number;
  /** Merged into another draft. */
  removed: boolean;
  mergedNodes: number[];
  parts: LabelPart[];
  /** Labels of actionable descendants whose nearest actionable ancestor is this one. */
  nested: string[];
  label: string;
  /** The label is a fallback (clipped text, the resource id): not part of the fingerprint. */
  fallback?: boolean;
  /** The fallback is the resource id in words. */
  fromId?: boolean;
}

const MASKED_RE = /^[•●*·\u2022\u25CF]+$/;

function nearlySame(a: Rect, b: Rect, tol = 4): boolean {
  return (
    Math.abs(a.left - b.left) <= tol &&
    Math.abs(a.top - b.top) <= tol &&
    Math.abs(a.right - b.right) <= tol &&
    Math.abs(a.bottom - b.bottom) <= tol
  );
}

function toFlags(n: UiNode): Flags {
  const f = n.flags;
  return {
    clickable: f.clickable,
    longClickable: f.longClickable,
    editable: f.editable,
    scrollable: f.scrollable,
    checkable: f.checkable,
    checked: f.checked,
    enabled: f.enabled,
    focused: f.focused,
    selected: f.selected,
    password: f.password,
  };
}

/** A scroll container that is not itself tappable: its content is list content, not its label. */
function pureScroll(d: Draft): boolean {
  return d.flags.scrollable && !d.flags.clickable && !d.flags.checkable && !d.flags.editable;
}

export function extractElements(tree: UiTree, previous?: readonly PriorElement[]): ExtractResult {
  const vis = computeVisibility(tree);
  const { nodes } = tree;
  const drafts: Draft[] = [];
  const draftOfNode = new Int32Array(nodes.length).fill(-1);
  const dropped: ExtractResult['dropped'] = { invisible: 0, zero_area: 0, off_screen: 0, occluded: 0, merged: 0 };
  for (const r of vis.reasons) if (r) dropped[r]++;

  const nearestDraft = (idx: number, actionableOnly: boolean): number => {
    let p = nodes[idx].parent;
    while (p >= 0) {
      const d = draftOfNode[p];
      if (d >= 0 && !drafts[d].removed && (!actionableOnly || drafts[d].actionable)) return d;
      p = nodes[p].parent;
    }
    return -1;
  };

  // Pass 1: actionable nodes, merging nested duplicates as we go (pre-order: ancestors first).
  for (const n of nodes) {
    const r = vis.rects[n.idx];
    if (!r || !isActionable(n)) continue;
    const d: Draft = {
      node: n,
      vis: r,
      actionable: true,
      role: roleOf(n.className),
      flags: toFlags(n),
      resourceId: n.resourceId,
      desc: cleanText(n.desc),
      owner: nearestDraft(n.idx, true),
      removed: false,
      mergedNodes: [],
      parts: [],
      nested: [],
      label: '',
    };
    const di = drafts.length;
    drafts.push(d);
    draftOfNode[n.idx] = di;
    const p = d.owner >= 0 ? drafts[d.owner] : undefined;
    // A wrapper with the same bounds as its only actionable content: keep the inner node.
    if (p && nearlySame(p.vis, d.vis) && (!p.flags.scrollable || d.flags.scrollable)) {
      p.removed = true;
      dropped.merged++;
      for (const k of ['clickable', 'longClickable', 'checkable', 'editable', 'scrollable'] as const) {
        d.flags[k] ||= p.flags[k];
      }
      d.flags.checked ||= p.flags.checked;
      d.flags.selected ||= p.flags.selected;
      d.resourceId ||= p.resourceId;
      d.desc ||= p.desc;
      d.mergedNodes.push(p.node.idx, ...p.mergedNodes);
      d.owner = p.owner;
      if (d.role === 'View' || d.role === 'Text' || d.role === 'Image') d.role = p.role === 'View' ? d.role : p.role;
    }
  }
  // A checkable-only child (the Switch of a settings row) merges into its tappable row.
  const actionableChildren = new Map<number, number[]>();
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    if (d.removed || d.owner < 0) continue;
    const list = actionableChildren.get(d.owner) ?? [];
    list.push(i);
    actionableChildren.set(d.owner, list);
  }
  for (const [pi, kids] of actionableChildren) {
    const p = drafts[pi];
    if (kids.length !== 1 || p.removed) continue;
    const c = drafts[kids[0]];
    if (!c.flags.checkable || c.flags.clickable || p.flags.checkable || !p.flags.clickable) continue;
    c.removed = true;
    dropped.merged++;
    p.flags.checkable = true;
    p.flags.checked = c.flags.checked;
    p.role = c.role === 'View' ? 'Switch' : c.role;
    p.resourceId ||= c.resourceId;
    p.desc ||= c.desc;
    p.mergedNodes.push(c.node.idx, ...c.mergedNodes);
    draftOfNode[c.node.idx] = pi;
  }
  // A row whose check box is cut off at the list's edge still reads as one, with its state.
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    const f = d.flags;
    if (d.removed || !f.clickable || f.checkable || f.editable || f.scrollable || actionableChildren.has(i)) continue;
    const c = clippedCheckable(d.node, nodes, vis.reasons);
    if (!c) continue;
    f.checkable = true;
    f.checked = c.flags.checked;
    const role = roleOf(c.className);
    d.role = role === 'View' ? 'Switch' : role;
  }
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    if (d.removed) continue;
    for (const m of d.mergedNodes) draftOfNode[m] = i;
  }

  // Pass 2: labels — visible non-actionable text attaches to the nearest actionable ancestor.
  const labelDrafts: Draft[] = [];
  for (const n of nodes) {
    const r = vis.rects[n.idx];
    if (isActionable(n)) continue;
    const text = cleanText(n.text) || cleanText(n.desc);
    // Some apps leak the string "null" into their views.
    if (!text || text === 'null') continue;
    const owner = nearestDraft(n.idx, true);
    // A zero-size title inside a visible control (icon-only tabs keep their text this way) still names it.
    if (!r) {
      if (vis.reasons[n.idx] === 'zero_area' && owner >= 0) drafts[owner].parts.push({ text });
      continue;
    }
    const d: Draft = {
      node: n,
      vis: r,
      actionable: false,
      role: roleOf(n.className),
      flags: toFlags(n),
      resourceId: n.resourceId,
      desc: cleanText(n.desc),
      owner,
      removed: false,
      mergedNodes: [],
      parts: [],
      nested: [],
      label: text,
    };
    labelDrafts.push(d);
    if (owner >= 0) drafts[owner].parts.push({ text, rect: r });
  }

  // Labels of actionables.
  const consumed = new Set<Draft>();
  // Subtrees are contiguous in pre-order: [idx, end[idx]).
  const end = new Int32Array(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i--) {
    const kids = nodes[i].children;
    end[i] = kids.length > 0 ? end[kids[kids.length - 1]] : i + 1;
  }
  const firstTextWithin = (n: UiNode, hiddenToo = false): string => {
    for (let i = n.idx + 1; i < end[n.idx]; i++) {
      // Text clipped by the screen's edge (not visible to the user) still names its control.
      if (!vis.rects[i] && !hiddenToo) continue;
      const t = cleanText(nodes[i].text) || cleanText(nodes[i].desc);
      if (t) return t;
    }
    return '';
  };
  // Reverse document order: nested controls are labelled before the containers that hold them.
  for (let i = drafts.length - 1; i >= 0; i--) {
    const d = drafts[i];
    if (d.removed) continue;
    const own = cleanText(d.node.text);
    const hint = cleanText(d.node.hint);
    // An empty field reports its hint as text; a password field's text is otherwise only bullets.
    const inside = uniqueJoin(d.parts.map((p) => p.text));
    if (d.flags.editable) d.label = hint || d.desc || inside || (MASKED_RE.test(own) ? '' : own);
    // A seek bar's text is its value, not its name.
    else if (d.role === 'SeekBar') d.label = d.desc || inside || hint;
    // A switch's text ends in its state ("Show a grid OFF", SwitchCompat's textOn/textOff): the
    // line shows the state once, as on/off.
    else if (!pureScroll(d))
      d.label = (d.flags.checkable ? withoutStateWord(own) : own) || d.desc || joinParts(d.parts);
    // A list without a name is named by its first item, so the reader can tell lists apart.
    else d.label = own || d.desc || (meaningfulRid(d.resourceId) ? '' : truncateWord(firstTextWithin(d.node), 24));
    if (!d.label && !pureScroll(d) && d.nested.length > 0) {
      // A tappable container whose content is other controls: name it by what it holds.
      d.label = truncateWord(uniqueJoin(d.nested), 24);
      if (d.role === 'View') d.role = 'Group';
    }
    const o = d.owner >= 0 ? drafts[d.owner] : undefined;
    if (o && d.label) o.nested.push(d.label);
  }
  // A check box or switch without a name of its own is named by the text beside it on its row
  // (`[ ] Remember me`), which Android lays out as a sibling rather than a child.
  for (const d of drafts) {
    if (d.removed || d.label || !d.flags.checkable) continue;
    const best = rowLabel(d, labelDrafts, consumed, 'right', tree.screen.w * 0.5);
    if (best) {
      d.label = best.label;
      consumed.add(best);
    }
  }
  // A field named only by what it holds — a dump without hints (uiautomator) shows "1" for a
  // quantity — is named by its label on the row before it ("Quantity  [−] 1 [+]"), as the hint
  // names it through the helper. The label stays on the text line, as it does there.
  for (const d of drafts) {
    if (d.removed || !d.flags.editable || cleanText(d.node.hint) || d.desc || d.parts.length) continue;
    const best = rowLabel(d, labelDrafts, consumed, 'left', tree.screen.w * 0.6);
    // A separator (the ":" between an hour and a minute field) names nothing.
    if (best && /\p{L}/u.test(best.label)) d.label = best.label;
  }
  // Still nameless: text inside it that is clipped off screen, its place, else its resource id in words.
  for (const d of drafts) {
    if (d.removed || d.label || pureScroll(d)) continue;
    const inner = firstTextWithin(d.node, true);
    const clipped = truncateWord(d.flags.checkable ? withoutStateWord(inner) : inner, 40);
    // Where it is can name it (a toolbar's navigation button), where its id says nothing.
    const placed = clipped ? '' : structuralLabel(d.node, nodes);
    d.label = clipped || placed || humanizeRid(d.resourceId);
    d.fromId = !clipped && !placed && d.label !== '';
    // Clipped text is not in every channel's dump (uiautomator omits it): ids must not depend on it.
    d.fallback = d.label !== '';
  }
  for (const l of labelDrafts) {
    const o = l.owner >= 0 ? drafts[l.owner] : undefined;
    if (!o || pureScroll(o)) continue;
    const own = cleanText(o.node.text) || o.desc;
    // Used as (or repeated by) the control's label: shown on its line, not again on the text line.
    if (!own || o.flags.editable || o.label.includes(l.label)) consumed.add(l);
  }

  // Order: document order over the union of actionable and label drafts.
  const kept = [...drafts.filter((d) => !d.removed), ...labelDrafts].sort((a, b) => a.node.idx - b.node.idx);
  const screen = { width: tree.screen.w, height: tree.screen.h };
  const bounds = kept.map((d) => rectPxToNorm(d.vis, screen));
  const { ids, places } = assignIds(
    kept.map((d, i) => ({
      actionable: d.actionable,
      editable: d.flags.editable,
      scrollable: d.flags.scrollable,
      text: d.node.text,
      desc: d.desc,
      label: d.label,
      fallback: d.fallback === true,
      fromId: d.fromId === true,
      resourceId: d.resourceId,
      role: d.role,
      window: d.node.window,
      bounds: bounds[i] as Rect,
    })),
    previous ?? [],
  );
  const prepared = kept.map((d, i) => ({ d, bounds: bounds[i] as Rect }));
  const idOfDraft = new Map<Draft, string>();
  for (let i = 0; i < prepared.length; i++) idOfDraft.set(prepared[i].d, ids[i]);

  const nodeToId = new Map<number, string>();
  const mergedNodes = new Set<number>();
  const elements: Element[] = prepared.map((p, i) => {
    const d = p.d;
    const id = ids[i];
    nodeToId.set(d.node.idx, id);
    for (const m of d.mergedNodes) {
      nodeToId.set(m, id);
      mergedNodes.add(m);
    }
    const ownerDraft = d.actionable
      ? d.owner >= 0
        ? drafts[d.owner]
        : undefined
      : d.owner >= 0
        ? drafts[d.owner]
        : undefined;
    const el: Element = {
      id,
      ...(places[i] !== id ? { place: places[i] } : {}),
      role: d.role,
      className: d.node.className,
      text: d.flags.password ? '' : d.node.text,
      desc: d.desc,
      resourceId: d.resourceId,
      bounds: p.bounds,
      boundsPx: d.vis,
      flags: d.flags,
      window: d.node.window,
      actionable: d.actionable,
      label: d.label,
      ...(d.fromId ? { labelFromId: true } : {}),
    };
    if (ownerDraft && !ownerDraft.removed) el.actionableAncestorId = idOfDraft.get(ownerDraft);
    if (d.node.hint) el.hint = d.node.hint;
    if (d.flags.password) {
      // Only the length survives: bullets, or an empty field that reports its hint as text.
      const raw = d.node.text;
      if (raw && (MASKED_RE.test(raw) || (raw !== d.node.hint && raw !== d.label))) el.filled = [...raw].length;
    }
    if (d.node.range) el.range = d.node.range;
    if (d.node.sourceId !== undefined) el.nodeId = d.node.sourceId;
    if (d.node.actions && d.actionable) el.actions = d.node.actions;
    // A guard names a node as the phone has it; the merge may have shown a wrapper's fields instead.
    if (d.node.resourceId !== el.resourceId || d.node.desc !== el.desc)
      el.identity = { resourceId: d.node.resourceId, desc: d.node.desc };
    return el;
  });
  const texts = labelDrafts.filter((l) => !consumed.has(l)).map((l) => l.label);
  return { elements, texts, nodeToId, mergedNodes, dropped, dropReasons: vis.reasons };
}

/** Obfuscated ids (`a`, `i1`) say nothing to a reader. */
export function meaningfulRid(rid: string): boolean {
  const slash = rid.lastIndexOf('/');
  return (slash >= 0 ? rid.length - slash - 1 : rid.length) > 2;
}
