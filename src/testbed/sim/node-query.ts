import type { WireNode } from '../../device/protocol/wire.js';

/**
 * Android's own node queries, as the virtual phone answers them (helper/PROTOCOL.md §7):
 * `findAccessibilityNodeInfosByViewId` (every node with that view id) and
 * `findAccessibilityNodeInfosByText` (text or description containing the string, case-insensitive).
 * One accessibility call per window, nothing walked or serialized: what a guarded touch's check and
 * a selector's resolution cost instead of a tree read when the target has an id or a text.
 */
export type NodeQuery = { viewId: string } | { text: string };

export function queryMatches(q: NodeQuery): (n: WireNode) => boolean {
  if ('viewId' in q) return (n) => n.resourceId === q.viewId;
  const low = q.text.toLowerCase();
  return (n) => n.text.toLowerCase().includes(low) || n.desc.toLowerCase().includes(low);
}
