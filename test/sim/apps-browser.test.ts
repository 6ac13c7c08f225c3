import { describe, expect, it } from 'vitest';
import { browserData } from '../../src/testbed/sim/apps/browser-data.js';
import { frameToSvg, VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, setText, settle, tapOn } from './helpers.js';

/** Browser: the page exists only in pixels; the tree of the app window holds one WebView node. */

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The font size (px) the screenshot uses for the first text run containing `needle`. */
function drawnSize(svg: string, needle: string): number | undefined {
  const m = [...svg.matchAll(/<text[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].find((x) =>
    x[2].includes(needle),
  );
  return m ? Number(m[1]) : undefined;
}

async function openPromo(): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed: 31 });
  expect((await phone.launch('com.android.browser')).ok).toBe(true);
  await settle(phone);
  await tapOn(phone, { id: 'bookmark_title', text: 'Promo · 优惠活动' });
  return phone;
}

describe('Browser', () => {
  it('the promo page is one WebView node: the coupon code is only in the screenshot, in small text', async () => {
    const phone = await openPromo();
    const code = browserData(phone.world).couponCode;
    expect(code).toMatch(/^SAVE-[A-Z2-9]{6}$/);
    await settle(phone, 1000); // the page loads
    const snap = await phone.readTree();
    expect(snap.foreground.activity).toBe('.PageActivity');
    const app = snap.windows.find((w) => w.type === 'application')!;
    const nodes = snap.nodes.filter((n) => n.window === app.id);
    expect(nodes.filter((n) => n.className === 'android.webkit.WebView')).toHaveLength(1);
    expect(nodes.filter((n) => n.className === 'android.widget.TextView')).toHaveLength(0);
    expect(snap.nodes.some((n) => n.text.includes(code) || n.desc.includes(code))).toBe(false);
    expect((await phone.dumpXml()).includes(code)).toBe(false);

    const svg = frameToSvg(phone.frame());
    const small = drawnSize(svg, escapeXml(code));
    const headline = drawnSize(svg, 'SPRING SALE');
    expect(small).toBeDefined();
    expect(headline).toBeDefined();
    expect(small!).toBeLessThan(headline! / 4);
  });

  it('shows a loading state first, then the page; pinch zoom enlarges the coupon text', async () => {
    const phone = await openPromo();
    const code = browserData(phone.world).couponCode;
    expect(frameToSvg(phone.frame()).includes(code)).toBe(false); // still loading
    await settle(phone, 1000);
    const web = (await find(phone, { className: 'android.webkit.WebView' })).node;
    const before = drawnSize(frameToSvg(phone.frame()), code)!;
    const cx = Math.round((web.bounds.left + web.bounds.right) / 2);
    const cy = Math.round((web.bounds.top + web.bounds.bottom) / 2);
    const r = await phone.gesture([
      {
        points: [
          { x: cx - 50, y: cy - 50, t: 0 },
          { x: cx - 150, y: cy - 150, t: 300 },
        ],
      },
      {
        points: [
          { x: cx + 50, y: cy + 50, t: 0 },
          { x: cx + 150, y: cy + 150, t: 300 },
        ],
      },
    ]);
    expect(r.ok).toBe(true);
    await settle(phone, 100);
    // Zoomed in, the small print is below the viewport: drag the page up until it is drawn.
    let after = drawnSize(frameToSvg(phone.frame()), code);
    for (let i = 0; i < 20 && after === undefined; i++) {
      await phone.swipe(cx, web.bounds.bottom - 100, cx, web.bounds.top + 300, 500);
      await settle(phone, 50);
      after = drawnSize(frameToSvg(phone.frame()), code);
    }
    expect(after).toBeGreaterThan(before * 2);
  });

  it('typing an address opens the page; an unknown site says it cannot be reached', async () => {
    const phone = new VirtualPhone({ seed: 31 });
    await phone.launch('com.android.browser');
    await settle(phone);
    await setText(phone, { id: 'url' }, 'news.example.com');
    await tapOn(phone, { id: 'url' });
    await phone.key('enter');
    await settle(phone, 1000);
    expect((await phone.readTree()).foreground.activity).toBe('.PageActivity');
    expect(frameToSvg(phone.frame())).toContain('Morning Briefing');
    await setText(phone, { id: 'url' }, 'nowhere.invalid');
    await tapOn(phone, { id: 'url' });
    await phone.key('enter');
    await settle(phone, 1000);
    expect(frameToSvg(phone.frame())).toContain('reached');
  });
});
