import { formatBounds } from '../../../core/geometry.js';
import type { Frame } from '../engine/frame.js';
import type { LaidNode } from '../engine/node.js';

/**
 * A frame as `uiautomator dump` writes it: one line, every window's root under <hierarchy> (toasts
 * excepted), nodes not visible to the user left out, attributes in uiautomator's order, XML-escaped.
 */

export const EMPTY_DUMP_ERROR = 'ERROR: null root node returned by UiTestAutomationBridge.';

export function escapeXml(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (c === 10) out += '&#10;';
    else if (c === 13) out += '&#13;';
    else if (c === 9) out += '&#9;';
    // XML 1.0 cannot carry other control characters; uiautomator strips them too.
    else if (c < 32) out += '?';
    else out += ch;
  }
  return out;
}

/** A node's attributes as uiautomator writes them, in its order (the replay phone's dumps use it too). */
export interface DumpedNode {
  index: number;
  text: string;
  resourceId: string;
  className: string;
  pkg: string;
  desc: string;
  flags: LaidNode['flags'];
  bounds: LaidNode['bounds'];
}

export function uiautomatorAttrs(n: DumpedNode): string {
  const f = n.flags;
  return (
    `index="${n.index}" text="${escapeXml(n.text)}" resource-id="${escapeXml(n.resourceId)}" ` +
    `class="${escapeXml(n.className)}" package="${escapeXml(n.pkg)}" content-desc="${escapeXml(n.desc)}" ` +
    `checkable="${f.checkable}" checked="${f.checked}" clickable="${f.clickable}" enabled="${f.enabled}" ` +
    `focusable="${f.focusable}" focused="${f.focused}" scrollable="${f.scrollable}" ` +
    `long-clickable="${f.longClickable}" password="${f.password}" selected="${f.selected}" ` +
    `bounds="${formatBounds(n.bounds)}"`
  );
}

function dumpNode(n: LaidNode, out: string[]): void {
  const kids = n.children.filter((c) => c.flags.visible);
  if (kids.length === 0) {
    out.push(`<node ${uiautomatorAttrs(n)} />`);
    return;
  }
  out.push(`<node ${uiautomatorAttrs(n)}>`);
  for (const c of kids) dumpNode(c, out);
  out.push('</node>');
}

export function frameToXml(frame: Frame): string {
  const out: string[] = [
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${frame.screen.rotation}">`,
  ];
  // Toasts are drawn by SystemUI outside the accessibility window list: uiautomator never dumps them.
  for (const w of frame.windows) if (w.info.type !== 'toast') dumpNode(w.root, out);
  out.push('</hierarchy>');
  return out.join('');
}
