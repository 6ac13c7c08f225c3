import type { Element, Observation } from '../core/types.js';
import { labelOf } from './side-effects.js';

/**
 * Did a navigating tap land where the model meant? When the element acted on is not the one the
 * expectation names, "element_gone <intended>" holds merely because the whole page went away. The
 * new page then tells which of the two was opened: its title and text share words with the tapped
 * element's label and none with the intended one's (tapped "Help", expected "Promo", landed on
 * "Help Center").
 */

const NOISE_WORDS = new Set(['http', 'https', 'www', 'com', 'org', 'net', 'the', 'and', 'for', 'with']);

/** Words a page and a label can share: latin words of 3+ letters, numbers, CJK character pairs. */
export function keyTokens(s: string): Set<string> {
  const out = new Set<string>();
  const lower = s.toLowerCase();
  for (const m of lower.matchAll(/[\p{Script=Latin}\d]{3,}/gu))
    if (!NOISE_WORDS.has(m[0]) && !/^\d+$/.test(m[0])) out.add(m[0]);
  for (const m of lower.matchAll(/\p{Script=Han}+/gu)) {
    const run = m[0];
    if (run.length === 1) out.add(run);
    for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  }
  return out;
}

function pageText(o: Observation): string {
  return [o.app.title, ...o.windows.map((w) => w.title), ...o.elements.flatMap((e) => [e.text, e.desc]), ...o.texts]
    .filter(Boolean)
    .join(' \n ');
}

export interface WrongLanding {
  /** Words of the tapped element's label that the new page shows. */
  shared: string[];
}

/**
 * The new page is about the element actually tapped and not about the intended one. Only decided
 * when the two labels have words of their own; an unrelated page (a dialog closed, a plain list)
 * proves nothing either way and passes.
 */
export function wrongLanding(post: Observation, acted: Element, intended: Element): WrongLanding | undefined {
  const a = keyTokens(labelOf(acted));
  const b = keyTokens(labelOf(intended));
  const onlyActed = [...a].filter((t) => !b.has(t));
  const onlyIntended = [...b].filter((t) => !a.has(t));
  if (onlyActed.length === 0 || onlyIntended.length === 0) return undefined;
  const page = keyTokens(pageText(post));
  const shared = onlyActed.filter((t) => page.has(t));
  if (shared.length === 0 || onlyIntended.some((t) => page.has(t))) return undefined;
  return { shared };
}
