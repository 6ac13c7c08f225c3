import { describe, expect, it } from 'vitest';
import { heldTaps } from '../../src/agent/held-taps.js';
import type { Element, Observation } from '../../src/core/types.js';
import { element, observation } from '../planner/fixtures.js';

/** Which taps the guard would hold, per control, by the executor's own rule and the run's config. */

const control = (id: string, text: string, over: Partial<Element> = {}): Element => element(id, text, 1, over);
const screen = (pkg: string, elements: Element[], texts: string[] = []): Observation =>
  observation({ app: { package: pkg, activity: '.A', title: '' }, elements, texts, pageHash: 'h' });

describe('heldTaps', () => {
  it('marks the controls a tap would hold, with their categories, and nothing else', () => {
    const obs = screen('com.shop', [
      control('aa000001', 'Checkout'),
      control('aa000002', 'Pay ¥18'),
      control('aa000003', 'Send'),
      control('aa000004', 'Delete draft'),
      control('aa000005', 'Back'),
      control('aa000006', 'Pay', { actionable: false }),
    ]);
    expect(heldTaps(obs)).toEqual({ aa000002: ['payment'], aa000003: ['send'], aa000004: ['delete'] });
  });

  it('a generic OK takes the risk of its dialog, as the guard judges it', () => {
    const obs = screen('com.files', [control('bb000001', 'OK'), control('bb000002', 'Cancel')], ['Delete 3 files?']);
    expect(heldTaps(obs)).toEqual({ bb000001: ['delete'] });
  });

  it("follows the run's guard config: a high-risk app holds every tap", () => {
    const obs = screen('com.bank', [control('cc000001', 'Accounts'), control('cc000002', 'Help')]);
    expect(heldTaps(obs)).toEqual({});
    expect(heldTaps(obs, { apps: { 'com.bank': { all: 'payment' } } })).toEqual({
      cc000001: ['payment'],
      cc000002: ['payment'],
    });
  });
});
