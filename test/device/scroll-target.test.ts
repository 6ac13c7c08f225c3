import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { targetHits, titleMatches, titleOf } from '../../src/device/protocol/index.js';

/**
 * scroll_to's title match: the cases of helper/conformance/title-cases.json, which the helper's Java
 * (Titles.java, TitleTests) runs too, so the two sides cannot drift apart.
 */

const cases = JSON.parse(
  readFileSync(new URL('../../helper/conformance/title-cases.json', import.meta.url), 'utf8'),
) as {
  titles: [string, string][];
  matches: [string, string, boolean][];
};

describe('scroll_to target_match title', () => {
  it.each(cases.titles)('the title of %j is %j', (text, title) => {
    expect(titleOf(text)).toBe(title);
  });

  it.each(cases.matches)('%j matches %j by title: %s', (actual, wanted, want) => {
    expect(titleMatches(actual, wanted)).toBe(want);
  });

  type N = { text: string; desc: string; cls: string };
  const how = (match: 'exact' | 'title') => ({
    match,
    exact: (n: N, s: { text?: string; content_desc?: string; class_name?: string }) =>
      (s.text === undefined || n.text === s.text) &&
      (s.content_desc === undefined || n.desc === s.content_desc) &&
      (s.class_name === undefined || n.cls === s.class_name),
    fields: (n: N) => n,
  });
  const summary = { text: 'Bluetooth, pairing', desc: '', cls: 'TextView' };
  const row = { text: 'Bluetooth', desc: '', cls: 'TextView' };

  it('an exact node wins; without one, the nodes that match by title; exact mode finds none', () => {
    expect(targetHits([summary, row], { text: 'Bluetooth' }, how('title'))).toEqual({ hits: [row], by: 'exact' });
    expect(targetHits([summary], { text: 'Bluetooth' }, how('title'))).toEqual({ hits: [summary], by: 'title' });
    expect(targetHits([summary], { text: 'Bluetooth' }, how('exact')).hits).toEqual([]);
    // Every other field still matches exactly.
    expect(targetHits([summary], { text: 'Bluetooth', class_name: 'Button' }, how('title')).hits).toEqual([]);
    // A description is matched by title as a text is.
    const icon = { text: '', desc: 'Sourdough ¥18', cls: 'ImageView' };
    expect(targetHits([icon], { content_desc: 'Sourdough' }, how('title')).hits).toEqual([icon]);
  });
});
