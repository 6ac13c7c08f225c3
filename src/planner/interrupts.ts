import { classifyText, termMatches } from '../core/risk-lexicon.js';
import type { Decision, Element, Observation, WindowInfo } from '../core/types.js';
import { isSpecialAccess, judgePermission, type TaskContext } from './permission-rule.js';
import { agentTool, type ToolCatalog } from './tool-spec.js';

/**
 * Interrupt rules that run before the LLM (article §5.2): permission prompts, update offers, rating
 * requests and promotions are handled by rule, without spending a model call. A dialog that belongs
 * to the task — anything with pay/send/delete/confirm-order semantics — is never "dismissed" here;
 * it goes to the planner (and the guardrails). A permission prompt the rule may not grant
 * (./permission-rule.ts) is handed to the user: the run stops and asks.
 */

export type InterruptKind = 'permission' | 'update' | 'rating' | 'promo' | 'notification';

export interface InterruptMatch {
  kind: InterruptKind;
  /** The window the interrupt lives in (tries are counted per kind + window title). */
  key: string;
  decision: Decision;
  /**
   * What the rule did, naming what it handled (`rating dialog "Enjoying the app?" dismissed`,
   * `Contacts asked for access to your contacts: allowed …`): the decision's thought, the step
   * record's note and the history line's note.
   */
  reason: string;
  /** The name the history shows for the element acted on, where its own label must not be repeated. */
  label?: string;
}

/** A prompt the rule must not answer (a permission it may not grant): the run stops and asks the user. */
export interface InterruptHandOver {
  kind: 'hand_over';
  reason: string;
}

const KIND_WORDS: Record<Exclude<InterruptKind, 'notification'>, RegExp> = {
  permission: /\b(allow|permission)\b|允许|权限/i,
  update: /\bupdate\b|new version|升级|更新|新版本/i,
  rating: /\brate\b|rating|enjoying|review|评分|好评|评价/i,
  promo: /\boffer\b|coupon|promo|discount|deal|优惠|红包|领取|活动/i,
};

/** Buttons that make each kind go away without side effects (permission: ./permission-rule.ts). */
const DISMISS: Record<Exclude<InterruptKind, 'notification' | 'permission'>, RegExp> = {
  update: /^(later|not now|skip|no thanks|cancel|remind me later|以后再说|稍后|取消|暂不更新|跳过|关闭)$/i,
  rating: /^(not now|no thanks|later|maybe later|cancel|close|以后再说|取消|下次再说|关闭)$/i,
  promo: /^(close|no thanks|not now|dismiss|skip|×|x|✕|关闭|跳过|不了|取消)$/i,
};

/**
 * Task dialogs, never dismissed by rule: a risk word (the guard's own lexicon, core/risk-lexicon.ts)
 * or a request to confirm, which makes a dialog the task's even when the lexicon has no word for what
 * is confirmed ("Confirm order — discount applied" is not a promo).
 */
const CONFIRM_WORDS = ['confirm', '确认'];
function isTaskDialog(controls: string): boolean {
  return classifyText(controls).length > 0 || CONFIRM_WORDS.some((w) => termMatches(w, controls));
}

const INTERRUPT_WINDOWS = new Set(['dialog', 'system', 'notification', 'overlay']);
const TITLE_CHARS = 40;

function label(e: Element): string {
  return (e.text || e.desc).trim();
}

