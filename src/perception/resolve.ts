import { resolveRef } from '../core/element-ref.js';
import type { Element, Observation } from '../core/types.js';

/**
 * Resolve an element reference the LLM wrote (a full id `a1b2c3d4`, with or without its `~N`
 * ordinal, or a unique prefix as the compact view shows it) against an observation. Expected
 * failures are values; the rule is core's `resolveRef`.
 */
export type ResolveResult =
  | { ok: true; element: Element }
  | { ok: false; code: 'NOT_FOUND' | 'AMBIGUOUS' | 'INVALID_ARGUMENT'; message: string };

export function resolveElementId(o: Observation, ref: string): ResolveResult {
  const r = resolveRef(
    o.elements.map((e) => e.id),
    ref,
  );
  if (!r.ok) return r;
  const element = o.elements.find((e) => e.id === r.id);
  return element ? { ok: true, element } : { ok: false, code: 'NOT_FOUND', message: `no element "${ref}"` };
}
