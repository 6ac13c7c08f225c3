import type { WireNode, WireSnapshot } from '../../device/protocol/wire.js';
import { uiautomatorAttrs } from '../sim/render/xml.js';

/**
 * A snapshot as `uiautomator dump` writes it (the virtual phone's format: one line, a root per
 * window, views nobody can see left out), so adb clients read a replayed state as they read a phone.
 */

function attrs(n: WireNode, index: number): string {
  return uiautomatorAttrs({ ...n, index, pkg: n.package });
}

export function snapshotToXml(snap: WireSnapshot): string {
  const kids = new Map<number, WireNode[]>();
  for (const n of snap.nodes) {
    if (n.parent < 0) continue;
    const list = kids.get(n.parent) ?? [];
    list.push(n);
    kids.set(n.parent, list);
  }
  const out: string[] = [
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${snap.screen.rotation}">`,
  ];
  const dump = (n: WireNode, index: number): void => {
    const shown = (kids.get(n.id) ?? []).filter((c) => c.flags.visible);
    if (shown.length === 0) {
      out.push(`<node ${attrs(n, index)} />`);
      return;
    }
    out.push(`<node ${attrs(n, index)}>`);
    shown.forEach((c, i) => {
      dump(c, i);
    });
    out.push('</node>');
  };
  snap.nodes
    .filter((n) => n.parent < 0)
    .forEach((r) => {
      dump(r, 0);
    });
  out.push('</hierarchy>');
  return out.join('');
}
