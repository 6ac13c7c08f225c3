import { describe, expect, it } from 'vitest';
import { listingLines, stateOf, view } from './droidbot-views.js';

/**
 * Issue 22, item 6: a field's multi-line value is one value on its line, its breaks shown as ¶ —
 * raw, the break split the listing's line in two, and a dump without hints repeated it as `=`.
 */

/** A screen holding one EditText with these fields over DroidBot's defaults. */
function fieldScreen(field: Record<string, unknown>): Promise<string[]> {
  return listingLines(
    stateOf([
      view(
        0,
        -1,
        [1],
        [
          [0, 0],
          [1080, 2280],
        ],
        { class: 'android.widget.FrameLayout' },
      ),
      view(
        1,
        0,
        [],
        [
          [40, 300],
          [1040, 900],
        ],
        { class: 'android.widget.EditText', editable: true, clickable: true, ...field },
      ),
    ]),
  );
}

describe('a multi-line field value', () => {
  it('is listed once, on one line, with ¶ for its breaks', async () => {
    const out = await fieldScreen({ focused: true, text: 'Milk\nEggs' });
    const field = out.filter((l) => l.includes('EditText'));
    expect(field).toHaveLength(1);
    expect(field[0]).toMatch(/^[0-9a-f]+ EditText "Milk ¶ Eggs" focused/);
    expect(field[0]).not.toContain('=');
    expect(out.some((l) => l.startsWith('Eggs'))).toBe(false);
  });

  it('named apart from its value, shows the value as one quoted `=` with ¶', async () => {
    const out = await fieldScreen({ content_description: 'Shopping list', text: 'Milk\nEggs' });
    expect(out).toContainEqual(expect.stringMatching(/^[0-9a-f]+ EditText "Shopping list" ="Milk ¶ Eggs"( \d+,\d+)?$/));
  });
});
