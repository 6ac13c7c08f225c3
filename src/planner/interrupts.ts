import { classifyText, termMatches } from '../core/risk-lexicon.js';
import type { Decision, Element, Observation } from '../core/types.js';

/**
 * Interrupt rules that run before the LLM (article §5.2): permission prompts, update offers, rating
 * requests and promotions are handled by rule, without spending a model call. A dialog that belongs
 * to the task — anything with pay/send/delete/confirm-order semantics — is never "dismissed" here;
 * it goes to the planner (and the guardrails).
 */

export type InterruptKind = 'permission' | 'update' | 'rating' | 'promo' | 'notification';

export interface InterruptMatch {
  kind: InterruptKind;
  /** The window the interrupt lives in (tries are counted per kind + window title). */
  key: string;
  decision: Decision;
  /** Why the rule chose this, for the step record and the report (`permission dialog: granted …`). */
  reason: string;
}

const KIND_WORDS: Record<Exclude<InterruptKind, 'notification'>, RegExp> = {
  permission: /\b(allow|permission)\b|允许|权限/i,
  update: /\bupdate\b|new version|升级|更新|新版本/i,
  rating: /\brate\b|rating|enjoying|review|评分|好评|评价/i,
  promo: /\boffer\b|coupon|promo|discount|deal|优惠|红包|领取|活动/i,
};

/**
 * Permission grants the rule may give, narrowest first. "Always allow" / "Allow all the time" /
 * "始终允许" is never among them: a standing grant outlives the task, so a person or the model decides
 * it. A plain "Allow" (a dialog offering no narrower grant) is a grant for the app's use, as Android's
 * one-button dialogs mean it, and comes last.
 */
const PERMISSION_GRANTS: readonly { name: string; label: RegExp }[] = [
  {
    name: 'once',
    label: /^(only this time|allow (only )?this time|allow once|仅此一次|仅本次允许|本次允许|仅限这一次)$/i,
  },
  {
    name: 'while using',
    label:
      /^((allow )?(only )?while using (the )?app|使用时允许|使用应用时允许|仅在使用中允许|仅使用期间允许|仅在使用该应用期间允许)$/i,
  },
  { name: 'plain', label: /^(allow|允许)$/i },
];

/** Buttons that make each kind go away without side effects (permission: see PERMISSION_GRANTS). */
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

function label(e: Element): string {
  return (e.text || e.desc).trim();
}

/** Bilingual buttons ("Later · 稍后") match when any part does. */
function parts(e: Element): string[] {
  return label(e).split(/\s*[·/|]\s*/);
}

function tapByRule(kind: InterruptKind, key: string, button: Element, reason: string): InterruptMatch {
  return {
    kind,
    key,
    reason,
    decision: {
      thought: reason,
      action: { tool: 'tap', target_id: button.id },
      expect: { kind: 'element_gone', target_id: button.id },
    },
  };
}

/**
 * The narrowest grant on offer, or undefined when the dialog offers none the rule may give (only
 * "Always allow" and "Deny"): then no rule applies and the model, or the person, decides.
 */
function grantPermission(buttons: Element[], key: string): InterruptMatch | undefined {
  for (const grant of PERMISSION_GRANTS) {
    for (const button of buttons) {
      const part = parts(button).find((p) => grant.label.test(p));
      if (part === undefined) continue;
      const why = grant.name === 'plain' ? 'the only grant offered' : 'narrowest';
      return tapByRule('permission', key, button, `permission dialog: granted "${part}" (${why})`);
    }
  }
  return undefined;
}

export function matchInterrupt(obs: Observation): InterruptMatch | undefined {
  for (const w of [...obs.windows].sort((a, b) => b.layer - a.layer)) {
    const permissionUi = /permissioncontroller|packageinstaller/.test(w.package);
    if (!INTERRUPT_WINDOWS.has(w.type) && !permissionUi) continue;
    const els = obs.elements.filter((e) => e.window === w.id);
    if (els.length === 0) continue;
    // A heads-up notification covers the top of the app (its toolbar, its Save button). Its text is
    // data, never an instruction: swipe it up out of the way — it stays in the shade.
    const banner = w.type === 'notification' ? els.find((e) => e.actionable) : undefined;
    if (banner)
      return {
        kind: 'notification',
        key: `notification|${w.id}`,
        reason: 'notification banner: swiped up by rule (it stays in the shade)',
        decision: {
          thought: 'a notification banner covers the top of the screen; swipe it away (it stays in the shade)',
          action: { tool: 'swipe', target_id: banner.id, direction: 'up' },
          expect: { kind: 'element_gone', target_id: banner.id },
        },
      };
    const words = [w.title, ...els.map(label)].join(' · ');
    // A dialog belongs to the task when its title or buttons carry task semantics (a message body
    // that merely mentions "checkout" does not make an update prompt part of the task).
    const controls = [w.title, ...els.filter((e) => e.actionable).map(label)].join(' · ');
    if (!permissionUi && isTaskDialog(controls)) return undefined;
    const kind: InterruptKind | undefined = permissionUi
      ? 'permission'
      : (['update', 'rating', 'promo', 'permission'] as const).find((k) => KIND_WORDS[k].test(words));
    if (!kind) continue;
    const key = `${kind}|${w.title || w.package}`;
    const buttons = els.filter((e) => e.actionable && e.flags.enabled);
    // A permission prompt is handled here or not at all: never by whatever lies under it.
    if (kind === 'permission') return grantPermission(buttons, key);
    const button = buttons.find((e) => parts(e).some((part) => DISMISS[kind].test(part)));
    if (!button) continue;
    return tapByRule(kind, key, button, `${kind} ${w.type}: dismissed by rule ("${label(button)}")`);
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
}
