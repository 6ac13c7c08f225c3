import type { ParsedPrompt } from './read-request.js';

/**
 * The reference model's answer to Explore's `describe_page` (issue 25), from the fenced screen
 * alone, as a model would write it: what the page is (its title and first controls) and, per listed
 * control with a label, what tapping it does in the words its verb implies. Deterministic, so CI can
 * run Explore and check the knowledge file it writes.
 */

const TITLE = /^app \S+ "([^"]*)"/m;

const VERB_WORDS: Record<string, (label: string) => string> = {
  tap: (l) => `opens or does "${l}"`,
  toggle: (l) => `switches "${l}" on or off`,
  fill: (l) => `a field for ${l}`,
  slide: (l) => `adjusts ${l}`,
  scroll: (l) => `scrolls ${l}`,
  long: (l) => `long-press for "${l}"`,
};

export function describeScreen(p: ParsedPrompt): { page: string; elements: { id: string; text: string }[] } {
  const title = TITLE.exec(p.screen.raw.trim())?.[1] || p.app || 'this app';
  const labelled = p.screen.elements.filter((e) => e.text);
  const first = labelled
    .slice(0, 3)
    .map((e) => `"${e.text}"`)
    .join(', ');
  return {
    page: `The ${title} screen${first ? `, with ${first}` : ''}.`,
    elements: labelled.map((e) => ({ id: e.id, text: (VERB_WORDS[e.verb] ?? VERB_WORDS.tap)?.(e.text) ?? e.text })),
  };
}
