import { SnapshotSchema, type WireSnapshot } from '../core/snapshot.js';
import type { WindowInfo } from '../core/types.js';
import { applyTransform, resolveSpace } from './space.js';
import type { ParseResult, UiNode, UiTree } from './tree.js';
import { LAYER } from './windows.js';

/**
 * The helper's JSON snapshot (protocol v3) → UiTree. Accepts a parsed object or JSON text; anything
 * that does not match the wire schema is a value naming the first bad field.
 */
export function parseWireSnapshot(input: unknown): ParseResult {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, code: 'INVALID_ARGUMENT', message: `helper snapshot: not JSON (${(e as Error).message})` };
    }
  }
  const parsed = SnapshotSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `helper snapshot: ${where}: ${issue?.message ?? 'invalid'}`,
    };
  }
  return wireToTree(parsed.data);
}

/** For snapshots already validated by the device layer. */
export function wireToTree(s: WireSnapshot): ParseResult {
  const byId = new Map<number, number>();
  const order = s.nodes;
  // The protocol promises pre-order with parents first; check it rather than trust it.
  for (let i = 0; i < order.length; i++) {
    const n = order[i];
    if (byId.has(n.id))
      return { ok: false, code: 'INVALID_ARGUMENT', message: `helper snapshot: duplicate node id ${n.id}` };
    if (n.parent >= 0 && !byId.has(n.parent)) {
      return {
        ok: false,
        code: 'INVALID_ARGUMENT',
        message: `helper snapshot: node ${n.id} names parent ${n.parent}, which does not come before it`,
      };
    }
    byId.set(n.id, i);
  }
  const roots = order.filter((n) => n.parent < 0).map((n) => n.bounds);
  const space = resolveSpace(roots, { w: s.screen.width, h: s.screen.height, rotation: s.screen.rotation }, 'device');
  const transform = space?.transform ?? { scaleX: 1, scaleY: 1 };
  const nodes: UiNode[] = order.map((n, idx) => {
    const parent = n.parent >= 0 ? (byId.get(n.parent) ?? -1) : -1;
    return {
      idx,
      parent,
      children: [],
      depth: 0,
      window: n.window,
      className: n.className,
      package: n.package,
      text: n.text,
      desc: n.desc,
      resourceId: n.resourceId,
      hint: n.hint ?? '',
      boundsPx: applyTransform(n.bounds, transform),
      flags: { ...n.flags },
      range: n.range,
      sourceId: n.id,
      actions: n.actions,
    };
  });
  for (const n of nodes) {
    if (n.parent >= 0) {
      nodes[n.parent].children.push(n.idx);
      n.depth = nodes[n.parent].depth + 1;
    }
  }
  const windows: WindowInfo[] = [...s.windows].sort((a, b) => a.layer - b.layer || LAYER[a.type] - LAYER[b.type]);
  const tree: UiTree = {
    source: 'wire',
    seq: s.seq,
    takenAt: s.takenAt,
    screen: {
      w: space?.w ?? s.screen.width,
      h: space?.h ?? s.screen.height,
      rotation: s.screen.rotation,
      source: 'device',
    },
    foreground: s.foreground,
    windows,
    keyboard: s.keyboard,
    nodes,
    emptyReason: nodes.length === 0 ? 'the helper returned no nodes' : undefined,
    notes: space?.notes ?? [],
  };
  return { ok: true, tree };
}
