import { termMatches } from '../../core/risk-lexicon.js';
import type { Action, Element, Observation } from '../../core/types.js';
import { entersText } from '../act-kind.js';
import type { ExecutorToolSpec } from '../tool-spec.js';
import { isSearchField } from '../validator.js';
import { commandWords, type GuardVerdict } from './guard.js';

/**
 * The guard policy of Explore (issue 25): an app walk without a task, so nobody is there to
 * confirm and nothing it does may change the world. On top of the task guard (DESIGN §5) it
 * refuses — never asks — anything the guard would hold (pay, send, delete, account), signing in or
 * up, pressing a control that commits or toggles something (Save, Add to cart, a switch), typing
 * anywhere but a search field, and every tool the registry does not mark as explorable. The
 * refusal is code in the executor: a driver (or a model) cannot talk its way past it.
 */

/** Which guard policy an action runs under: a task's (held actions ask a person) or Explore's. */
export type GuardPolicy = 'task' | 'explore';

/** Signing in, up or out, and account changes the task lexicon leaves to a person. */
const ACCOUNT_TERMS = [
  'sign in',
  'sign up',
  'log in',
  'login',
  'register',
  'create account',
  'forgot password',
  '登录',
  '注册',
  '登入',
];

/**
 * Controls that commit a change to the world (a record saved, a cart filled, a call placed):
 * Explore opens screens, it never presses what makes one of these.
 */
const COMMIT_TERMS = [
  'save',
  'apply',
  'submit',
  'confirm',
  'accept',
  'allow',
  'call',
  'dial',
  'book',
  'reserve',
  'install',
  'update',
  'add to cart',
  'add to',
  'turn on',
  'turn off',
  'enable',
  'disable',
  'mark as',
  'archive',
  '✓',
  '✔',
  '保存',
  '确定',
  '确认',
  '完成',
  '加入购物车',
];

/**
 * Verbs that commit only as a control's whole label: a timer's "Start", a player's "Play", a
 * dialog's "OK" — while "Start chat" or "Set up" opens a screen.
 */
const COMMIT_LABELS = [
  'start',
  'stop',
  'play',
  'pause',
  'resume',
  'reset',
  'lap',
  'record',
  'ok',
  'okay',
  'yes',
  'done',
  'set',
  'clear',
  'dismiss',
  'snooze',
  'undo',
  'like',
  'follow',
  'subscribe',
  'favorite',
  '开始',
  '暂停',
  '停止',
];

/** A dialer's or a timer's key, or a stepper's + / −: pressing it enters a value into what is being set. */
const KEYPAD_KEY = /^(\d{1,2}|\*|#|\+|−|-)$/;

function termIn(terms: readonly string[], words: string): string | undefined {
  return terms.find((t) => (t.length === 1 ? words.includes(t) : termMatches(t, words)));
}

/** The executor's whole Explore verdict: what the task guard holds is refused, then Explore's own rules. */
export function refusedInExplore(
  action: Action,
  obs: Observation,
  target: Element | undefined,
  verdict: GuardVerdict,
  spec: Pick<ExecutorToolSpec, 'explore' | 'entersText'> | undefined,
): string | undefined {
  if (verdict.needsConfirmation) return `the guard holds it (${verdict.categories.join(', ')}); Explore asks nobody`;
  return exploreRefusal(action, obs, target, spec);
}

/**
 * Why Explore refuses `action` on `obs` beyond what the task guard holds, or undefined when it may
 * go. A driver asks it before trying a control (as the listing asks heldTaps), the executor again.
 */
export function exploreRefusal(
  action: Action,
  obs: Observation,
  target: Element | undefined,
  spec: Pick<ExecutorToolSpec, 'explore' | 'entersText'> | undefined,
): string | undefined {
  const may = spec?.explore;
  if (!may) return `${action.tool} is not an exploring action`;
  if (may === 'types' || entersText(spec, action)) {
    if (may !== 'types') return `${action.tool} enters text`;
    return target && isSearchField(target) ? undefined : 'Explore types only into a search field';
  }
  if (may === 'free') return undefined;
  if (may === 'scrolls') {
    const vertical = action.direction === 'up' || action.direction === 'down';
    return vertical && target?.flags.scrollable ? undefined : 'Explore swipes only up or down a scrollable list';
  }
  if (!target) return 'a press at no control: Explore presses only controls it can name';
  if (target.range) return `"${target.label || target.text || target.desc}" adjusts a value`;
  if (KEYPAD_KEY.test((target.text || target.desc).trim()))
    return `"${target.text || target.desc}" is a keypad key: it enters a value`;
  if (target.flags.checkable) return `"${target.label || target.text || target.desc}" toggles a setting`;
  if (target.flags.editable && !isSearchField(target)) return 'Explore focuses only search fields';
  const words = commandWords(target, obs) ?? '';
  const account = termIn(ACCOUNT_TERMS, words);
  if (account) return `"${words}" signs in or changes an account ("${account}")`;
  const whole = words.trim().toLowerCase();
  const commit = termIn(COMMIT_TERMS, words) ?? COMMIT_LABELS.find((t) => whole === t);
  if (commit) return `"${words}" commits a change ("${commit}")`;
  return undefined;
}
