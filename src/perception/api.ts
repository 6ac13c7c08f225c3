import type { Observation } from '../core/types.js';
import { type CompactOptions, compactView } from './compact.js';
import { compactDelta, diffObservations } from './delta.js';

/** Short names the loop uses: `compact(obs)` and `delta(prev, obs)` as text for the LLM. */
export function compact(o: Observation, options?: CompactOptions): string {
  return compactView(o, options);
}

export function delta(prev: Observation, next: Observation, options?: CompactOptions): string {
  return compactDelta(diffObservations(prev, next), next, options);
}
