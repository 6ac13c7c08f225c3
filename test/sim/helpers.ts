import { expect } from 'vitest';
import type { WireNode, WireSnapshot } from '../../src/device/protocol/wire.js';
import type { InputResult, PhoneSurface } from '../../src/testbed/sim/surface.js';

/**
 * Test helpers that use only the phone's public input surface: find a node in a real tree read,
 * tap its centre, set text through the native node action, scroll a list with a real swipe.
 */
export interface NodeMatch {
  /** Exact text, or a pattern. */
  text?: string | RegExp;
  /** resource-id tail: matches `<package>:id/<id>`. */
  id?: string;
  desc?: string | RegExp;
  className?: string;
}

function matches(n: WireNode, m: NodeMatch): boolean {
  const test = (value: string, want: string | RegExp) => (typeof want === 'string' ? value === want : want.test(value));
  if (m.text !== undefined && !test(n.text, m.text)) return false;
  if (m.desc !== undefined && !test(n.desc, m.desc)) return false;
  if (m.id !== undefined && !n.resourceId.endsWith(`:id/${m.id}`)) return false;
  if (m.className !== undefined && n.className !== m.className) return false;
  return true;
}

export function findIn(snap: WireSnapshot, m: NodeMatch): WireNode | undefined {
  return snap.nodes.find((n) => matches(n, m) && n.flags.visible);
}

export function findAllIn(snap: WireSnapshot, m: NodeMatch): WireNode[] {
  return snap.nodes.filter((n) => matches(n, m) && n.flags.visible);
}

/** Lets transitions and loading states run out on the phone's clock. */
export async function settle(phone: PhoneSurface, ms = 400): Promise<void> {
  await phone.clock.sleep(ms);
}

export async function find(phone: PhoneSurface, m: NodeMatch): Promise<{ snap: WireSnapshot; node: WireNode }> {
  const snap = await phone.readTree();
  const node = findIn(snap, m);
  if (!node) {
    const seen = snap.nodes.map((n) => `${n.text || n.desc || n.resourceId}`).filter(Boolean);
    throw new Error(`no visible node matches ${describe(m)} on ${snap.foreground.activity}; seen: ${seen.join(' | ')}`);
  }
  return { snap, node };
}

function describe(m: NodeMatch): string {
  return JSON.stringify(m, (_k, v) => (v instanceof RegExp ? String(v) : v));
}

export function centre(n: WireNode): { x: number; y: number } {
  return { x: Math.round((n.bounds.left + n.bounds.right) / 2), y: Math.round((n.bounds.top + n.bounds.bottom) / 2) };
}

function ok(r: InputResult): void {
  if (!r.ok) throw new Error(`input failed: ${r.code} ${r.message}`);
}

/** Taps the node's centre (80 ms, a finger's tap), then lets the screen settle. */
export async function tapOn(phone: PhoneSurface, m: NodeMatch): Promise<WireNode> {
  const { node } = await find(phone, m);
  const c = centre(node);
  ok(await phone.tap(c.x, c.y, 80));
  await settle(phone);
  return node;
}

/** Native set_text on the matching editable node (Unicode), then settle. */
export async function setText(phone: PhoneSurface, m: NodeMatch, text: string): Promise<void> {
  const { snap, node } = await find(phone, m);
  ok(await phone.nodeAction(snap.seq, node.id, { action: 'set_text', text }));
  await settle(phone);
}

/** Swipes the list with `listId` upward (slow, ≥300 ms: no fling) until the node shows or the end is reached. */
export async function scrollTo(phone: PhoneSurface, listId: string, m: NodeMatch, maxSwipes = 60): Promise<WireNode> {
  for (let i = 0; i <= maxSwipes; i++) {
    const snap = await phone.readTree();
    const node = findIn(snap, m);
    const list = findIn(snap, { id: listId });
    // A node half under the list's edge is not safely tappable yet: scroll a bit more.
    if (node && list && node.bounds.top >= list.bounds.top && node.bounds.bottom <= list.bounds.bottom) return node;
    if (!list) throw new Error(`no list ${listId} on screen`);
    const x = Math.round((list.bounds.left + list.bounds.right) / 2);
    const h = list.bounds.bottom - list.bounds.top;
    ok(await phone.swipe(x, Math.round(list.bounds.bottom - h * 0.2), x, Math.round(list.bounds.top + h * 0.3), 500));
    await settle(phone, 100);
  }
  throw new Error(`${describe(m)} not found after ${maxSwipes} swipes in ${listId}`);
}

export async function expectForeground(phone: PhoneSurface, pkg: string, activity: string): Promise<void> {
  const snap = await phone.readTree();
  expect(snap.foreground).toEqual({ package: pkg, activity });
}
