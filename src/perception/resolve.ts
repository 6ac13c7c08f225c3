import type { Element, Observation } from '../core/types.js';

/**
 * Resolve an element reference the LLM wrote (a full id `a1b2c3d4`, with or without its `~N`
 * ordinal, or a unique prefix of ≥ 4 hex digits as the compact view may show) against an
 * observation. Expected failures are values.
 */
export type ResolveResult =
  | { ok: true; element: Element }
  | { ok: false; code: 'NOT_FOUND' | 'AMBIGUOUS' | 'INVALID_ARGUMENT'; message: string };

const REF_RE = /^\[?([0-9a-f]{4,8})(~\d+)?\]?$/i;

export function resolveElementId(o: Observation, ref: string): ResolveResult {
  const m = REF_RE.exec(ref.trim());
  if (!m) {
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `"${ref}" is not an element id (expected 8 hex digits, e.g. e7a3f2c1)`,
    };
  }
  const hex = m[1].toLowerCase();
  const ord = m[2] ?? '';
  const exact = o.elements.find((e) => e.id === `${hex}${ord}`);
  if (exact) return { ok: true, element: exact };
  const matches = o.elements.filter((e) => {
    const [h, k] = e.id.split('~');
    return h.startsWith(hex) && (ord === '' ? k === undefined : `~${k}` === ord);
  });
  if (matches.length === 1) return { ok: true, element: matches[0] };
  if (matches.length > 1) {
    return { ok: false, code: 'AMBIGUOUS', message: `"${ref}" matches ${matches.length} elements; use the full id` };
  }
  return {
    ok: false,
    code: 'NOT_FOUND',
    message: `no element "${ref}" on the current screen; re-read the observation`,
  };
}
