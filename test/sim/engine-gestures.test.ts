import { describe, expect, it } from 'vitest';
import type { View } from '../../src/testbed/sim/kit/view.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, byText, tapNode, testApp } from './engine-helpers.js';

/** Swipes scroll by the dragged distance (≥300 ms) or fling about twice as far; pinch zooms a webview. */

function listPhone() {
  const taps: number[] = [];
  const long: number[] = [];
  const rows: View[] = Array.from({ length: 120 }, (_, i) => ({
    kind: 'row',
    id: 'row',
    height: 64,
    onTap: () => taps.push(i),
    onLongPress: () => long.push(i),
    children: [{ kind: 'text', text: `Item ${i}` }],
  }));
  const app = testApp('com.test.list', () => ({
    activity: '.Main',
    title: 'List',
    root: { kind: 'column', children: [{ kind: 'list', id: 'items', children: rows }] },
  }));
  return { phone: new VirtualPhone({ apps: [app] }), taps, long };
}

async function itemTop(phone: VirtualPhone, text: string): Promise<number> {
  return byText(await phone.readTree(), text).bounds.top;
}

describe('scroll and fling', () => {
  it('a slow drag scrolls by the dragged distance, a fast one flings about twice as far', async () => {
    const { phone } = listPhone();
    await phone.launch('com.test.list');
    const start = await itemTop(phone, 'Item 5');
    // 168 px = 64dp row at 420 dpi; drag 600 px up over 400 ms.
    expect((await phone.swipe(540, 1800, 540, 1200, 400)).ok).toBe(true);
    const afterSlow = await itemTop(phone, 'Item 12');
    const slowDelta = (12 - 5) * 168 + start - afterSlow;
    expect(slowDelta).toBe(600);

    const ref = await itemTop(phone, 'Item 12');
    await phone.swipe(540, 1800, 540, 1200, 100);
    const snap = await phone.readTree();
    const item = snap.nodes.find((n) => n.text === 'Item 20' && n.flags.visible);
    expect(item).toBeDefined();
    const flingDelta = (20 - 12) * 168 + ref - (item?.bounds.top ?? 0);
    expect(flingDelta).toBe(1200);
  });

  it('rows outside the viewport are not in the tree; a partly visible row is clipped', async () => {
    const { phone } = listPhone();
    await phone.launch('com.test.list');
    await phone.swipe(540, 1800, 540, 1700, 400);
    const snap = await phone.readTree();
    const list = byId(snap, 'items');
    const rows = snap.nodes.filter((n) => n.parent === list.id);
    expect(rows.length).toBeLessThan(20);
    expect(snap.nodes.some((n) => n.text === 'Item 100')).toBe(false);
    const first = rows[0];
    expect(first.bounds.top).toBe(list.bounds.top);
    expect(first.bounds.bottom - first.bounds.top).toBeLessThan(168);
    expect(list.flags.scrollable).toBe(true);
    expect(list.className).toBe('androidx.recyclerview.widget.RecyclerView');
    expect(list.actions).toContain('scroll_forward');
    expect(list.actions).toContain('scroll_backward');
  });

  it('scrolling stops at the end of the list', async () => {
    const { phone } = listPhone();
    await phone.launch('com.test.list');
    for (let i = 0; i < 20; i++) await phone.swipe(540, 2000, 540, 400, 100);
    const snap = await phone.readTree();
    const list = byId(snap, 'items');
    const lastRow = snap.nodes[byText(snap, 'Item 119').parent];
    expect(lastRow.bounds.bottom).toBe(list.bounds.bottom);
    expect(list.actions).not.toContain('scroll_forward');
  });

  it('tap vs long press on a row, and a dropped short tap under the fault', async () => {
    const { phone, taps, long } = listPhone();
    await phone.launch('com.test.list');
    const row = byText(await phone.readTree(), 'Item 2');
    await tapNode(phone, row);
    expect(taps).toEqual([2]);
    await phone.tap(500, (row.bounds.top + row.bounds.bottom) / 2, 600);
    expect(long).toEqual([2]);
    expect(taps).toEqual([2]);
    phone.faults.dropShortTaps = true;
    expect((await phone.tap(500, (row.bounds.top + row.bounds.bottom) / 2, 5)).ok).toBe(true);
    expect(taps).toEqual([2]);
    await phone.tap(500, (row.bounds.top + row.bounds.bottom) / 2, 40);
    expect(taps).toEqual([2, 2]);
  });
});

describe('pinch', () => {
  it('changes the webview zoom, visible only in the screenshot', async () => {
    const app = testApp('com.test.web', () => ({
      activity: '.Main',
      title: 'Web',
      root: {
        kind: 'column',
        children: [
          {
            kind: 'webview',
            id: 'page',
            lines: Array.from({ length: 30 }, (_, i) => ({ text: `Line ${i} of the page`, size: 14 })),
          },
        ],
      },
    }));
    const phone = new VirtualPhone({ apps: [app] });
    await phone.launch('com.test.web');
    await phone.clock.sleep(400);
    const before = await phone.readTree();
    const webNodes = before.nodes.filter((n) => n.window === before.windows[0].id);
    expect(webNodes.map((n) => n.className)).toEqual([
      'android.widget.FrameLayout',
      'android.widget.LinearLayout',
      'android.webkit.WebView',
    ]);
    const shot1 = await phone.screenshot();
    const r = await phone.gesture([
      {
        points: [
          { x: 500, y: 1200, t: 0 },
          { x: 400, y: 1100, t: 300 },
        ],
      },
      {
        points: [
          { x: 600, y: 1300, t: 0 },
          { x: 700, y: 1400, t: 300 },
        ],
      },
    ]);
    expect(r.ok).toBe(true);
    const web = byId(await phone.readTree(), 'page');
    const laid = phone.frame().windows[0].root.children[0].children.find((n) => n.view?.kind === 'webview');
    // The fingers' distance grew threefold (141 px → 424 px).
    expect(laid?.draw?.scale).toBeCloseTo(3, 1);
    expect(web.text).toBe('');
    const shot2 = await phone.screenshot();
    expect(shot2.png.equals(shot1.png)).toBe(false);
    // Pinching in again shrinks it.
    await phone.gesture([
      {
        points: [
          { x: 400, y: 1100, t: 0 },
          { x: 500, y: 1200, t: 300 },
        ],
      },
      {
        points: [
          { x: 700, y: 1400, t: 0 },
          { x: 600, y: 1300, t: 300 },
        ],
      },
    ]);
    const again = phone.frame().windows[0].root.children[0].children.find((n) => n.view?.kind === 'webview');
    expect(again?.draw?.scale).toBeCloseTo(1, 1);
  });

  it('injects points off the screen as Android does: a touch down off it reaches nothing, a drag off it scrolls', async () => {
    const { phone, taps } = listPhone();
    await phone.launch('com.test.list');
    const r = await phone.gesture([{ points: [{ x: 5000, y: 10, t: 0 }] }]);
    expect(r).toMatchObject({ ok: true, detail: 'touch down outside the screen' });
    expect(taps).toEqual([]);
    const before = await itemTop(phone, 'Item 5');
    // From y=1800 to y=-600: the finger stops at the screen's edge, 1800 px of travel, not 2400.
    expect((await phone.swipe(540, 1800, 540, -600, 400)).ok).toBe(true);
    expect(await itemTop(phone, 'Item 12')).toBe(before + 7 * 168 - 1800);
  });
});
