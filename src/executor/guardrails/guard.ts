import { classifyText, isGenericConfirm, type LexiconHit, type RiskCategory } from '../../core/risk-lexicon.js';
import type { Action, Element, Observation, ToolName } from '../../core/types.js';
import { sequenceMembers } from '../native-args.js';
import type { ConfirmCategory } from './confirm.js';
import { findPii, type PiiKind } from './pii.js';

/**
 * Guardrails as code (DESIGN §5): classify the action's target and page before dispatch. The
 * decision's own words (thought, note) are never consulted — a model cannot talk its way past it.
 */

export interface AppRiskConfig {
  /** Every mutating action in this app needs confirmation (a banking app). */
  all?: RiskCategory;
  /** Extra terms for this app, per category. */
  terms?: Partial<Record<RiskCategory, string[]>>;
}

export interface GuardConfig {
  apps?: Record<string, AppRiskConfig>;
  /** Typed personal data needs confirmation too (default: only redacted in logs). */
  confirmPii?: boolean;
}

export interface GuardVerdict {
  needsConfirmation: boolean;
  categories: ConfirmCategory[];
  reasons: string[];
  pii: PiiKind[];
  mutating: boolean;
}

const READ_ONLY: ReadonlySet<ToolName> = new Set([
  'read_control',
  'wait_until',
  'wait',
  'done',
  'ask_user',
  'infeasible',
]);

/** Whether dispatching `action` could change the phone's state (dry-run dispatches none of these). */
export function isMutating(action: Action): boolean {
  return !READ_ONLY.has(action.tool);
}

/**
 * Choosing an option picks, it does not act: "WeChat Pay · 微信支付" as a payment method, a size.
 * What acts on the choice (Pay, Place order, Delete) is a button and is guarded as ever.
 */
const CHOICE_ROLES: ReadonlySet<string> = new Set(['Radio', 'CheckBox']);

/**
 * A keypad's backspace (text "⌫", its description "Delete" / "删除", as dialers and timers label it)
 * removes a typed character, not data: holding it would ask the user for every corrected digit.
 */
const EDIT_KEY_RE = /^[⌫⌦]$/;

/** A target whose own words are not a risk: an option (it picks) or an editing key. */
function exemptTarget(e: Element): boolean {
  return CHOICE_ROLES.has(e.role) || EDIT_KEY_RE.test(e.text.trim());
}

function label(e: Element): string {
  return [...new Set([e.text, e.desc, e.label].filter(Boolean))].join(' ');
}

/** Text of the topmost non-application window (a dialog), or the page's visible text. */
function contextText(obs: Observation, target?: Element): string {
  const win = target?.window;
  const inWin = obs.elements.filter((e) => win === undefined || e.window === win).map(label);
  return [...inWin, ...obs.texts].join(' \n ');
}

export function checkGuard(
  action: Action,
  obs: Observation,
  target: Element | undefined,
  cfg: GuardConfig = {},
  extraReason?: string,
): GuardVerdict {
  const mutating = isMutating(action);
  const app = cfg.apps?.[obs.app.package];
  const hits: LexiconHit[] = [];
  const reasons: string[] = [];
  if (extraReason) reasons.push(extraReason);
  if (mutating && action.tool === 'action_sequence') {
    // A sequence is judged by what each member does to what: typing into two fields is not a
    // send; a click on "Send" among them is, and so is an IME enter on a chat page.
    for (const m of sequenceMembers(action, obs)) {
      const submits = m.op === 'ime_enter';
      const acts = m.op === 'click' || m.op === 'long_click' || m.tool === 'touch_gesture';
      if (m.element && acts) {
        const own = classifyText(label(m.element), app?.terms);
        hits.push(...own);
        for (const h of own)
          reasons.push(`member ${m.op} "${label(m.element)}" matches ${h.category} term "${h.term}"`);
      } else if (!m.element && (acts || submits)) {
        const ctx = classifyText(contextText(obs), app?.terms);
        hits.push(...ctx);
        for (const h of ctx) reasons.push(`untargeted member ${m.op} on a page showing ${h.category} term "${h.term}"`);
      }
      if (submits) {
        const ctx = classifyText(contextText(obs), app?.terms).filter((h) => h.category === 'send');
        hits.push(...ctx);
        for (const h of ctx) reasons.push(`IME enter on a page with "${h.term}" may send`);
      }
    }
  } else if (mutating) {
    if (target && exemptTarget(target)) {
      // an option or an editing key: its own label holds nothing (an app configured high-risk still does, below)
    } else if (target) {
      const own = classifyText(label(target), app?.terms);
      hits.push(...own);
      for (const h of own) reasons.push(`target "${label(target)}" matches ${h.category} term "${h.term}"`);
      if (own.length === 0 && isGenericConfirm(label(target))) {
        const ctx = classifyText(contextText(obs, target), app?.terms);
        hits.push(...ctx);
        for (const h of ctx) reasons.push(`"${label(target)}" confirms a ${h.category} dialog/page ("${h.term}")`);
      }
    } else if (action.tool !== 'back' && action.tool !== 'home' && action.tool !== 'launch_app') {
      // No element under the touch (visual-first page, raw point): judge by the page instead.
      const ctx = classifyText(contextText(obs), app?.terms);
      hits.push(...ctx);
      for (const h of ctx) reasons.push(`untargeted ${action.tool} on a page showing ${h.category} term "${h.term}"`);
    }
    const text = action.text ?? (typeof action.args?.text === 'string' ? action.args.text : undefined);
    const submits =
      (action.tool === 'type' && /\n$/.test(text ?? '')) ||
      (action.tool === 'control_action' && action.args?.action === 'ime_enter');
    if (submits) {
      // Enter in a chat or comment box sends.
      const ctx = classifyText(contextText(obs), app?.terms).filter((h) => h.category === 'send');
      hits.push(...ctx);
      for (const h of ctx) reasons.push(`IME enter on a page with "${h.term}" may send`);
    }
  }
  if (mutating && app?.all) {
    hits.push({ category: app.all, term: obs.app.package });
    reasons.push(`${obs.app.package} is configured as high-risk (${app.all})`);
  }
  const typed = action.text ?? (typeof action.args?.text === 'string' ? action.args.text : '');
  const pii = [...new Set(findPii(typed).map((f) => f.kind))];
  if (pii.length && cfg.confirmPii) reasons.push(`typed text contains ${pii.join(', ')}`);
  const categories: ConfirmCategory[] = [...new Set(hits.map((h) => h.category))];
  if (extraReason) categories.push('ambiguous_target');
  if (pii.length && cfg.confirmPii) categories.push('personal_data');
  return {
    needsConfirmation: categories.length > 0,
    categories,
    reasons,
    pii,
    mutating,
  };
}
