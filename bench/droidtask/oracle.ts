import type { ActArgsOut } from '../../src/testbed/reference-model/policy.js';
import type { ParsedPrompt } from '../../src/testbed/reference-model/read-request.js';
import type { StepProbe } from './run.js';

/**
 * The scripted model of the harness check (`--model scripted`; not a score): it answers each step
 * with its gold action, choosing the element from the screen listing in the prompt — the line whose
 * centre lies in the gold bounds, nearest their centre — as a model would, so the listing, the
 * prompt, the planner's parse, the replayed scrolls and the scoring are all on the path. A gold
 * element the listing does not show is answered with `infeasible` and scores as a miss: what the
 * harness then reports is how many gold targets the agent's perception can reach at all.
 */

export function scriptedAnswer(p: ParsedPrompt, probe: StepProbe | undefined): ActArgsOut | undefined {
  if (!probe) return undefined;
  const { gold } = probe;
  if (gold.kind === 'done')
    return { thought: 'the goal is reached', tool: 'done', text: 'The screen shows it is done.' };
  if (gold.kind === 'back') return { thought: 'go back', tool: 'back', expect: 'page_changes' };
  if (!probe.onGoldState) {
    const list = p.screen.elements.find((e) => e.verb === 'scroll');
    return {
      thought: 'the target is further down',
      tool: 'swipe',
      direction: 'up',
      ...(list ? { target_id: list.id } : {}),
      expect: 'page_changes',
    };
  }
  const b = gold.anchor?.bounds ?? gold.bounds;
  if (!b) return { thought: 'the gold has no bounds', tool: 'infeasible', text: 'no target' };
  const [[x1, y1], [x2, y2]] = b;
  const { w, h } = probe.screen;
  const n = { left: (x1 / w) * 1000, top: (y1 / h) * 1000, right: (x2 / w) * 1000, bottom: (y2 / h) * 1000 };
  const cx = (n.left + n.right) / 2;
  const cy = (n.top + n.bottom) / 2;
  // The line the harness names (the lean listing places only some lines), else the placed line
  // whose centre lies in the gold bounds, nearest their centre.
  const named = probe.target ? p.screen.elements.find((e) => e.id === probe.target) : undefined;
  const placed = p.screen.elements.flatMap((e) =>
    e.x !== undefined && e.y !== undefined ? [{ e, x: e.x, y: e.y }] : [],
  );
  const inside = placed
    .filter((q) => q.x >= n.left - 1 && q.x <= n.right + 1 && q.y >= n.top - 1 && q.y <= n.bottom + 1)
    .sort((a, c) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(c.x - cx, c.y - cy));
  const el = named ?? inside[0]?.e;
  if (!el) return { thought: 'the gold element is not in the listing', tool: 'infeasible', text: 'not listed' };
  if (gold.kind === 'input')
    return {
      thought: 'type the gold text',
      tool: 'type',
      target_id: el.id,
      text: gold.text ?? '',
      expect: `text_appears ${gold.text ?? ''}`,
    };
  return { thought: `tap "${el.text}"`, tool: 'tap', target_id: el.id, expect: 'page_changes' };
}
