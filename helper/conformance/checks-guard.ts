import { guardForNode } from '../../src/device/protocol/guard.js';
import type { WireSnapshot } from '../../src/device/protocol/wire.js';
import { appNodes, type Check, type Ctx, center, expect, expectCode, need, uniqueTextNode } from './suite.js';

/**
 * Guarded touches (PROTOCOL.md §7, capability `guarded_touch`): a touch whose guard no longer holds
 * is answered STALE and touches nothing. Optional: a helper that does not advertise it passes with a
 * note (its clients re-check with a snapshot). The intact guard is exercised by "tap: open Display".
 */

export async function guardedTouch(ctx: Ctx): Promise<boolean> {
  return (await ctx.client.hello()).capabilities.includes('guarded_touch');
}

/** Nothing was tapped: the same app in front, the entry where it was. */
function untouched(before: WireSnapshot, after: WireSnapshot, text: string): boolean {
  const was = appNodes(before).find((n) => n.text === text)?.bounds;
  const now = appNodes(after).find((n) => n.text === text)?.bounds;
  return after.foreground.package === before.foreground.package && !!was && !!now && was.top === now.top;
}

export const guardChecks: Check[] = [
  {
    name: 'guarded_touch: a replaced or moved target is STALE and nothing is touched',
    async run(ctx) {
      if (!(await guardedTouch(ctx))) {
        ctx.note('guarded_touch not advertised: clients re-check with a snapshot before touching');
        return;
      }
      const { client } = ctx;
      const s = await client.snapshot();
      const entry = need(
        uniqueTextNode(s, (n) => n.bounds.bottom - n.bounds.top > 20),
        'an entry with unique text',
      );
      const guard = guardForNode(entry);
      const p = center(entry);
      const shifted = { ...guard.bounds, top: guard.bounds.top + 200, bottom: guard.bounds.bottom + 200 };
      for (const [what, g] of [
        ['replaced', { ...guard, text: `${guard.text} (gone)` }],
        ['moved 200 px', { ...guard, bounds: shifted }],
      ] as const) {
        const r = await client.action({ action: 'tap', x: p.x, y: p.y, coord_space: 'pixel', guard: g });
        expectCode(r, 'STALE', `a guarded tap on a ${what} target`);
        expect(r.status === 'not_started' && r.delivery === 'not_delivered', `${what}: ${r.status}/${r.delivery}`);
      }
      expect(untouched(s, await client.snapshot(), entry.text), 'a refused guarded tap still touched the screen');
      const two = await client.post('/v3/action', {
        action: 'touch_gesture',
        coord_space: 'pixel',
        guard,
        frames: [
          { at_ms: 0, points: [p, { x: p.x, y: p.y + 400 }] },
          { at_ms: 100, points: [p, { x: p.x, y: p.y + 400 }] },
        ],
      });
      expect(two.status === 400, `a guard on a two-finger gesture was accepted: HTTP ${two.status}`);
      ctx.note(`refused on "${entry.text}"`);
    },
  },
];
