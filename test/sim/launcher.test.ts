import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, byText, tapNode } from './engine-helpers.js';

/** The launcher: home, a two-page app drawer, launching by icon, recents; labels by locale. */

function iconLabels(snap: Awaited<ReturnType<VirtualPhone['readTree']>>): string[] {
  return snap.nodes
    .filter(
      (n) => n.className === 'android.widget.FrameLayout' && n.flags.clickable && n.package === 'com.android.launcher3',
    )
    .map((n) => n.desc);
}

describe('launcher', () => {
  it('opens the drawer, pages to page 2 with a swipe, and launches an app from there', async () => {
    const phone = new VirtualPhone();
    const home = await phone.readTree();
    expect(home.foreground).toEqual({ package: 'com.android.launcher3', activity: '.Launcher' });
    await tapNode(phone, byId(home, 'all_apps'));
    await phone.clock.sleep(300);
    const page1 = await phone.readTree();
    expect(byId(page1, 'page_indicator').text).toBe('Page 1 of 2');
    const first = iconLabels(page1);
    expect(first.length).toBe(20);
    await phone.swipe(900, 1200, 150, 1200, 300);
    const page2 = await phone.readTree();
    expect(byId(page2, 'page_indicator').text).toBe('Page 2 of 2');
    const second = iconLabels(page2);
    expect(second.length).toBeGreaterThan(0);
    expect(phone.drawerPages()[1].map((a) => a.label)).toEqual(second);
    expect(second.some((l) => first.includes(l))).toBe(false);
    const all = [...first, ...second];
    for (const label of ['Acme', 'FoodShop', 'Browser', 'Contacts', 'Messages', 'Settings']) {
      expect(all).toContain(label);
    }
    const target = second[0];
    const icon = page2.nodes.find((n) => n.desc === target && n.flags.clickable);
    expect(icon).toBeDefined();
    if (icon) await tapNode(phone, icon);
    const opened = phone.packages().find((p) => p.label === target);
    expect(phone.foreground().package).toBe(opened?.package);
    // Swiping up on home opens the drawer; back closes it.
    await phone.key('home');
    await phone.swipe(540, 2000, 540, 800, 300);
    expect(byId(await phone.readTree(), 'page_indicator').text).toBe('Page 1 of 2');
    await phone.key('back');
    expect(byId(await phone.readTree(), 'all_apps')).toBeDefined();
  });

  it('shows Chinese labels under the zh locale', async () => {
    const phone = new VirtualPhone({ locale: 'zh' });
    const home = await phone.readTree();
    const labels = iconLabels(home);
    expect(labels).toContain('设置');
    expect(byId(home, 'all_apps').text).toBe('所有应用');
    expect((await phone.launch('设置')).ok).toBe(true);
    expect(phone.foreground().package).toBe('com.android.settings');
  });

  it('launches by fuzzy label, lists recents, and reports unknown apps', async () => {
    const phone = new VirtualPhone();
    expect(await phone.launch('settings')).toMatchObject({ ok: true, detail: 'com.android.settings' });
    expect(await phone.launch('No Such App')).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    await phone.key('home');
    await phone.key('recents');
    const recents = await phone.readTree();
    expect(recents.foreground.activity).toBe('.RecentsActivity');
    await tapNode(phone, byText(recents, 'Settings'));
    expect(phone.foreground().package).toBe('com.android.settings');
    // The nav bar's buttons are real touch targets.
    const nav = await phone.readTree();
    await tapNode(phone, byId(nav, 'home'));
    expect(phone.foreground().package).toBe('com.android.launcher3');
  });
});
