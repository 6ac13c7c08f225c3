import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import type { NodeAction } from '../../src/testbed/sim/surface.js';
import { parseDump } from './engine-helpers.js';

/**
 * Seeded random use of every app through the public surface: nothing throws, and after every step
 * the tree stays well-formed and the uiautomator dump describes the same visible nodes.
 */

const KEYS = ['back', 'home', 'recents', 'enter', 'delete'] as const;

describe('random use keeps the phone consistent', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}`, async () => {
      const rnd = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
      const phone = new VirtualPhone({ seed, locale: seed === 2 ? 'zh' : 'en' });
      const { width, height } = phone.screen();
      const pkgs = phone.packages().map((p) => p.package);
      for (let step = 0; step < 150; step++) {
        const r = rnd();
        const snap = await phone.readTree();
        if (r < 0.35) {
          await phone.tap(Math.floor(rnd() * width), Math.floor(rnd() * height), pick([5, 50, 700]));
        } else if (r < 0.5) {
          const x = Math.floor(rnd() * width);
          const y = Math.floor(rnd() * height);
          await phone.swipe(x, y, Math.floor(rnd() * width), Math.floor(rnd() * height), pick([80, 400]));
        } else if (r < 0.6) {
          await phone.key(pick(KEYS));
        } else if (r < 0.67) {
          await phone.launch(pick(pkgs));
        } else if (r < 0.72) {
          await phone.imeCommit(pick(['a', '中文', '😀', ' ']));
        } else if (snap.nodes.length) {
          const node = pick(snap.nodes);
          const action: NodeAction = pick<NodeAction>([
            { action: 'click' },
            { action: 'set_text', text: pick(['x@y.z', '张伟', '']) },
            { action: 'set_progress', value: Math.floor(rnd() * 300) - 20 },
            { action: 'scroll_forward' },
            { action: 'show_on_screen' },
            { action: 'set_selection', start: 0, end: Math.floor(rnd() * 4) },
          ]);
          const res = await phone.nodeAction(snap.seq, node.id, action);
          if (!res.ok) expect(res.code).toMatch(/^[A-Z_]+$/);
        }
        if (rnd() < 0.3) await phone.clock.sleep(pick([100, 400, 2500]));
        if (step % 5 === 0) {
          const tree = await phone.readTree();
          tree.nodes.forEach((n, i) => {
            expect(n.id).toBe(i);
            expect(n.parent).toBeLessThan(i);
            if (n.flags.visible) {
              expect(n.bounds.left).toBeGreaterThanOrEqual(0);
              expect(n.bounds.top).toBeGreaterThanOrEqual(0);
              expect(n.bounds.right).toBeLessThanOrEqual(width);
              expect(n.bounds.bottom).toBeLessThanOrEqual(height);
            }
          });
          const toastWindows = new Set(tree.windows.filter((w) => w.type === 'toast').map((w) => w.id));
          const visible = tree.nodes.filter((n) => n.flags.visible && !toastWindows.has(n.window));
          const dumped = parseDump(await phone.dumpXml());
          expect(dumped.map((d) => d.attrs.text)).toEqual(visible.map((n) => n.text));
        }
      }
      const shot = await phone.screenshot();
      expect(shot.png.subarray(1, 4).toString()).toBe('PNG');
    });
  }
});
