import { describe, expect, it } from 'vitest';
import { readRange } from '../../src/core/range-value.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { look, lookXml, newPhone, open } from './phone.js';

/**
 * Issue 21 item 22 (relay run I): a SeekBar was listed `128/255`, its minimum unsaid. A range
 * control's line gives its value with the track's ends; where the tree has no range (a uiautomator
 * dump, no screenshot read) the line says the value is not readable.
 */
describe('a range control on the listing', () => {
  const seekLine = (listing: string) => listing.split('\n').find((l) => /SeekBar/.test(l)) ?? '';

  it('lists the value with both ends of its range, and the reference reader reads all three back', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.DisplaySettings');
    const { observation } = await look(phone, { screenshot: false });
    const bar = observation.elements.find((e) => e.role === 'SeekBar');
    expect(bar?.range).toBeDefined();
    const line = seekLine(compactView(observation, AGENT_COMPACT));
    const { min = 0, max = 0, current = 0 } = bar?.range ?? {};
    expect(line).toContain(` ${current} (${min}–${max})`);
    expect(readRange(line)).toEqual({ current, min, max });
  });

  it('over plain adb without a screenshot: says the value is not readable', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.DisplaySettings');
    const { observation } = await lookXml(phone);
    const line = seekLine(compactView(observation, AGENT_COMPACT));
    expect(line).toMatch(/SeekBar .*value not readable/);
    expect(readRange(line)).toBeUndefined();
  });
});
