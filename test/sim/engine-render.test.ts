import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseBounds } from '../../src/core/geometry.js';
import type { WireSnapshot } from '../../src/device/protocol/wire.js';
import type { AppContext } from '../../src/testbed/sim/app.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, parseDump, tapNode, testApp } from './engine-helpers.js';

/** The JSON tree, the uiautomator XML and the PNG all come from one layout and agree. */

function visibleNodes(snap: WireSnapshot) {
  return snap.nodes.filter((n) => n.flags.visible);
}

async function expectSameNodes(phone: VirtualPhone): Promise<number> {
  const snap = await phone.readTree();
  const xml = await phone.dumpXml();
  expect(xml.startsWith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=")).toBe(true);
  expect(xml.endsWith('</hierarchy>')).toBe(true);
  const dumped = parseDump(xml);
  const json = visibleNodes(snap);
  expect(dumped.length).toBe(json.length);
  dumped.forEach((d, i) => {
    const j = json[i];
    expect(d.attrs.class).toBe(j.className);
    expect(d.attrs.text).toBe(j.text);
    expect(d.attrs['content-desc']).toBe(j.desc);
    expect(d.attrs['resource-id']).toBe(j.resourceId);
    expect(d.attrs.package).toBe(j.package);
    expect(parseBounds(d.attrs.bounds)).toEqual(j.bounds);
    expect(d.attrs.clickable).toBe(String(j.flags.clickable));
    expect(d.attrs.checked).toBe(String(j.flags.checked));
    expect(d.attrs.focused).toBe(String(j.flags.focused));
    expect(d.attrs.password).toBe(String(j.flags.password));
  });
  // Every window's root sits directly under <hierarchy>.
  expect(dumped.filter((d) => d.depth === 0).length).toBe(snap.windows.length);
  return json.length;
}

describe('tree, dump and screenshot agree', () => {
  it('on the launcher, in Settings, and with the keyboard and a dialog open', async () => {
    const phone = new VirtualPhone();
    expect(await expectSameNodes(phone)).toBeGreaterThan(20);
    await phone.launch('com.android.settings');
    await expectSameNodes(phone);
    await phone.launch('com.acme.bank');
    await phone.clock.sleep(1000);
    const snap = await phone.readTree();
    const edit = snap.nodes.find((n) => n.className === 'android.widget.EditText');
    expect(edit).toBeDefined();
    if (edit) await tapNode(phone, edit);
    expect((await phone.readTree()).keyboard.shown).toBe(true);
    await expectSameNodes(phone);
    phone.popup({
      kind: 'app',
      title: 'Tom & "Jerry" <3',
      message: "it's\nfine",
      buttons: [{ text: 'OK', onTap: () => {} }],
    });
    await expectSameNodes(phone);
    const xml = await phone.dumpXml();
    expect(xml).toContain('text="Tom &amp; &quot;Jerry&quot; &lt;3"');
    expect(xml).toContain('text="it&apos;s&#10;fine"');
  });

  it('an empty tree fault gives no nodes and the dump fails as uiautomator does', async () => {
    const phone = new VirtualPhone();
    phone.faults.emptyTree = true;
    expect((await phone.readTree()).nodes).toEqual([]);
    await expect(phone.dumpXml()).rejects.toThrow('null root node');
  });

  it('renders a PNG of the screen size, cropped below the status bar under the fault', async () => {
    for (const screen of ['phone', 'phone-large', 'foldable', 'landscape'] as const) {
      const phone = new VirtualPhone({ screen });
      const s = phone.screen();
      const shot = await phone.screenshot();
      const meta = await sharp(shot.png).metadata();
      expect(meta.format).toBe('png');
      expect([meta.width, meta.height]).toEqual([s.width, s.height]);
      expect(shot.offsetY).toBe(0);
      const snap = await phone.readTree();
      expect(snap.windows.find((w) => w.type === 'navigation_bar')?.bounds.bottom).toBe(s.height);
      if (screen === 'foldable') expect(Math.round((s.width / s.height) * 10) / 10).toBe(1.2);
    }
    const phone = new VirtualPhone();
    phone.faults.cropStatusBar = true;
    const shot = await phone.screenshot();
    const bar = (await phone.readTree()).windows.find((w) => w.type === 'status_bar');
    expect(shot.offsetY).toBe(bar?.bounds.bottom);
    const meta = await sharp(shot.png).metadata();
    expect(meta.height).toBe(2400 - shot.offsetY);
    expect(shot.height).toBe(meta.height);
  });

  it('draws CJK text with real glyphs (different characters give different pixels)', async () => {
    let text = '';
    let ctx: AppContext | undefined;
    const app = testApp('com.test.cjk', (_route, c) => {
      ctx = c;
      return {
        activity: '.Main',
        title: 'CJK',
        root: { kind: 'column', padding: 16, children: [{ kind: 'text', id: 'label', text, size: 'title' }] },
      };
    });
    const phone = new VirtualPhone({ apps: [app] });
    await phone.launch('com.test.cjk');
    await phone.clock.sleep(400);
    const region = async (t: string): Promise<Buffer> => {
      text = t;
      ctx?.invalidate();
      const snap = await phone.readTree();
      const label = byId(snap, 'label');
      const shot = await phone.screenshot();
      const b = label.bounds;
      return sharp(shot.png)
        .extract({ left: b.left, top: b.top, width: b.right - b.left, height: b.bottom - b.top })
        .raw()
        .toBuffer();
    };
    const blank = await region('');
    const first = await region('确认支付');
    const second = await region('蓝牙设置');
    expect(first.equals(blank)).toBe(false);
    // A missing font draws the same box for every character; real glyphs differ.
    expect(first.equals(second)).toBe(false);
    const dark = (buf: Buffer) => buf.filter((_v, i) => i % 4 === 0 && buf[i] < 128).length;
    expect(dark(first)).toBeGreaterThan(50);
  });
});
