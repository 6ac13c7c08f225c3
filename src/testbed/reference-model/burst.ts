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

/** A burst from `from` on, or undefined when fewer than two intents are certain here. */
export function burstFor(ctx: BurstContext): { args: ActArgsOut; covered: number } | undefined {
  const members: Member[] = [];
  for (let i = ctx.from; i < ctx.intents.length && members.length < ctx.max; i++) {
    const m = member(ctx.intents[i] ?? '', ctx.screen, ctx.history);
    if (!m) break;
    // A tap after a switch or an option is not certain: what they change may change its control too
    // (a price on the Add button), and the phone refuses a member whose control changed (STALE).
    // Nor is a tap after a search: the list it picks from changes with what was typed.
    if (m.ends && members.some((x) => x.step.op !== 'set_text' || x.search)) break;
    members.push(m);
    if (m.ends) break;
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
