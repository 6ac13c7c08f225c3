import type { WireNode } from '../../../src/device/protocol/wire.js';
import type { PhoneSurface } from '../../../src/testbed/sim/surface.js';

/** Small helpers tests use to find things on the virtual phone's screen (read through its tree). */

export async function findNode(phone: PhoneSurface, pred: (n: WireNode) => boolean): Promise<WireNode> {
  const tree = await phone.readTree();
  const n = tree.nodes.find((x) => x.flags.visible && pred(x));
  if (!n) throw new Error(`no node on ${tree.foreground.package}${tree.foreground.activity}`);
  return n;
}

export function centre(n: WireNode): { x: number; y: number } {
  return { x: Math.round((n.bounds.left + n.bounds.right) / 2), y: Math.round((n.bounds.top + n.bounds.bottom) / 2) };
}

/** Let transitions (300 ms) finish on the phone's clock. */
export async function settle(phone: PhoneSurface, ms = 1000): Promise<void> {
  await phone.clock.sleep(ms);
}
