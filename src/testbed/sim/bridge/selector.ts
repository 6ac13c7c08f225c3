import { createHash } from 'node:crypto';
import type { Rect } from '../../../core/geometry.js';
import type { ErrorCode, Selector, WindowInfo } from '../../../core/types.js';
import type { ControlInfo, NodeState } from '../../../device/protocol/receipt.js';
import { type TargetMatch, targetHits } from '../../../device/protocol/scroll-target.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';

/**
 * Selector resolution of the helper protocol (PROTOCOL.md §4): every given field matches exactly
 * (AND), across the windows an agent may target, and must name exactly one node. Occlusion is
 * computed as Android ≥ 11 does: the node clipped to its window, minus every higher touchable window.
 */

export type Resolved =
  | { ok: true; node: WireNode; window: WindowInfo }
  | { ok: false; code: ErrorCode; message: string };

/** Windows that are never a target: their keys and buttons belong to the system, not the app. */
const NEVER_TARGET = new Set(['input_method', 'status_bar', 'navigation_bar', 'overlay', 'toast']);

export function targetWindows(snap: WireSnapshot): WindowInfo[] | undefined {
  if (snap.windows.length === 0) return undefined;
  return snap.windows.filter(
    (w) => !NEVER_TARGET.has(w.type) && (w.type !== 'application' || w.package === snap.foreground.package),
  );
}

function shortClass(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
}

export function matches(node: WireNode, s: Selector): boolean {
  if (s.resource_id !== undefined && node.resourceId !== s.resource_id) return false;
  if (s.text !== undefined && node.text !== s.text) return false;
  if (s.content_desc !== undefined && node.desc !== s.content_desc) return false;
  if (s.class_name !== undefined) {
    // A dotless class name is the short form (Button ≙ android.widget.Button).
    const want = s.class_name;
    if (want.includes('.') ? node.className !== want : shortClass(node.className) !== want) return false;
  }
  if (s.package_name !== undefined && node.package !== s.package_name) return false;
  if (s.bounds !== undefined && !sameRect(node.bounds, s.bounds)) return false;
  return true;
}

export function describe(s: Selector): string {
  return JSON.stringify(s);
}

/**
 * All visible nodes in target windows matching the selector (scroll_to's target by title when it
 * asks: scroll-target.ts); undefined when windows are unknown.
 */
export function findAll(
  snap: WireSnapshot,
  s: Selector,
  match: TargetMatch = 'exact',
): { node: WireNode; window: WindowInfo }[] | undefined {
  const wins = targetWindows(snap);
  if (!wins) return undefined;
  const byId = new Map(wins.map((w) => [w.id, w]));
  const candidates: { node: WireNode; window: WindowInfo }[] = [];
  for (const node of snap.nodes) {
    const window = byId.get(node.window);
    if (window && node.flags.visible) candidates.push({ node, window });
  }
  return targetHits(candidates, s, {
    match,
    exact: (c, sel) => matches(c.node, sel),
    fields: (c) => ({ text: c.node.text, desc: c.node.desc }),
  }).hits;
}

export function resolve(snap: WireSnapshot, s: Selector): Resolved {
  if (snap.nodes.length === 0)
    return { ok: false, code: 'READ_FAILED', message: 'the tree read returned no nodes; re-observe and retry' };
  const all = findAll(snap, s);
  if (!all)
    return { ok: false, code: 'UNAVAILABLE', message: 'window information is incomplete; re-observe and retry' };
  if (all.length === 0)
    return { ok: false, code: 'NOT_FOUND', message: `no visible node matches ${describe(s)}; re-observe` };
  if (all.length > 1)
    return {
      ok: false,
      code: 'AMBIGUOUS',
      message: `${all.length} nodes match ${describe(s)}; add resource_id, text, class_name or bounds to make it unique`,
    };
  const [one] = all;
  return one ? { ok: true, ...one } : { ok: false, code: 'INTERNAL', message: 'resolution failed' };
}

function subtract(r: Rect, cut: Rect): Rect[] {
  const top = Math.max(r.top, cut.top);
  const bottom = Math.min(r.bottom, cut.bottom);
  const left = Math.max(r.left, cut.left);
  const right = Math.min(r.right, cut.right);
  if (left >= right || top >= bottom) return [r];
  const out: Rect[] = [];
  if (r.top < top) out.push({ left: r.left, top: r.top, right: r.right, bottom: top });
  if (bottom < r.bottom) out.push({ left: r.left, top: bottom, right: r.right, bottom: r.bottom });
  if (r.left < left) out.push({ left: r.left, top, right: left, bottom });
  if (right < r.right) out.push({ left: right, top, right: r.right, bottom });
  return out;
}

