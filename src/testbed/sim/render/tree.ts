import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
import type { Frame } from '../engine/frame.js';
import type { LaidNode } from '../engine/node.js';

/**
 * A frame as the helper's JSON tree: pre-order nodes over all windows (bottom to top), each with its
 * parent, window id, Android class, flags and supported actions. Node ids index `nodes` and are only
 * valid for this snapshot's `seq`.
 */
export function frameToSnapshot(frame: Frame): WireSnapshot {
  const nodes: WireNode[] = [];
  for (const w of frame.windows) {
    const add = (n: LaidNode, parent: number): void => {
      const id = nodes.length;
      const wire: WireNode = {
        id,
        parent,
        window: w.info.id,
        className: n.className,
        package: n.pkg,
        text: n.text,
        desc: n.desc,
        resourceId: n.resourceId,
        bounds: { ...n.bounds },
        flags: { ...n.flags },
        actions: n.actions,
      };
      if (n.hint !== undefined) wire.hint = n.hint;
      if (n.range) wire.range = { ...n.range };
      if (n.selection) wire.selection = { ...n.selection };
      nodes.push(wire);
      for (const c of n.children) add(c, id);
    };
    add(w.root, -1);
  }
  return {
    seq: frame.revision,
    takenAt: frame.takenAt,
    screen: { ...frame.screen },
    foreground: { package: frame.foreground.package, activity: frame.foreground.activity },
    keyboard: frame.keyboard.bounds
      ? { shown: frame.keyboard.shown, bounds: { ...frame.keyboard.bounds } }
      : { shown: frame.keyboard.shown },
    windows: frame.windows.map((w) => ({ ...w.info, bounds: { ...w.info.bounds } })),
    nodes,
  };
}

/** Laid nodes in the same pre-order as `frameToSnapshot`, so a wire node id maps back to its node. */
export function flattenFrame(frame: Frame): { node: LaidNode; window: number }[] {
  const out: { node: LaidNode; window: number }[] = [];
  for (const w of frame.windows) {
    const add = (n: LaidNode): void => {
      out.push({ node: n, window: w.info.id });
      for (const c of n.children) add(c);
    };
    add(w.root);
  }
  return out;
}
