import type { Selector } from '../../../core/types.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
import type { NodeQuery } from '../node-query.js';
import { type ExecContext, readTree, type TreeRead } from './context.js';
import { findAgain, findAll } from './selector.js';

/**
 * The reads a native action's target needs, costed as the on-device helper pays them
 * (helper/PROTOCOL.md §7 "Resolving a target"): a selector with a resource id is resolved on
 * Android's view-id query, else one with a text or description on its text query — the windows and
 * the nodes the query returns, nothing walked. A selector with neither, or a query that returned
 * no node matching the whole selector, walks the tree before it may answer NOT_FOUND. The read-back
 * of the node after the act is the same query by its own view id.
 */

/** The query Android can answer for a selector: by view id, else by its (non-empty) text or description. */
export function selectorQuery(s: Selector): NodeQuery | undefined {
  if (s.resource_id) return { viewId: s.resource_id };
  const text = s.text || s.content_desc;
  return text ? { text } : undefined;
}

async function query(ctx: ExecContext, q: NodeQuery): Promise<WireSnapshot | undefined> {
  try {
    return await ctx.phone.queryNodes(q);
  } catch {
    return undefined;
  }
}

/** The read a selector is resolved on: the query when it found a match, else the whole tree. */
export async function readForSelector(ctx: ExecContext, s: Selector): Promise<TreeRead> {
  const q = selectorQuery(s);
  const snap = q ? await query(ctx, q) : undefined;
  if (snap && (findAll(snap, s)?.length ?? 0) > 0) return { ok: true, snap };
  return readTree(ctx);
}

/** The acted-on node in a read after the act: by its view id when it has one, else on a fresh tree. */
export async function readAgain(
  ctx: ExecContext,
  node: WireNode,
): Promise<{ snap: WireSnapshot; node: WireNode } | undefined> {
  const snap = node.resourceId ? await query(ctx, { viewId: node.resourceId }) : undefined;
  const hit = snap && findAgain(snap, node);
  if (snap && hit) return { snap, node: hit };
  const post = await readTree(ctx);
  const again = post.ok ? findAgain(post.snap, node) : undefined;
  return post.ok && again ? { snap: post.snap, node: again } : undefined;
}
