import { describe, expect, it } from 'vitest';
import { type ScreenPreset, VirtualPhone } from '../../src/testbed/sim/index.js';
import { settle } from './helpers.js';

/** Every app lays out on every screen preset: its nodes stay on screen and its key control is visible. */

const APPS: [string, string][] = [
  ['com.acme.bank', 'login'],
  ['com.foodshop', 'search'],
  ['com.android.browser', 'bookmarks'],
  ['com.android.contacts', 'permission_allow_button'],
  ['com.android.messaging', 'start_chat'],
];
const SCREENS: ScreenPreset[] = ['phone', 'phone-large', 'foldable', 'landscape'];

describe('apps on every screen', () => {
  for (const screen of SCREENS) {
    it(`lays out all apps on ${screen}`, async () => {
      const phone = new VirtualPhone({ screen, seed: 2 });
      const { width, height } = phone.screen();
      for (const [pkg, id] of APPS) {
        expect((await phone.launch(pkg)).ok).toBe(true);
        await settle(phone, 1000);
        const snap = await phone.readTree();
        expect(snap.foreground.package).toBe(pkg);
        const key = snap.nodes.find((n) => n.resourceId.endsWith(`:id/${id}`));
        expect(key, `${pkg} ${id} on ${screen}`).toBeDefined();
        expect(key!.bounds.bottom - key!.bounds.top).toBeGreaterThan(0);
        const off = snap.nodes.filter((n) => n.bounds.left < 0 || n.bounds.right > width || n.bounds.bottom > height);
        expect(off.map((n) => `${pkg} ${n.resourceId} ${n.text}`)).toEqual([]);
        await phone.key('home');
      }
    });
  }
});
