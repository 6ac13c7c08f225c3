import type { WireNode, WireSnapshot } from '../../src/device/protocol/wire.js';
import type { App, AppContext, AppFactory, AppScreen, Route } from '../../src/testbed/sim/app.js';
import type { VirtualPhone } from '../../src/testbed/sim/phone.js';

/** Small helpers for the engine tests: a one-screen test app and node lookups on real tree reads. */

export function testApp(
  pkg: string,
  render: (route: Route, ctx: AppContext) => AppScreen,
  extra: Partial<App> = {},
): AppFactory {
  return () => ({
    package: pkg,
    label: extra.label ?? pkg.split('.').pop() ?? pkg,
    iconColor: '#123456',
    glyph: 'T',
    activities: extra.activities ?? ['.Main'],
    render,
    ...extra,
  });
}

export function byId(snap: WireSnapshot, id: string): WireNode {
  const n = snap.nodes.find((x) => x.resourceId.endsWith(`:id/${id}`));
  if (!n)
    throw new Error(
      `no node with id ${id}; ids: ${snap.nodes
        .map((x) => x.resourceId)
        .filter(Boolean)
        .join(', ')}`,
    );
  return n;
}

export function byText(snap: WireSnapshot, text: string): WireNode {
  const n = snap.nodes.find((x) => x.text === text && x.flags.visible);
  if (!n)
    throw new Error(
      `no visible node with text ${text}; texts: ${snap.nodes
        .map((x) => x.text)
        .filter(Boolean)
        .join(' | ')}`,
    );
  return n;
}

export function centre(n: WireNode): { x: number; y: number } {
  return { x: Math.round((n.bounds.left + n.bounds.right) / 2), y: Math.round((n.bounds.top + n.bounds.bottom) / 2) };
}

/** A human tap (50 ms) on a node's centre. */
export async function tapNode(phone: VirtualPhone, n: WireNode): Promise<void> {
  const c = centre(n);
  const r = await phone.tap(c.x, c.y, 50);
  if (!r.ok) throw new Error(`tap failed: ${r.code} ${r.message}`);
}

export interface XmlNode {
  depth: number;
  attrs: Record<string, string>;
}

/** A tiny regex-based reader of uiautomator dumps (enough for tests; not a general XML parser). */
export function parseDump(xml: string): XmlNode[] {
  const out: XmlNode[] = [];
  let depth = 0;
  const re = /<node ((?:[a-z-]+="[^"]*" ?)*)(\/?)>|<\/node>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    if (m[0] === '</node>') {
      depth--;
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[1].matchAll(/([a-z-]+)="([^"]*)"/g)) attrs[a[1]] = unescapeXml(a[2]);
    out.push({ depth, attrs });
    if (m[2] !== '/') depth++;
  }
  return out;
}

function unescapeXml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_m, d) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