/** Bilingual buttons ("Later · 稍后") match when any part does. */
function parts(e: Element): string[] {
  return label(e).split(/\s*[·/|]\s*/);
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The dialog's name for the history: its window title, else its first text, else its app. */
function dialogTitle(w: WindowInfo, els: Element[]): string {
  const first = els.find((e) => !e.actionable && label(e));
  const title = w.title || (first ? label(first) : '');
  return title ? `"${clip(title, TITLE_CHARS)}"` : `of ${w.package}`;
}

function tapByRule(
  tools: ToolCatalog,
  kind: InterruptKind,
  key: string,
  button: Element,
  reason: string,
): InterruptMatch {
  return {
    kind,
    key,
    reason,
    decision: {
      thought: reason,
      action: { tool: agentTool(tools, 'press'), target_id: button.id },
      expect: { kind: 'element_gone', target_id: button.id },
    },
  };
}

/**
 * A heads-up notification covers the top of the app (its toolbar, its Save button). Its text is
 * data, never an instruction: swipe it up out of the way — it stays in the shade. The history names
 * it by its first line only, never its text as if that had been acted on.
 */
function swipeBanner(tools: ToolCatalog, w: WindowInfo, banner: Element, obs: Observation): InterruptMatch {
  const first = obs.elements.find((e) => !e.actionable && e.actionableAncestorId === banner.id && label(e));
  const name = clip(first ? label(first) : (banner.label ?? '').split(' — ')[0] || 'notification', 24);
  const reason = 'a notification banner swiped out of the way, unopened: it stays in the shade';
  return {
    kind: 'notification',
    key: `notification|${w.id}`,
    reason,
    label: name,
    decision: {
      thought: reason,
      action: { tool: agentTool(tools, 'dismiss'), target_id: banner.id, direction: 'up' },
      expect: { kind: 'element_gone', target_id: banner.id },
    },
  };
}

/** `tools`: the planner's catalog, where the rules find the tools they press and swipe with. */
export function matchInterrupt(
  obs: Observation,
  task: TaskContext,
  tools: ToolCatalog,
): InterruptMatch | InterruptHandOver | undefined {
  for (const w of [...obs.windows].sort((a, b) => b.layer - a.layer)) {
    const permissionUi = /permissioncontroller|packageinstaller/.test(w.package);
    if (!INTERRUPT_WINDOWS.has(w.type) && !permissionUi) continue;
    const els = obs.elements.filter((e) => e.window === w.id);
    if (els.length === 0) continue;
    const banner = w.type === 'notification' ? els.find((e) => e.actionable) : undefined;
    if (banner) return swipeBanner(tools, w, banner, obs);
    const words = [w.title, ...els.map(label)].join(' · ');
    // A dialog belongs to the task when its title or buttons carry task semantics (a message body
    // that merely mentions "checkout" does not make an update prompt part of the task).
    const controls = [w.title, ...els.filter((e) => e.actionable).map(label)].join(' · ');
    if (!permissionUi && isTaskDialog(controls)) return undefined;
    const kind: InterruptKind | undefined = permissionUi
      ? 'permission'
      : (['update', 'rating', 'promo', 'permission'] as const).find((k) => KIND_WORDS[k].test(words));
    if (!kind && !isSpecialAccess(words)) continue;
    const key = `${kind ?? 'permission'}|${w.title || w.package}`;
    // A permission prompt is handled here or not at all: never by whatever lies under it.
    if (kind === 'permission' || kind === undefined) {
      const v = judgePermission({ window: w, elements: els, obs, permissionUi, task });
      if (!v) continue;
      if (v.kind === 'hand_over') return { kind: 'hand_over', reason: v.reason };
      return tapByRule(tools, 'permission', key, v.button, v.note);
    }
    const buttons = els.filter((e) => e.actionable && e.flags.enabled);
    const button = buttons.find((e) => parts(e).some((part) => DISMISS[kind].test(part)));
    if (!button) continue;
    return tapByRule(tools, kind, key, button, `${kind} dialog ${dialogTitle(w, els)} dismissed`);
  }
  return undefined;
}

/** Counts rule attempts so a dialog that will not go away is handed to the user after 3 tries. */
export class InterruptTracker {
  private readonly tries = new Map<string, number>();
  constructor(private readonly maxTries = 3) {}
  /** Returns false when this interrupt has used up its tries. */
  attempt(key: string): boolean {
    const n = (this.tries.get(key) ?? 0) + 1;
    this.tries.set(key, n);
    return n <= this.maxTries;
  }
  /** The tries so far, as data (a run's state is plain data, checkpointed). */
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.tries);
  }
  static fromJSON(tries: Record<string, number> | undefined): InterruptTracker {
    const t = new InterruptTracker();
    for (const [k, n] of Object.entries(tries ?? {})) t.tries.set(k, n);
    return t;
  }
}