function clip(r: Rect, to: Rect): Rect | undefined {
  const c = {
    left: Math.max(r.left, to.left),
    top: Math.max(r.top, to.top),
    right: Math.min(r.right, to.right),
    bottom: Math.min(r.bottom, to.bottom),
  };
  return c.left < c.right && c.top < c.bottom ? c : undefined;
}

/** The parts of a node still visible and touchable: clipped to its window, minus higher touchable windows. */
export function visibleParts(snap: WireSnapshot, node: WireNode, window: WindowInfo): Rect[] {
  const screen = { left: 0, top: 0, right: snap.screen.width, bottom: snap.screen.height };
  const base = clip(node.bounds, window.bounds);
  const inScreen = base && clip(base, screen);
  if (!inScreen) return [];
  let parts = [inScreen];
  for (const w of snap.windows) {
    if (w.id === window.id || w.layer <= window.layer || !w.touchable) continue;
    const cut = w.type === 'input_method' && snap.keyboard.bounds ? snap.keyboard.bounds : w.bounds;
    parts = parts.flatMap((p) => subtract(p, cut));
    if (parts.length === 0) break;
  }
  return parts;
}

export function visibleArea(snap: WireSnapshot, node: WireNode, window: WindowInfo): number {
  return visibleParts(snap, node, window).reduce((a, r) => a + (r.right - r.left) * (r.bottom - r.top), 0);
}

/** Identity token: class, resource id, description, window type, text and bounds. */
export function nodeToken(node: WireNode): string {
  const b = node.bounds;
  const key = [
    node.className,
    node.resourceId,
    node.package,
    node.desc,
    node.flags.password ? '' : node.text,
    `${b.left},${b.top},${b.right},${b.bottom}`,
  ].join('\u0001');
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function publicText(node: WireNode): string {
  return node.flags.password ? '' : node.text;
}

export function nodeState(snap: WireSnapshot, node: WireNode): NodeState {
  return {
    node_id: node.id,
    seq: snap.seq,
    token: nodeToken(node),
    class_name: node.className,
    text: publicText(node),
    bounds: node.bounds,
    enabled: node.flags.enabled,
    checked: node.flags.checked,
    selected: node.flags.selected,
    focused: node.flags.focused,
    ...(node.range ? { range: node.range } : {}),
    ...(node.selection ? { selection: node.selection } : {}),
  };
}

export function controlInfo(snap: WireSnapshot, node: WireNode, window: WindowInfo): ControlInfo {
  const f = node.flags;
  return {
    node_id: node.id,
    seq: snap.seq,
    window: window.id,
    class_name: node.className,
    package_name: node.package,
    resource_id: node.resourceId,
    text: publicText(node),
    content_desc: node.desc,
    ...(node.hint !== undefined ? { hint: node.hint } : {}),
    bounds: node.bounds,
    visible_area: visibleArea(snap, node, window),
    flags: {
      clickable: f.clickable,
      long_clickable: f.longClickable,
      editable: f.editable,
      scrollable: f.scrollable,
      checkable: f.checkable,
      checked: f.checked,
      enabled: f.enabled,
      focused: f.focused,
      selected: f.selected,
      password: f.password,
    },
    ...(node.range ? { range: node.range } : {}),
    ...(node.selection ? { selection: node.selection } : {}),
    actions: node.actions,
    token: nodeToken(node),
  };
}

/**
 * The same control in a later tree: same id when class and resource id agree, else the node with the
 * same class, resource id and description nearest to the old bounds.
 */
export function findAgain(snap: WireSnapshot, old: WireNode): WireNode | undefined {
  const same = (n: WireNode) => n.className === old.className && n.resourceId === old.resourceId;
  // A query's read holds only some nodes (ids as in the whole tree): look the id up, never index.
  const byId = snap.nodes[old.id]?.id === old.id ? snap.nodes[old.id] : snap.nodes.find((n) => n.id === old.id);
  if (byId && same(byId) && byId.desc === old.desc) return byId;
  let best: WireNode | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of snap.nodes) {
    if (!same(n) || n.desc !== old.desc) continue;
    const d = Math.abs(n.bounds.left - old.bounds.left) + Math.abs(n.bounds.top - old.bounds.top);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}
