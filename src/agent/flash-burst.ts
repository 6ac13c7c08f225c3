import type { Element, Expect, Observation } from '../core/types.js';
import type { PlannedStep } from '../planner/act-tool.js';
import type { PendingBurst } from '../store/checkpoint.js';
import { actionSequence } from '../tools/action-sequence.js';
import { waitUntil } from '../tools/wait-until.js';

/**
 * A burst that crosses a page (issue 25): members after a tap that may open another screen name
 * their control by label, and each is grounded on the screen its turn comes on — never by an id of
 * the screen the burst was decided on. The burst runs in parts, one step each: the part up to the
 * tap that may move on, then (on the next screen, with no model call) the members grounded there,
 * up to the next such tap, and so on. Between parts the executor's light check; the last part is
 * checked in full and carries what the model sent with the burst (its expectation, subgoal_done,
 * plan). A member that does not ground on its screen — no control with that label, or more than
 * one — stops the burst there: nothing is pressed on a guess, and the model is told where and why.
 * What is left between parts is run state (checkpointed): a resumed run goes on from it.
 */

export type { PendingBurst };

type Member = PendingBurst['members'][number] & { target_id?: string };

/** What a step runs of a burst: a part (and what is left after it), or why nothing of it runs. */
export type BurstPart =
  /** No member by label: the burst runs whole, as it was sent. */
  | { kind: 'whole' }
  /**
   * This part runs now; `rest` goes on after it; `stop` is what the model is told once it ran.
   * `before`: the members that ran in earlier parts; `first`: the model's number of this part's first member.
   */
  | { kind: 'part'; planned: PlannedStep; rest?: PendingBurst; stop?: string; before: string[]; first: number }
  /** Nothing runs: `note` for the step's record, `hint` for the model. */
  | { kind: 'stopped'; note: string; hint: string };

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/** The names a control answers to: the listing's label, its title before " — " (a row's summary), text, description, hint. */
function names(e: Element): string[] {
  const label = e.label ?? '';
  return [label, label.split(' — ')[0] ?? '', e.text, e.desc, e.hint ?? ''].filter(Boolean).map(norm);
}

const op = (m: { tool: string; args: Record<string, unknown> }) => String(m.args.action ?? m.args.condition ?? m.tool);
/** A press that may open another screen: a click or long click on anything but a switch or box. */
const movesOn = (m: Member, e: Element | undefined) => /^(click|long_click)$/.test(op(m)) && !e?.flags.checkable;

/** How the model is told about a member: `click "Internet"`. */
export function shown(m: Member, e?: Element): string {
  const label = m.label ?? (e && (e.label || e.text || e.desc)) ?? '';
  return label ? `${op(m)} "${label}"` : op(m);
}

