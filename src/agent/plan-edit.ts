import type { Subgoal } from '../planner/prompt/types.js';
import type { DeepReadonly } from './run-state.js';

/**
 * The plan's bookkeeping, in one place (the reducer's `executed`, `meta`, `subgoal_closed` and
 * `plan_revised` events call these; the step's history note previews them). The rule the tool help
 * states (src/planner/prompt/builders.ts):
 * - `subgoal_done=true` ticks the [>] subgoal; `subgoal_done=N` ticks every open one from the [>]
 *   one up to subgoal N (numbers as the Plan lists them): one action may finish two subgoals.
 * - then `plan=[…]` is what is left: it replaces the open subgoals, in the order given; done ones
 *   stay [x] in their place. An open one it leaves out is dropped, never ticked (a subgoal replaced
 *   is not a subgoal done: relay players read ticks as claims), and the history says it was dropped.
 *   `plan=[]`: nothing is left.
 */

type Plan = readonly DeepReadonly<Subgoal>[];
export interface PlanAt {
  plan: Subgoal[];
  current: number;
}

/** Tick the open subgoals from `from` through `through` (both indices); [>] moves to the first open one. */
export function tick(plan: Plan, current: number, from = current, through = from): PlanAt {
  const next = plan.map((p, i) => (i >= from && i <= through ? { ...p, done: true } : { ...p }));
  let at = current;
  while (next[at]?.done) at++;
  return { plan: next, current: at };
}

/** `plan=[…]` applied: the done subgoals, then the listed ones (a resent done tail is not new work). */
export function revise(plan: Plan, revised: readonly string[]): PlanAt {
  const done = plan.filter((p) => p.done).map((p) => ({ ...p }));
  const listed = revised.slice(resentDone(done, revised));
  return { plan: [...done, ...listed.map((text) => ({ text, done: false }))], current: done.length };
}

/**
 * How many leading subgoals of a revised plan repeat the end of the done ones (a model resending
 * the whole plan, or its last done steps): those are not new work. A later subgoal with the text of
 * a done one is — the second "Add to cart" of a two-item order.
 */
function resentDone(done: readonly { text: string }[], revised: readonly string[]): number {
  for (let m = Math.min(done.length, revised.length); m > 0; m--) {
    const tail = done.slice(done.length - m);
    if (tail.every((d, i) => d.text === revised[i])) return m;
  }
  return 0;
}

/** What a step that worked does to the plan: whether it ticks, up to which index, and the plan it sent. */
export interface PlanEdit {
  closes: boolean;
  through?: number;
  revised?: readonly string[];
}

/** The plan after a step that worked: its ticks first, then its `plan=[…]`. */
export function edited(plan: Plan, current: number, e: PlanEdit): PlanAt {
  const t = ticked(plan, current, e);
  return e.revised ? revise(t.plan, e.revised) : t;
}

function ticked(plan: Plan, current: number, e: PlanEdit): PlanAt {
  return e.closes
    ? tick(plan, current, current, Math.max(current, e.through ?? current))
    : { plan: plan.map((p) => ({ ...p })), current };
}

/**
 * The history note of a step that ticked more than the [>] subgoal or dropped one: what is ticked
 * now and what is left (`plan: 2–3 ticked; left 4; dropped, not done: "Pay"`). A plain tick says
 * nothing: the next Plan shows it.
 */
export function planEditNote(plan: Plan, current: number, e: PlanEdit): string | undefined {
  const t = ticked(plan, current, e);
  const now = plan.flatMap((p, i) => (!p.done && t.plan[i]?.done ? [i] : []));
  const after = e.revised ? revise(t.plan, e.revised) : t;
  const open = after.plan.filter((p) => !p.done);
  const kept = new Set(open.map((p) => p.text));
  // `plan=[]` says nothing is left (the done gate judges that): no subgoal is named as dropped.
  const dropped = e.revised?.length ? t.plan.filter((p) => !p.done && !kept.has(p.text)) : [];
  if (now.length < 2 && dropped.length === 0) return undefined;
  const left = after.plan.flatMap((p, i) => (p.done ? [] : [i]));
  const parts = [
    ...(now.length ? [`${span(now)} ticked`] : []),
    left.length ? `left ${span(left)}` : 'none left',
    ...(dropped.length ? [`dropped, not done: ${dropped.map((p) => JSON.stringify(p.text)).join(', ')}`] : []),
  ];
  return `plan: ${parts.join('; ')}`;
}

/** Indices as the Plan numbers them: `2`, `2–4`, or `2, 4`. */
function span(ix: readonly number[]): string {
  const n = ix.map((i) => i + 1);
  const first = n[0] as number;
  const last = n[n.length - 1] as number;
  const run = n.every((v, k) => v === first + k);
  return run && n.length > 1 ? `${first}–${last}` : n.join(', ');
}
