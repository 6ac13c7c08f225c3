import type { ActArgsOut } from './policy.js';
import type { ParsedScreen, PromptStep } from './read-request.js';

/**
 * Seeded mistakes of the kinds real models make, so the recovery machinery is measured: a wrong
 * element (with the intended expectation, as a mis-grounded model would write), an invented id, an
 * off-target point without an id, malformed JSON, repeating a failing action, and claiming done
 * before the plan is finished — and the shapes a capable model uses that the oracle would not: a
 * summary on `done`, an app named by its label in `expect app_foreground`, a `look`, a `note`, a
 * plan revision (the remaining subgoals restated), a `read` that completes a subgoal already
 * reached (instead of a dummy wait), and `plan=[]` on the action after which only `done` is left
 * (instead of subgoal_done), offered tools only.
 */

export type NoiseKind =
  | 'wrong_element'
  | 'invented_id'
  | 'off_target_point'
  | 'malformed_json'
  | 'repeat_failure'
  | 'early_done'
  | 'done_summary'
  | 'label_foreground'
  | 'look'
  | 'note'
  | 'plan_revision'
  | 'read_done'
  | 'plan_empty';
export const NOISE_KINDS: readonly NoiseKind[] = [
  'wrong_element',
  'invented_id',
  'off_target_point',
  'malformed_json',
  'repeat_failure',
  'early_done',
  'done_summary',
  'label_foreground',
  'look',
  'note',
  'plan_revision',
  'read_done',
  'plan_empty',
];

export interface NoisyReply {
  /** The function-call arguments as text (possibly broken JSON). */
  text: string;
  noise?: NoiseKind;
}

export interface NoiseInput {
  args: ActArgsOut;
  screen: ParsedScreen;
  history: PromptStep[];
  /** Whether subgoals after the current one remain. */
  moreSubgoals: boolean;
  /** Tools the request offers (its act schema's tool enum). */
  offered?: ReadonlySet<string>;
  /** The plan's subgoals from the current one on, for a plan revision that changes nothing. */
  remainingPlan?: string[];
}

export function applyNoise(input: NoiseInput, rate: number, random: () => number): NoisyReply {
  const { args, screen, history } = input;
  if (rate <= 0 || random() >= rate) return { text: JSON.stringify(args) };
  const failing = [...history].reverse().find((h) => !h.ok && /\[[0-9a-f]{3,8}/.test(h.action));
  const others = screen.elements.filter((e) => e.id !== args.target_id && e.verb !== 'scroll');
  // The policy's "already in that state" step: a wait that changes nothing and closes the subgoal.
  const alreadyReached = args.tool === 'wait' && args.subgoal_done === true;
  const named = /^"(.+)" is already/.exec(args.thought)?.[1];
  const readable = screen.elements.find((e) => named !== undefined && e.text.includes(named));
  // After this action only a bare `done` (or nothing) is left: plan=[] says the same.
  const onlyDoneLeft = !input.moreSubgoals || (input.remainingPlan ?? ['?']).slice(1).every((t) => t === 'done');
  const applicable = NOISE_KINDS.filter((k) => {
    if (k === 'wrong_element') return typeof args.target_id === 'string' && others.length > 0;
    // A point near the target needs the target's centre on its line (a model has nothing else).
    if (k === 'off_target_point')
      return (
        typeof args.target_id === 'string' &&
        args.tool === 'tap' &&
        screen.elements.find((e) => e.id === args.target_id)?.x !== undefined
      );
    if (k === 'repeat_failure') return failing !== undefined;
    if (k === 'early_done') return input.moreSubgoals && args.tool !== 'done';
    if (k === 'done_summary') return args.tool === 'done' && !args.text;
    if (k === 'label_foreground') return args.tool === 'launch_app' && typeof args.package === 'string';
    if (k === 'look' || k === 'note') return input.offered?.has(k) === true && args.tool !== 'done';
    if (k === 'plan_revision') return (input.remainingPlan?.length ?? 0) > 0;
    if (k === 'read_done') return alreadyReached && readable !== undefined && input.offered?.has('read') === true;
    if (k === 'plan_empty') return args.subgoal_done === true && args.tool !== 'done' && onlyDoneLeft;
    return true;
  });
  const kind = applicable[Math.floor(random() * applicable.length)] ?? 'malformed_json';
  const out: Record<string, unknown> = { ...args };
  switch (kind) {
    case 'wrong_element': {
      const other = others[Math.floor(random() * others.length)];
      out.target_id = other?.id;
      break;
    }
    case 'invented_id':
      out.target_id = Math.floor(random() * 0xffffffff)
        .toString(16)
        .padStart(8, '0');
      if (!out.expect) out.tool = 'tap';
      if (!out.expect) out.expect = 'page_changes';
      break;
    case 'off_target_point': {
      const el = screen.elements.find((e) => e.id === args.target_id);
      const dx = Math.round((random() - 0.5) * 60);
      const dy = Math.round((random() - 0.5) * 30);
      out.target_id = undefined;
      out.point = { x: (el?.x ?? 500) + dx, y: (el?.y ?? 500) + dy };
      break;
    }
    case 'malformed_json': {
      const s = JSON.stringify(args);
      return { text: s.slice(0, Math.max(1, Math.floor(s.length * 0.6))), noise: kind };
    }
    case 'repeat_failure': {
      const m = /^(\w+) \[([0-9a-f]{3,8}(?:~\d+)?)\]/.exec(failing?.action ?? '');
      out.tool = m?.[1] ?? 'tap';
      out.target_id = m?.[2];
      out.thought = 'try that again';
      out.expect = 'page_changes';
      break;
    }
    case 'early_done':
      for (const k of Object.keys(out)) delete out[k];
      Object.assign(out, { thought: 'looks finished', tool: 'done' });
      break;
    case 'done_summary': {
      // What a model writes when nothing was asked: a report of what it did, not an answer.
      const last = [...history].reverse().find((h) => h.ok)?.action ?? 'the task';
      out.text = `Done — finished with ${last.replace(/\[[0-9a-f~]+\]\s*/g, '').slice(0, 60)}.`;
      break;
    }
    case 'label_foreground':
      out.expect = `app_foreground ${String(args.package)}`;
      break;
    case 'look':
      for (const k of Object.keys(out)) delete out[k];
      Object.assign(out, { thought: 'let me look at the screen first', tool: 'look', expect: 'no_change' });
      break;
    case 'note':
      for (const k of Object.keys(out)) delete out[k];
      Object.assign(out, {
        thought: 'keep the goal in mind',
        tool: 'note',
        text: `next: ${input.remainingPlan?.[0] ?? 'finish'}`,
        expect: 'no_change',
      });
      break;
    case 'plan_revision':
      out.plan = input.remainingPlan;
      break;
    case 'read_done':
      for (const k of Object.keys(out)) delete out[k];
      Object.assign(out, {
        thought: `${args.thought}: read it, and that subgoal is done`,
        tool: 'read',
        target_id: readable?.id,
        subgoal_done: true,
        expect: 'no_change',
      });
      break;
    case 'plan_empty':
      // Nothing is left after this action: said by the plan instead of subgoal_done.
      delete out.subgoal_done;
      out.plan = [];
      break;
  }
  return { text: JSON.stringify(out), noise: kind };
}