const startsAs = (name: string, want: string) =>
  name.startsWith(want) && /^(\s|[:：(（—·,])/u.test(name.slice(want.length));

/** The one control a member by label names on this screen, or why there is none. */
export function ground(m: Member, obs: Observation): { el: Element } | { why: string } {
  const want = norm(m.label ?? '');
  const fits = (e: Element) => m.tool === waitUntil.name || (op(m) === 'set_text' ? e.flags.editable : e.actionable);
  const pool = obs.elements.filter(fits);
  // Its name exactly; else the one name it begins, up to a word's end ("To" for "To: name or number",
  // "Saved card" for "Saved card Visa •••• 3106") — two such names are no grounding.
  const exact = pool.filter((e) => names(e).includes(want));
  let hits = exact.length ? exact : pool.filter((e) => names(e).some((n) => startsAs(n, want)));
  // A switch's row and the switch itself may share the label: the state names the switch.
  if (m.state && hits.length > 1) hits = hits.filter((e) => e.flags.checkable);
  const [el, ...more] = hits;
  if (!el) return { why: `no control labelled "${m.label}" on this screen` };
  if (more.length) return { why: `${hits.length} controls are labelled "${m.label}" on this screen` };
  if (m.state && !el.flags.checkable) return { why: `"${m.label}" is no switch here (state=${m.state} needs one)` };
  return { el };
}

/** The whole burst's members, when it names one by label; else undefined (it runs as it was sent). */
function members(planned: PlannedStep): Member[] | undefined {
  const a = planned.decision.action;
  if (a.tool !== actionSequence.name || !Array.isArray(a.args?.actions)) return undefined;
  const ms = a.args.actions as Member[];
  return ms;
}

/**
 * A burst as the model sent it, on the screen it was decided on: whole when no member names a
 * label; refused up front when a member names an id after one that may open another screen (that
 * id is this screen's); else its first part, and the rest to ground on the screens after.
 */
export function firstPart(planned: PlannedStep, obs: Observation): BurstPart {
  const ms = members(planned);
  if (!ms) return { kind: 'whole' };
  let moved = -1;
  for (const [i, m] of ms.entries()) {
    const e = m.target_id ? obs.elements.find((x) => x.id === m.target_id) : undefined;
    if (moved >= 0 && m.target_id) {
      const why = `member ${i + 1} names [${m.target_id}] by id after member ${moved + 1} (${shown(ms[moved] as Member)}), which may open another screen`;
      return {
        kind: 'stopped',
        note: `action_sequence refused: ${why}; nothing ran`,
        hint: `Your action_sequence was refused: ${why}, where this screen's ids mean nothing. Nothing of it ran. Give a member after such a tap by label ("label":"…" instead of target_id).`,
      };
    }
    if (m.target_id && movesOn(m, e) && moved < 0) moved = i;
  }
  const first = ms.findIndex((m) => m.label !== undefined);
  if (first < 0) return { kind: 'whole' };
  const d = planned.decision;
  const pending: PendingBurst = {
    members: ms.slice(first).map(({ tool, label, state, args }) => ({
      tool,
      args,
      ...(label ? { label } : {}),
      ...(state ? { state } : {}),
    })),
    next: first + 1,
    ran: ms.slice(0, first).map((m) =>
      shown(
        m,
        obs.elements.find((x) => x.id === m.target_id),
      ),
    ),
    expect: d.expect,
    subgoalDone: planned.subgoalDone,
    ...(planned.revisedPlan ? { plan: planned.revisedPlan } : {}),
    thought: d.thought,
  };
  // Its first member by label is on this screen: grounded here, like any part.
  if (first === 0) return nextPart(pending, obs, true);
  return { kind: 'part', planned: partStep(pending, ms.slice(0, first), false), rest: pending, before: [], first: 1 };
}

/**
 * The next part of a burst on the screen its turn came on: its members grounded here, up to and
 * including one that may open another screen (the rest wait for that one); a switch already in the
 * state asked for is only checked there (a wait that it is on screen), never pressed.
 */
export function nextPart(p: PendingBurst, obs: Observation, decidedHere = false): BurstPart {
  const part: Member[] = [];
  const ran: string[] = [];
  let stop: string | undefined;
  let i = 0;
  for (const m of p.members) {
    if (m.label === undefined) {
      part.push(m);
      i++;
      continue;
    }
    const g = ground(m, obs);
    if ('why' in g) {
      stop = stoppedHint(`member ${p.next + i} (${shown(m)})`, g.why, [...p.ran, ...ran]);
      break;
    }
    const already = m.state !== undefined && g.el.flags.checked === (m.state === 'on');
    const state = m.state ? { state: m.state } : {};
    part.push(
      already
        ? { tool: waitUntil.name, target_id: g.el.id, args: { condition: 'appears' }, ...state }
        : { tool: m.tool, target_id: g.el.id, args: m.args, ...state },
    );
    ran.push(shown(m, g.el));
    i++;
    if (!already && movesOn(m, g.el)) break;
  }
  if (!part.length) {
    const hint = stop ?? stoppedHint(`member ${p.next}`, 'nothing of it is left to run', p.ran);
    return { kind: 'stopped', note: hint.replace(/^Your /, 'the '), hint };
  }
  const left = p.members.slice(i);
  const rest: PendingBurst | undefined =
    !stop && left.length ? { ...p, members: left, next: p.next + i, ran: [...p.ran, ...ran] } : undefined;
  const last = !rest && !stop;
  const planned = partStep(p, part, last, last && !decidedHere ? obs : undefined);
  return { kind: 'part', planned, rest, stop, before: [...p.ran], first: p.next };
}

/**
 * A part as a step: the last one carries what the model sent with the whole burst — its plan and
 * subgoal_done, and its expectation as sent when it runs on the screen the burst was decided on
 * (`obs` absent). On another screen what its last member sets is checked (a switch's state, a
 * field's text); else the expectation as sent when it names no element (an id of the first screen
 * means nothing here), else that the screen changes. Any other part only has to change the screen.
 */
function partStep(p: PendingBurst, part: Member[], last: boolean, obs?: Observation): PlannedStep {
  const action = { tool: actionSequence.name, args: { actions: part } };
  if (!last)
    return {
      decision: {
        thought: p.thought,
        action,
        expect: { kind: 'screen_changes', note: `a part of the burst (member ${p.next}…)` },
      },
      subgoalDone: false,
    };
  return {
    decision: { thought: p.thought, action, expect: lastExpect(p.expect, part.at(-1), obs) },
    subgoalDone: p.subgoalDone,
    ...(p.plan ? { revisedPlan: [...p.plan] } : {}),
  };
}

function lastExpect(sent: Expect, m: Member | undefined, obs: Observation | undefined): Expect {
  const e = obs && m?.target_id ? obs.elements.find((x) => x.id === m.target_id) : undefined;
  if (!obs || !m) return sent;
  if (e && m.state) return { kind: 'element_state', target_id: e.id, state: m.state };
  if (e && op(m) === 'set_text') return { kind: 'element_state', target_id: e.id, state: `text=${m.args.text}` };
  return sent.target_id ? { kind: 'screen_changes', note: 'the last part of the burst' } : sent;
}

/**
 * What the model is told when a burst stops before one of its members: which, why, and what ran
 * before it (the guarded stop in ./burst-stop.ts says it the same way).
 */
export function stoppedHint(what: string, why: string, ran: readonly string[]): string {
  const before = ran.length ? `the ${ran.length} member(s) before it ran (${ran.join(', ')})` : 'nothing of it ran';
  return `Your action_sequence stopped before ${what}: ${why}; ${before}. Go on from this screen.`;
}
