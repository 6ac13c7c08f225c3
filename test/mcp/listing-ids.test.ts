import { describe, expect, it } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { MCP_COMPACT } from '../../src/mcp/revisions.js';
import { compactView } from '../../src/perception/compact.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { look } from '../perception/phone.js';

/**
 * MCP clients select by resource id (`selector: { resource_id }`): its observe must show the same
 * ids whatever the phone's language. The full listing used to drop an id its label restates —
 * `#wifi_switch` on "Wi-Fi" — so the English screen hid ids the Chinese one ("WLAN") showed.
 */

async function idsOn(locale: 'en' | 'zh', activity: string): Promise<string[]> {
  const phone = new VirtualPhone({ clock: new RealClock(), seed: 1, locale });
  await phone.launch('com.android.settings', activity);
  const { observation } = await look(phone, { screenshot: false });
  return [...compactView(observation, MCP_COMPACT).matchAll(/ #([\w.]+)/g)].map((m) => m[1] as string);
}

describe("MCP's listing names resource ids alike in every language", () => {
  for (const activity of ['.Settings', '.InternetSettings'])
    it(`Settings ${activity}: the same ids in English and Chinese`, async () => {
      const en = await idsOn('en', activity);
      const zh = await idsOn('zh', activity);
      expect(en.length).toBeGreaterThan(3);
      expect(en).toEqual(zh);
      if (activity === '.InternetSettings') expect(en).toContain('wifi_switch');
    });
});
