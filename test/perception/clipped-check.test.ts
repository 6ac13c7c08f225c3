import { describe, expect, it } from 'vitest';
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
