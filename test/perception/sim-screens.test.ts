import { describe, expect, it } from 'vitest';
import { delta } from '../../src/perception/api.js';
import { diffObservations } from '../../src/perception/delta.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { wireToTree } from '../../src/perception/parse-wire.js';
import { VisualFirstRegistry } from '../../src/perception/quality.js';
import { isActionable } from '../../src/perception/roles.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { byLabel, compactLines, look, lookXml, newPhone, open, tapElement } from './phone.js';

/** The virtual phone's own screens, read over its two tree channels (helper JSON, uiautomator XML). */
describe('perception on every virtual-phone app screen', () => {
  it('every launchable app: JSON and XML agree, and every touchable control is on a compact line', async () => {
    const phone = newPhone();
    const apps = phone.packages().filter((p) => p.activities.length > 0);
    expect(apps.length).toBeGreaterThan(10);
    for (const app of apps) {
      await open(phone, app.package);
      const snap = await phone.readTree();
      const parsed = wireToTree(snap);
      if (!parsed.ok) throw new Error(parsed.message);
      const { observation, extract } = observeTree(parsed.tree);
      expect(observation.app.package, app.package).toBe(snap.foreground.package);
      const lines = compactLines((await look(phone, { screenshot: false })).compact);
      const shown = new Set(lines.map((l) => l.slice(1, l.indexOf(']'))));
      // The focused window (the app, or the dialog on top of it) and the system bars are what a finger
      // can reach: each of their visible controls must have a line.
      const reachable = new Set(
        snap.windows
          .filter((w) => w.focused || w.type === 'status_bar' || w.type === 'navigation_bar')
          .map((w) => w.id),
      );
      parsed.tree.nodes.forEach((n, idx) => {
        if (!reachable.has(n.window) || !n.flags.visible || !isActionable(n)) return;
        if (n.boundsPx.right <= n.boundsPx.left || n.boundsPx.bottom <= n.boundsPx.top) return;
        if (extract.dropReasons[idx]) return;
        const id = extract.nodeToId.get(idx);
        expect(id && shown.has(id), `${app.package}: ${n.className} "${n.text || n.desc || n.resourceId}"`).toBe(true);
      });
      // The uiautomator channel gives the same elements at the same places, and the same ids where
      // it names them alike (it leaves out text clipped off screen, which names a cut-off row).
      const viaXml = await lookXml(phone);
      const places = (o: typeof observation) =>
        o.elements
          .filter((e) => e.actionable)
          .map((e) => e.place ?? e.id)
          .sort();
      expect(places(viaXml.observation), app.package).toEqual(places(observation));
      const ids = (o: typeof observation) =>
        new Map(o.elements.filter((e) => e.actionable).map((e) => [e.place ?? e.id, `${e.id} ${e.label}`]));
      const jsonIds = ids(observation);
      for (const [place, idLabel] of ids(viaXml.observation)) {
        const [id, ...label] = (jsonIds.get(place) ?? '').split(' ');
        if (idLabel.slice(idLabel.indexOf(' ') + 1) === label.join(' ')) expect(idLabel, app.package).toMatch(`${id} `);
      }
    }
  });

  it('screens one tap deep in every main app: JSON and XML agree and ids lead to real controls', async () => {
    const phone = newPhone();
    const main = [
      'com.acme.bank',
      'com.foodshop',
      'com.android.browser',
      'com.android.contacts',
      'com.android.messaging',
      'com.android.settings',
    ];
    let screens = 0;
    for (const pkg of main) {
      await open(phone, pkg);
      const first = await look(phone, { screenshot: false });
      const focused = new Set(first.observation.windows.filter((w) => w.focused).map((w) => w.id));
      const targets = first.observation.elements
        .filter((e) => e.actionable && focused.has(e.window) && !e.flags.editable && !e.flags.scrollable)
        .slice(0, 4);
      for (const t of targets) {
        phone.forceStop(pkg);
        await open(phone, pkg);
        const again = await look(phone, { screenshot: false });
        // Same page, same ids: the id the planner saw still names the control. (A one-time dialog
        // may be gone on the second launch: then the page differs and there is nothing to compare.)
        const live = again.observation.elements.find((e) => e.id === t.id);
        if (again.observation.pageHash === first.observation.pageHash) expect(live, `${pkg}: ${t.label}`).toBeDefined();
        if (!live) continue;
        await tapElement(phone, live);
        const json = await look(phone, { screenshot: false });
        const xml = await lookXml(phone);
        const ids = (r: typeof json) =>
          r.observation.elements
            .filter((e) => e.actionable)
            .map((e) => e.id)
            .sort();
        expect(ids(xml), `${pkg} after tapping ${t.label}`).toEqual(ids(json));
        expect(json.observation.treeQuality).not.toBe('empty');
        screens++;
      }
    }
    expect(screens).toBeGreaterThan(12);
  });

  it.each(['phone-large', 'foldable', 'landscape'] as const)(
    'the %s screen: its size, aspect and orientation are recorded',
    async (preset) => {
      const phone = new VirtualPhone({ screen: preset, seed: 7 });
      await open(phone, 'com.android.settings/.InternetSettings');
      const s = phone.screen();
      const r = await look(phone);
      expect(r.observation.screen).toMatchObject({ w: s.width, h: s.height, rotation: s.rotation });
      expect(r.observation.screen.aspect).toBe(Math.round((s.width / s.height) * 100) / 100);
      expect(r.compact.split('\n')[0]).toContain(`${s.width}x${s.height} (${r.observation.screen.aspect})`);
      expect(byLabel(r.observation, 'Wi-Fi')).toBeDefined();
      const viaXml = await lookXml(phone);
      expect(
        viaXml.observation.elements
          .filter((e) => e.actionable)
          .map((e) => e.id)
          .sort(),
      ).toEqual(
        r.observation.elements
          .filter((e) => e.actionable)
          .map((e) => e.id)
          .sort(),
      );
    },
  );

  it('keyboard open: keys are controls, what the keyboard covers is gone, the page moved up', async () => {
    const phone = newPhone();
    await open(phone, 'com.acme.bank');
    const before = await look(phone);
    expect(before.observation.keyboard.shown).toBe(false);
    const loginBefore = byLabel(before.observation, /^Log in/);
    await tapElement(phone, byLabel(before.observation, /^Email/));
    const after = await look(phone, { previous: before.observation });
    const o = after.observation;
    expect(o.keyboard.shown).toBe(true);
    expect(after.compact.split('\n')[0]).toMatch(/keyboard shown/);
    expect(byLabel(o, 'q').window).not.toBe(byLabel(o, /^Email/).window);
    expect(byLabel(o, /^Email/).flags.focused).toBe(true);
    const loginAfter = byLabel(o, /^Log in/);
    const kb = o.keyboard.bounds!;
    expect(loginAfter.boundsPx.bottom).toBeLessThanOrEqual(kb.top);
    expect(loginAfter.bounds.top).toBeLessThan(loginBefore.bounds.top);
    // Nothing of the app window is listed inside the keyboard's area.
    for (const e of o.elements.filter((x) => x.window === byLabel(o, /^Email/).window)) {
      expect(e.boundsPx.bottom, e.label).toBeLessThanOrEqual(kb.top);
    }
  });

  it('a dialog over an app: only the dialog and the system bars are listed', async () => {
    const phone = newPhone();
    await open(phone, 'com.foodshop');
    const r = await look(phone);
    const actionable = r.observation.elements.filter((e) => e.actionable);
    const dialogWindow = r.observation.windows.find((w) => w.type === 'dialog' || w.type === 'system');
    expect(dialogWindow).toBeDefined();
    const windows = new Set(actionable.map((e) => r.observation.windows.find((w) => w.id === e.window)?.type));
    expect([...windows].sort()).toEqual([dialogWindow!.type, 'navigation_bar'].sort());
    expect(byLabel(r.observation, /^Later/)).toBeDefined();
    // The page keeps the app's title, not the dialog's.
    expect(r.observation.app.title).toBe('FoodShop');
    await tapElement(phone, byLabel(r.observation, /^Later/));
    const menu = await look(phone);
    expect(menu.observation.elements.some((e) => e.actionable && /Americano|Latte/.test(e.label ?? ''))).toBe(true);
  });

  it('the WebView page is sparse, visual-first, and remembered by (package, activity, title)', async () => {
    const phone = newPhone();
    const registry = new VisualFirstRegistry();
    await open(phone, 'com.android.browser');
    const home = await look(phone, { registry });
    expect(home.observation.treeQuality).toBe('ok');
    expect(home.observation.visualFirst).toBe(false);
    await tapElement(phone, byLabel(home.observation, /^Promo/), 1500);
    const page = await look(phone, { registry });
    expect(page.observation.treeQuality).toBe('sparse');
    expect(page.observation.visualFirst).toBe(true);
    expect(page.compact.split('\n')[0]).toMatch(/tree sparse \(visual-first/);
    const key = {
      package: 'com.android.browser',
      activity: page.observation.app.activity,
      title: page.observation.app.title,
    };
    expect(registry.isVisualFirst(key)).toBe(true);
    const restored = VisualFirstRegistry.deserialize(registry.serialize());
    expect(restored.isVisualFirst(key)).toBe(true);
    expect(restored.isVisualFirst({ ...key, title: 'other' })).toBe(false);
  });

  it('a toggle tapped by its perceived id changes state in place: same id, delta says on → off', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.InternetSettings');
    const before = await look(phone);
    const wifi = byLabel(before.observation, 'Wi-Fi');
    expect(wifi.flags.checked).toBe(true);
    await tapElement(phone, wifi);
    const after = await look(phone, { previous: before.observation });
    const wifiAfter = after.observation.elements.find((e) => e.id === wifi.id);
    expect(wifiAfter?.flags.checked).toBe(false);
    const d = diffObservations(before.observation, after.observation);
    expect(d.changed.map((c) => [c.id, c.before, c.after])).toContainEqual([wifi.id, '"Wi-Fi" on', '"Wi-Fi" off']);
    expect(d.added.filter((e) => e.label === 'Wi-Fi')).toEqual([]);
    expect(delta(before.observation, after.observation)).toContain(`~ [${wifi.id}] "Wi-Fi" on → off`);
  });
});
