import { z } from 'zod';
import { type Element, type Observation, type Selector, SelectorSchema } from '../core/types.js';
import { matchesSelector } from '../executor/targets.js';
import type { DeviceSession, Observed } from './session.js';

/**
 * How a direct tool names what it acts on (RFC §7): an element id from an observation, an exact
 * selector resolved on a fresh tree in the same call, or a point in a named coordinate space
 * (`normalized` 0..1000, the default, or `pixel` of the full screen), converted once.
 */

export const PointInputSchema = z
  .object({
    x: z.number(),
    y: z.number(),
    space: z.enum(['normalized', 'pixel']).optional().describe('normalized 0..1000 (default) or pixel'),
  })
  .strict();

export const TargetShape = {
  element_id: z.string().optional().describe('an element id from observe (e.g. "e7a3f2c1")'),
  selector: SelectorSchema.optional().describe(
    'exact AND match on resource_id (as listed, e.g. "menu", or in full), text, content_desc, class_name; resolved on a fresh screen read',
  ),
  point: PointInputSchema.optional(),
};

export interface TargetInput {
  element_id?: string;
  selector?: Selector;
  point?: z.infer<typeof PointInputSchema>;
}

export type Resolved =
  | {
      ok: true;
      base: Observed;
      target_id?: string;
      point?: { x: number; y: number };
      element?: Element;
      /** `base` was read in this call. */
      fresh?: boolean;
    }
  | { ok: false; code: string; message: string };

const fail = (code: string, message: string): Resolved => ({ ok: false, code, message });

/** The element a label belongs to when the label itself is not actionable. */
function actionableOf(e: Element, obs: Observation): Element | undefined {
  if (e.actionable) return e;
  return e.actionableAncestorId ? obs.elements.find((x) => x.id === e.actionableAncestorId) : undefined;
}

export async function resolveTarget(s: DeviceSession, t: TargetInput, opts: { required: boolean }): Promise<Resolved> {
  const given = [t.element_id, t.selector, t.point].filter((x) => x !== undefined).length;
  if (given > 1) return fail('INVALID_ARGUMENT', 'give exactly one of element_id, selector or point');
  if (given === 0) {
    if (opts.required) return fail('INVALID_ARGUMENT', 'give one of element_id, selector or point');
    return { ok: true, base: await s.current() };
  }
  if (t.element_id !== undefined) {
    const base = await s.current();
    const id = t.element_id.replace(/[[\]]/g, '');
    const el = base.obs.elements.find((e) => e.id === id);
    if (el) return { ok: true, base, target_id: id, element: el };
    const seenIn = [...Array(base.revision).keys()]
      .reverse()
      .find((r) => s.revisions.get(r)?.elements.some((e) => e.id === id));
    return seenIn
      ? fail(
          'STALE',
          `element ${id} was on screen in revision ${seenIn} but is not on the current screen (revision ${base.revision}); call observe and use an id from it`,
        )
      : fail('NOT_FOUND', `no element ${id} in any recent observation; call observe and use an id from it`);
  }
  if (t.selector !== undefined) {
    // Resolve on a fresh tree: the selector names what is there now.
    const base = await s.observe();
    const hits = base.obs.elements.filter((e) => matchesSelector(e, t.selector as Selector));
    if (hits.length === 0)
      return fail('ELEMENT_NOT_FOUND', `no element matches ${JSON.stringify(t.selector)} (revision ${base.revision})`);
    if (hits.length > 1)
      return fail(
        'AMBIGUOUS_TARGET',
        `${hits.length} elements match ${JSON.stringify(t.selector)}: ${hits
          .slice(0, 5)
          .map((e) => e.id)
          .join(', ')}; add resource_id or class_name, or use an element_id`,
      );
    const el = actionableOf(hits[0] as Element, base.obs);
    if (!el?.flags.enabled)
      return fail(
        'ELEMENT_NOT_INTERACTABLE',
        `the element matching ${JSON.stringify(t.selector)} is ${el ? 'disabled' : 'not actionable'}`,
      );
    return { ok: true, base, target_id: el.id, element: el, fresh: true };
  }
  const p = t.point as NonNullable<TargetInput['point']>;
  const base = await s.current();
  const { w, h } = base.obs.screen;
  const n = p.space === 'pixel' ? { x: (p.x / w) * 1000, y: (p.y / h) * 1000 } : { x: p.x, y: p.y };
  if (!(n.x >= 0 && n.x <= 1000 && n.y >= 0 && n.y <= 1000))
    return fail(
      'INVALID_ARGUMENT',
      `point (${p.x}, ${p.y}) is outside the screen (${p.space === 'pixel' ? `${w}x${h} pixels` : '0..1000 normalized'})`,
    );
  return { ok: true, base, point: { x: Math.round(n.x), y: Math.round(n.y) } };
}
