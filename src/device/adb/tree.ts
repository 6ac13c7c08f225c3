import type { UiTree } from '../../perception/tree.js';
import type { WireNode, WireSnapshot } from '../protocol/index.js';

/**
 * A parsed uiautomator tree in the helper's snapshot shape, so the executor and perception see one
 * format whichever backend read the screen. uiautomator exposes no native actions, selection or
 * node ids a later call could address: `actions` is empty and `seq` is the backend's own counter.
 */
export function treeToWire(
  tree: UiTree,
  extra: {
    seq: number;
    takenAt: number;
    density: number;
    foreground?: { package: string; activity: string };
    keyboardShown?: boolean;
  },
): WireSnapshot {
  const nodes: WireNode[] = tree.nodes.map((n) => ({
    id: n.idx,
    parent: n.parent,
    window: n.window,
    className: n.className,
    package: n.package,
    text: n.text,
    desc: n.desc,
    resourceId: n.resourceId,
    hint: n.hint || undefined,
    bounds: n.boundsPx,
    flags: { ...n.flags },
    range: n.range,
    actions: [],
  }));
  const ime = tree.windows.find((w) => w.type === 'input_method');
  const shown = extra.keyboardShown ?? tree.keyboard?.shown ?? !!ime;
  return {
    seq: extra.seq,
    takenAt: extra.takenAt,
    screen: { width: tree.screen.w, height: tree.screen.h, rotation: tree.screen.rotation, density: extra.density },
    foreground: extra.foreground ?? tree.foreground ?? { package: nodes[0]?.package ?? '', activity: '' },
    keyboard: { shown, bounds: tree.keyboard?.bounds ?? ime?.bounds },
    windows: tree.windows,
    nodes,
  };
}
