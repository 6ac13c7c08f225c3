import { parseIntent } from './intents.js';
import { type ActArgsOut, actForIntent, findElement, isField, isToggle } from './policy.js';
import type { ParsedScreen, PromptStep } from './read-request.js';

/**
 * Where the reference model sends a burst (`action_sequence`, offered in Flash on screens with
 * controls): the next intents whose targets are all on this screen, each a certain action — typing
 * into a field it sees, flipping a switch it sees — and at most one tap that may move on, last, after
 * fields only. A
 * careful model leaves out what would be certain only in hope: a line marked as asking the user
 * (`· asks user`), a credential placeholder (typed only with `type`, into its password field), a
 * target it has to search for. Fewer than two members is no burst: the single action goes as it is.
 *
 * A tap that moves on need not end the burst: the request's plan (the task's steps, its subgoals)
 * says what comes on the screens after it, so the next steps go on there by label — a tap, a field
 * typed into, a switch set to the state the step names (`state`, certain on a screen not seen yet).
 * The agent grounds each on the screen its turn comes on and stops the burst, telling why, where one
 * does not ground; so a guess costs a stop, never a wrong tap. The same care holds on each screen:
 * nothing after a switch or a search but another field or switch.
 */

export interface BurstContext {
  intents: readonly string[];
  /** The first intent of the burst (the current subgoal's). */
  from: number;
  screen: ParsedScreen;
  history: PromptStep[];
  /** The most members one burst may have (the prompt's help line says it; default 8). */
  max: number;
}

interface Member {
  step: Record<string, unknown>;
  expect: string;
  ends: boolean;
  /** Typed into a search field. */
  search?: boolean;
}

/** One intent as a sequence member, when it is certain on this screen. */
function member(line: string, screen: ParsedScreen, history: PromptStep[]): Member | undefined {
  const it = parseIntent(line);
  const [label = '', value = ''] = it.args;
  if (it.verb === 'type') {
    if (value.includes('⟨secret')) return undefined;
    const el = findElement(screen, label, isField);
    if (!el || !isField(el) || el.held || /\[password\]/.test(el.raw)) return undefined;
    return {
      step: { tool: 'control_action', target_id: el.id, op: 'set_text', text: value },
      expect: `element_state ${el.id} text=${value}`,
      ends: false,
      search: /search|搜索/i.test(`${label} ${el.text} ${el.resourceId}`),
    };
  }
  if (it.verb === 'toggle' || it.verb === 'tap') {
    const one = actForIntent(line, screen, history);
    if (one.tool !== 'tap' || typeof one.target_id !== 'string' || one._search) return undefined;
    const el = screen.elements.find((e) => e.id === one.target_id);
    if (!el || el.held) return undefined;
    // A switch stays where it is; any other tap may move on: nothing after it is certain.
    return {
      step: { tool: 'control_action', target_id: el.id, op: 'click' },
      expect: String(one.expect),
      ends: !isToggle(el),
    };
  }
  return undefined;
}

/** One intent as a member on a screen a tap before it opens: by its label, when it is certain there. */
function nextScreenMember(line: string): Member | undefined {
  const it = parseIntent(line);
  const [label = '', value = ''] = it.args;
  if (!label) return undefined;
  const step = (extra: Record<string, unknown>) => ({ tool: 'control_action', label, ...extra });
  if (it.verb === 'type' && !value.includes('⟨secret'))
    return {
      step: step({ op: 'set_text', text: value }),
      expect: 'page_changes',
      ends: false,
      search: /search|搜索/i.test(label),
    };
  // A switch is set to the state its step names: clicked only when it is not in it.
  if (it.verb === 'toggle' && (value === 'on' || value === 'off'))
    return { step: step({ op: 'click', state: value }), expect: 'page_changes', ends: false };
  // What a careful model expects of a tap it cannot name by id: the page changes, or (a stepper's
  // "+", marked `changes`) anything on it does.
  if (it.verb === 'tap')
    return { step: step({ op: 'click' }), expect: value === 'changes' ? 'screen_changes' : 'page_changes', ends: true };
  return undefined;
}

/** A burst from `from` on, or undefined when fewer than two intents are certain here. */
export function burstFor(ctx: BurstContext): { args: ActArgsOut; covered: number } | undefined {
  const members: Member[] = [];
  // The members since the last tap that moved on: the screen they share.
  let screen: Member[] = [];
  let moved = false;
  for (let i = ctx.from; i < ctx.intents.length && members.length < ctx.max; i++) {
    const line = ctx.intents[i] ?? '';
    const m = moved ? nextScreenMember(line) : member(line, ctx.screen, ctx.history);
    if (!m) break;
    // A tap after a switch or an option is not certain: what they change may change its control too
    // (a price on the Add button), and the phone refuses a member whose control changed (STALE).
    // Nor is a tap after a search: the list it picks from changes with what was typed.
    if (m.ends && screen.some((x) => x.step.op !== 'set_text' || x.search)) break;
    members.push(m);
    screen.push(m);
    if (m.ends) {
      moved = true;
      screen = [];
    }
  }
  if (members.length < 2) return undefined;
  const last = members[members.length - 1] as Member;
  return {
    args: {
      thought: `${members.length} certain steps on this screen, in one go`,
      tool: 'action_sequence',
      steps: members.map((m) => m.step),
      expect: last.expect,
      subgoal_done: true,
    },
    covered: members.length,
  };
}
