import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/core/errors.js';
import { ObservationSchema } from '../../src/core/types.js';
import { perceive } from '../../src/perception/perceive.js';
import { VisualFirstRegistry } from '../../src/perception/quality.js';
import { EMPTY_DUMP_ERROR } from '../../src/testbed/sim/index.js';
import { look, newPhone, open } from './phone.js';

describe('visual-first registry', () => {
  it('remembers sparse pages by (package, activity, title), forgets them once they are ok, and round-trips', () => {
    const reg = new VisualFirstRegistry();
    const page = { package: 'com.game', activity: '.Main', title: 'Arena' };
    reg.record(page, 'sparse', 'SurfaceView covers the screen');
    reg.record({ ...page, title: 'Menu' }, 'ok');
    expect(reg.isVisualFirst(page)).toBe(true);
    expect(reg.isVisualFirst({ ...page, title: 'Menu' })).toBe(false);
    expect(reg.size).toBe(1);
    const back = VisualFirstRegistry.deserialize(reg.serialize());
    expect(back.isVisualFirst(page)).toBe(true);
    back.record(page, 'ok');
    expect(back.isVisualFirst(page)).toBe(false);
  });

  it('rejects a corrupted registry with a typed error', () => {
    expect(() => VisualFirstRegistry.deserialize('{oops')).toThrow(InvalidInputError);
    expect(() => VisualFirstRegistry.deserialize('{"version":1}')).toThrow(/expected/);
  });

  it('a page remembered as visual-first stays so even when its tree looks ok on a later visit… until it is judged ok', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    const registry = new VisualFirstRegistry();
    const first = await look(phone, { registry, screenshot: false });
    const key = {
      package: first.observation.app.package,
      activity: first.observation.app.activity,
      title: first.observation.app.title,
    };
    registry.record(key, 'sparse', 'seen as a canvas before');
    const again = await look(phone, { registry, screenshot: false });
    expect(again.observation.visualFirst).toBe(true);
    expect(registry.isVisualFirst(key)).toBe(false); // this visit judged it ok
  });
});

describe('observations are valid contract values', () => {
  it('helper JSON and uiautomator XML + screenshot both give schema-valid observations', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.contacts');
    const wire = await look(phone);
    expect(ObservationSchema.safeParse(wire.observation).success).toBe(true);
    const shot = await phone.screenshot();
    const fused = await perceive({ xml: await phone.dumpXml(), screen: { w: 1080, h: 2400 }, screenshot: shot.png });
    if (!fused.ok) throw new Error(fused.message);
    expect(ObservationSchema.safeParse(fused.observation).success).toBe(true);
    expect(fused.observation.frameHash).toBe(wire.observation.frameHash);
    expect(fused.observation.unstable).toBeUndefined();
    expect(
      fused.observation.elements
        .filter((e) => e.actionable)
        .map((e) => e.id)
        .sort(),
    ).toEqual(
      wire.observation.elements
        .filter((e) => e.actionable)
        .map((e) => e.id)
        .sort(),
    );
  });
});

describe('empty trees are reported, never passed on silently', () => {
  it('the helper returns no nodes: tree empty, visual-first, said in the header', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    phone.faults.emptyTree = true;
    const r = await look(phone);
    expect(r.observation.treeQuality).toBe('empty');
    expect(r.observation.visualFirst).toBe(true);
    expect(r.observation.elements).toEqual([]);
    expect(r.compact.split('\n')[0]).toMatch(/tree empty \(visual-first: the app draws what the tree does not list\)$/);
    expect(r.observation.notes?.join()).toMatch(/no nodes/);
    expect(r.observation.frameHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("uiautomator's null-root answer with a screenshot: empty, sized from the screenshot", async () => {
    const phone = newPhone();
    const shot = await phone.screenshot();
    const r = await perceive({ xml: EMPTY_DUMP_ERROR, screenshot: shot.png });
    if (!r.ok) throw new Error(r.message);
    expect(r.observation.treeQuality).toBe('empty');
    expect(r.observation.screen).toMatchObject({ w: 1080, h: 2400 });
    expect(r.observation.notes?.join()).toMatch(/null root node/);
  });
});
