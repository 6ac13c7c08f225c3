import { describe, expect, it } from 'vitest';
import type { WireSnapshot } from '../../src/core/snapshot.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';
import { droidbotStateOf } from './droidbot-builder.js';
import { newPhone, open } from './phone.js';

/**
 * The DroidBot reader on states the project writes itself from the virtual phone's screens (the real
 * recorded states are read in test/shared/droidbot-states.test.ts): a state becomes the snapshot a
 * helper gives, so perception lists the same controls.
 */

async function simScreen(pkg: string): Promise<WireSnapshot> {
  const phone = newPhone();
  await open(phone, pkg);
  return phone.readTree();
}

/** The focused window of a helper snapshot alone, without hints: what DroidBot records of the same screen. */
function appOnly(snap: WireSnapshot): WireSnapshot {
  const app = snap.windows.find((w) => w.focused);
  return {
    ...snap,
    windows: snap.windows.filter((w) => w === app),
    nodes: snap.nodes.filter((n) => n.window === app?.id).map(({ hint: _, ...n }) => n),
  };
}

/** The control lines of a compact view (the header's title and the text line differ by source). */
async function controls(wire: WireSnapshot): Promise<string[]> {
  const r = await perceive({ wire }, { revalidate: true });
  if (!r.ok) throw new Error(r.message);
  return r.compact.split('\n').filter((l) => l.startsWith('['));
}

function read(state: unknown, image?: { width: number; height: number }) {
  const r = readDroidbotState(state, { image });
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe('DroidBot state reader', () => {
  it.each(['com.android.settings', 'com.foodshop', 'com.acme.bank'])(
    '%s: the state lists the same controls as the helper snapshot of the same window',
    async (pkg) => {
      const snap = await simScreen(pkg);
      const r = read(droidbotStateOf(snap, { tag: '2024-01-01_120000' }));
      expect(r.snapshot.foreground).toEqual(snap.foreground);
      expect(r.snapshot.screen).toMatchObject({ width: snap.screen.width, height: snap.screen.height });
      expect(r.snapshot.windows.map((w) => w.type)).toEqual([snap.windows.find((w) => w.focused)?.type]);
      const want = await controls(appOnly(snap));
      expect(want.length).toBeGreaterThanOrEqual(2);
      expect(await controls(r.snapshot)).toEqual(want);
      // Every view keeps its temp_id → node mapping, which gold steps and events use.
      expect(r.nodeOf.size).toBe(r.snapshot.nodes.length);
    },
  );

  it('turns a swapped display size round to the screenshot (or the views) and says so', async () => {
    const snap = await simScreen('com.android.settings');
    const state = droidbotStateOf(snap, { tag: 't', swapSize: true });
    const { width, height } = snap.screen;
    expect(state.width).toBe(height);
    const byViews = read(state);
    expect(byViews.snapshot.screen).toMatchObject({ width, height });
    expect(byViews.notes.join()).toMatch(/other way round/);
    // A screenshot downscaled to half decides the orientation too; its size travels in the snapshot.
    const byImage = readDroidbotState(state, {
      image: { width: width / 2, height: height / 2, format: 'jpeg', base64: 'AAAA' },
    });
    if (!byImage.ok) throw new Error(byImage.message);
    expect(byImage.snapshot.screen).toMatchObject({ width, height });
    expect(byImage.snapshot.screenshot).toMatchObject({ format: 'jpeg', width: width / 2, height: height / 2 });
  });

  it('without a display size, takes the screenshot scaled up to the views, else the views', async () => {
    const snap = await simScreen('com.android.settings');
    const state = droidbotStateOf(snap, { tag: 't', noSize: true });
    const { width, height } = snap.screen;
    expect(read(state, { width: width / 2, height: height / 2 }).snapshot.screen).toMatchObject({ width, height });
    const r = read(state);
    expect(r.snapshot.screen.width).toBe(width);
    expect(r.notes.join()).toMatch(/inferred from the views/);
  });

  it('reads nulls, views out of order, orphans and inverted bounds without losing a view', () => {
    const v = (temp_id: number, parent: number, extra: Record<string, unknown> = {}) => ({
      temp_id,
      parent,
      children: [],
      class: 'android.widget.TextView',
      package: 'org.example',
      resource_id: null,
      text: null,
      content_description: null,
      bounds: [
        [0, 0],
        [1080, 2400],
      ],
      clickable: false,
      visible: true,
      ...extra,
    });
    const state = {
      state_str: 'abc',
      foreground_activity: 'org.example/.Main',
      width: 1080,
      height: 2400,
      views: [
        // A child listed before its parent, a parent that is not in the state, a view scrolled away.
        v(1, 0, {
          text: 'OK',
          clickable: true,
          bounds: [
            [100, 1000],
            [980, 1140],
          ],
          class: 'android.widget.Button',
        }),
        v(0, -1, { class: 'android.widget.FrameLayout', children: [1, 2] }),
        v(2, 0, {
          text: 'gone',
          visible: false,
          bounds: [
            [1106, 260],
            [1080, 339],
          ],
        }),
        v(3, 99, {
          text: 'orphan',
          bounds: [
            [0, 2000],
            [500, 2100],
          ],
        }),
      ],
    };
    const r = read(state);
    const nodes = r.snapshot.nodes;
    expect(nodes.map((n) => n.text)).toEqual(['', 'OK', 'gone', 'orphan']);
    expect(nodes.every((n) => n.parent < n.id)).toBe(true);
    expect(nodes[2]?.bounds).toEqual({ left: 1106, top: 260, right: 1106, bottom: 260 });
    expect(r.nodeOf.get(1)).toBe(1);
    expect(r.nodeOf.get(0)).toBe(0);
    expect(r.notes.join(' | ')).toMatch(/name a parent that is not in the state.*inverted bounds/);
    expect(r.snapshot.foreground).toEqual({ package: 'org.example', activity: '.Main' });
    expect(nodes[0]?.desc).toBe('');
    expect(nodes[0]?.resourceId).toBe('');
  });

  it('a window that does not cover the screen is a dialog dumped alone', () => {
    const r = read({
      state_str: 'd',
      width: 1080,
      height: 2280,
      views: [
        {
          temp_id: 0,
          parent: -1,
          class: 'android.widget.FrameLayout',
          bounds: [
            [28, 900],
            [1052, 1400],
          ],
        },
      ],
    });
    expect(r.snapshot.windows).toMatchObject([{ type: 'dialog', focused: true }]);
  });

  it('bad input is a value naming what is wrong', () => {
    const bad = [
      ['{', /not JSON/],
      [{ views: [] }, /state_str/],
      [{ state_str: 'x', views: [{ temp_id: 0, parent: -1, bounds: [[0, 0]] }] }, /views\.0\.bounds/],
      [
        {
          state_str: 'x',
          views: [
            {
              temp_id: 0,
              parent: -1,
              bounds: [
                [0, 0],
                [1, 1],
              ],
            },
            {
              temp_id: 0,
              parent: -1,
              bounds: [
                [0, 0],
                [1, 1],
              ],
            },
          ],
        },
        /two views with temp_id 0/,
      ],
      [{ state_str: 'x', views: [] }, /screen size is unknown/],
    ] as const;
    for (const [input, message] of bad) {
      const r = readDroidbotState(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });
});
