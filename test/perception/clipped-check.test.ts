import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';
import { listingLines as lines, stateOf, view } from './droidbot-views.js';

/**
 * Issue 22, item 4: a settings row cut off at the list's edge keeps its check box's class and state
 * (DroidBot marks the CheckBox child invisible while its row shows). A row whose hidden child is not
 * a check box, or that holds two, says nothing more than a tap.
 */
/** A settings page: one full row with a visible CheckBox, one cut by the screen's bottom with the given children. */
function page(cut: Record<string, unknown>[]) {
  const kids = cut.map((c, i) =>
    view(
      5 + i,
      4,
      [],
      [
        [61, 2155],
        [1019, 2280],
      ],
      { visible: false, ...c },
    ),
  );
  return stateOf(
    [
      view(
        0,
        -1,
        [1, 3, 4],
        [
          [0, 0],
          [1080, 2280],
        ],
        { class: 'android.widget.FrameLayout' },
      ),
      view(
        1,
        0,
        [2],
        [
          [0, 1957],
          [1080, 2133],
        ],
        { class: 'android.widget.RelativeLayout', clickable: true },
      ),
      view(
        2,
        1,
        [],
        [
          [61, 1980],
          [1019, 2110],
        ],
        { class: 'android.widget.CheckBox', checkable: true, checked: true, text: 'Show a character counter' },
      ),
      view(
        3,
        0,
        [],
        [
          [0, 0],
          [1080, 100],
        ],
        { text: 'Settings' },
      ),
      view(
        4,
        0,
        kids.map((k) => k.temp_id),
        [
          [0, 2133],
          [1080, 2280],
        ],
        { class: 'android.widget.RelativeLayout', clickable: true },
      ),
      ...kids,
    ],
    'org.example/.Settings',
  );
}

describe('a half-visible row keeps its check box', () => {
  it('a row whose CheckBox is clipped reads as a CheckBox with the state the tree gives', async () => {
    const out = await lines(
      page([{ class: 'android.widget.CheckBox', checkable: true, checked: false, text: 'Remove accents' }]),
    );
    expect(out).toContainEqual(expect.stringMatching(/^[0-9a-f]+ CheckBox "Show a character counter" on$/));
    expect(out).toContainEqual(expect.stringMatching(/^[0-9a-f]+ CheckBox "Remove accents" off$/));
  });

  it('a clipped child that is not checkable, or two checkable ones, leave the row a plain tap', async () => {
    const plain = await lines(page([{ text: 'Remove accents' }]));
    expect(plain).toContainEqual(expect.stringMatching(/^[0-9a-f]+ "Remove accents"$/));
    const two = await lines(
      page([
        { class: 'android.widget.CheckBox', checkable: true, text: 'Remove accents' },
        { class: 'android.widget.CheckBox', checkable: true, checked: true, text: 'Send on enter' },
      ]),
    );
    expect(two.join('\n')).not.toMatch(/CheckBox "Remove accents/);
  });
});

/** Simple SMS Messenger's settings (DroidTask, ../shared, read in place): the row cut off at the bottom, then scrolled into view. */
const SMS_STATES = path.resolve(import.meta.dirname, '../../../shared/fixtures/droidtask/messenger/states');
const CUT = '2c5664b27094d5b399cec3fa113aa97a1464ec8b9af968fa8018c436587674e6';
const IN_VIEW = 'f7428990ab52dfba4ccb2c79d5cb71b7c0546fd5f953239f826a39d7d99eda03';

async function smsSettings(state: string, previous?: Observation): Promise<Observation> {
  const r = readDroidbotState(JSON.parse(readFileSync(path.join(SMS_STATES, `${state}.json`), 'utf8')));
  if (!r.ok) throw new Error(r.message);
  const p = await perceive({ wire: r.snapshot }, previous ? { previous } : {});
  if (!p.ok) throw new Error(p.message);
  return p.observation;
}

describe('a row cut off at the edge and the same row in view are one element', () => {
  it('keeps its id, class and state from cut off to in view and back (a real recording)', async () => {
    const row = (o: Observation) =>
      o.elements.find((e) => e.resourceId.endsWith('settings_use_simple_characters_holder'));
    const cut = await smsSettings(CUT);
    const inView = await smsSettings(IN_VIEW, cut);
    const cutAgain = await smsSettings(CUT, inView);
    const seen = [cut, inView, cutAgain].map(row);
    expect(seen.map((e) => e?.role)).toEqual(['CheckBox', 'CheckBox', 'CheckBox']);
    expect(seen.map((e) => e?.flags.checked)).toEqual([false, false, false]);
    // Its bounds differ (cut at the screen's bottom, then higher up): the id follows the row.
    expect(seen[0]?.bounds).not.toEqual(seen[1]?.bounds);
    expect(new Set(seen.map((e) => e?.id)).size).toBe(1);
  });
});
