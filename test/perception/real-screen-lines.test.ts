import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

/**
 * Issue 22, lines real apps made unreadable: a toolbar's nameless first image button, `long` on
 * rows a tap opens, and section headers listed only in the footer.
 */

function listing(kids: N[]): { obs: Observation; text: string } {
  const r = parseUiautomatorXml(dumpXml([appWindow(kids, 'com.smt')]));
  if (!r.ok) throw new Error(r.message);
  const obs = observeTree(r.tree).observation;
  return { obs, text: compactView(obs, AGENT_COMPACT) };
}

const IB = 'android.widget.ImageButton';

function toolbar(first: N, id = 'com.smt:id/settings_toolbar'): N {
  return {
    cls: 'android.view.ViewGroup',
    id,
    b: [0, 171, 1080, 347],
    kids: [first, { cls: 'android.widget.TextView', text: 'Settings', b: [200, 220, 500, 300] }],
  };
}

describe('real-screen lines', () => {
  it("names a toolbar's first, start-edge image button without a name 'Navigate up', and nothing else by place", () => {
    const nav = { cls: IB, clickable: true, b: [0, 182, 154, 336] as N['b'] };
    expect(listing([toolbar(nav)]).text).toMatch(/^\S+ ImageButton "Navigate up"$/m);
    // Android's own Toolbar class, without an id, is a toolbar too.
    expect(listing([{ ...toolbar(nav), id: undefined, cls: 'androidx.appcompat.widget.Toolbar' }]).text).toMatch(
      /"Navigate up"/,
    );
    // Its own description wins; a button elsewhere in the bar, or outside any toolbar, is not named.
    expect(listing([toolbar({ ...nav, desc: 'Close' })]).text).toMatch(/^\S+ ImageButton "Close"$/m);
    expect(listing([toolbar({ ...nav, b: [300, 182, 454, 336] })]).text).not.toMatch(/Navigate up/);
    expect(listing([toolbar(nav, 'com.smt:id/header_holder')]).text).not.toMatch(/Navigate up/);
    expect(listing([nav]).text).toMatch(/^\S+ ImageButton \d+,\d+$/m);
  });

  it('writes `long` only where a long press is what the line offers', () => {
    const row = (text: string, y: number): N => ({
      cls: 'android.widget.FrameLayout',
      longClickable: true,
      b: [0, y, 1080, y + 150],
      kids: [{ cls: 'android.widget.TextView', text, b: [40, y + 40, 600, y + 110] }],
    });
    const list: N = {
      cls: 'androidx.recyclerview.widget.RecyclerView',
      scrollable: true,
      b: [0, 400, 1080, 2000],
      kids: [row('7:00 am — Mon', 400), row('9:00 am — Sat', 550)],
    };
    const { text } = listing([
      list,
      { cls: 'android.widget.FrameLayout', longClickable: true, b: [0, 2050, 1080, 2200], kids: [row('Hello', 2050)] },
      { cls: 'android.widget.Button', text: 'SMS', longClickable: true, enabled: false, b: [800, 2250, 1000, 2350] },
    ]);
    // A list's rows are tapped through the list; a disabled button is a button.
    expect(text).toMatch(/^\S+ "9:00 am — Sat"$/m);
    expect(text).not.toMatch(/long "\d/);
    expect(text).toMatch(/^\S+ Button "SMS" disabled$/m);
    // Outside a list, with no other action, the long press is all the line offers.
    expect(text).toMatch(/^\S+ long "Hello"/m);
  });

  it("lists a list's section header above its first row, not in the footer", () => {
    const text = (t: string, b: N['b']): N => ({ cls: 'android.widget.TextView', text: t, b });
    const row = (t: string, y: number): N => ({
      cls: 'android.widget.RelativeLayout',
      clickable: true,
      b: [0, y, 1080, y + 130],
      kids: [text(t, [61, y + 30, 600, y + 100])],
    });
    const { text: out } = listing([
      {
        cls: 'androidx.core.widget.NestedScrollView',
        scrollable: true,
        b: [0, 350, 1080, 2200],
        kids: [
          {
            cls: 'android.widget.LinearLayout',
            b: [0, 350, 1080, 2200],
            kids: [
              text('ALARM TAB', [61, 360, 1080, 460]),
              row('Max reminder duration', 460),
              text('TIMER TAB', [61, 600, 1080, 700]),
              row('Max reminder duration', 700),
              // Centred over the page, an empty list's placeholder heads nothing.
              text('No timers', [400, 900, 680, 960]),
              row('Add timer', 970),
            ],
          },
        ],
      },
    ]);
    const lines = out.split('\n');
    const at = (l: string) => lines.indexOf(l);
    expect(at('section "ALARM TAB"')).toBeGreaterThan(0);
    expect(lines[at('section "ALARM TAB"') + 1]).toMatch(/^\S+ "Max reminder duration" \d+,\d+$/);
    expect(lines[at('section "TIMER TAB"') + 1]).toMatch(/^\S+ "Max reminder duration" \d+,\d+$/);
    expect(out).not.toMatch(/^text: .*TAB/m);
    expect(out).not.toMatch(/section "No timers"/);
    expect(out).toMatch(/^text: "No timers"$/m);
  });
});
