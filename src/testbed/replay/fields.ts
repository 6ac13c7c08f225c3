import { type Point, rectContains } from '../../core/geometry.js';
import type { Field } from './match.js';
import type { Shown } from './state-cache.js';

/**
 * Text fields of a shown state as the replay tracks them (by temp_id and DroidBot's view hash, so a
 * field is found again in the state a recorded tap moved to).
 */

/** The field made from snapshot node `nodeId`, when it is editable. */
export function fieldOfNode(shown: Shown, nodeId: number): Field | undefined {
  const { read, state } = shown;
  const n = read.snapshot.nodes.find((x) => x.id === nodeId);
  if (!n?.flags.editable) return undefined;
  const v = state.views.find((x) => read.nodeOf.get(x.temp_id) === nodeId);
  return v ? { tempId: v.temp_id, viewStr: v.view_str ?? undefined, bounds: n.bounds } : undefined;
}

/** The innermost visible editable view at `p`. */
export function fieldAt(shown: Shown, p: Point): Field | undefined {
  let best: Field | undefined;
  for (const n of shown.read.snapshot.nodes) {
    if (!n.flags.editable || !n.flags.visible || !rectContains(n.bounds, p)) continue;
    best = fieldOfNode(shown, n.id) ?? best;
  }
  return best;
}

/** The field the recording itself shows focused. */
export function recordedFocus(shown: Shown): Field | undefined {
  const n = shown.read.snapshot.nodes.find((x) => x.flags.focused && x.flags.editable);
  return n ? fieldOfNode(shown, n.id) : undefined;
}

/** `field` as it is in `shown` (another state): by its hash, else as it was. */
export function refind(shown: Shown, field: Field): Field {
  const v = field.viewStr ? shown.state.views.find((x) => x.view_str === field.viewStr) : undefined;
  return v ? { ...field, tempId: v.temp_id } : field;
}
