import { type Intent, parseIntent } from './intents.js';
import type { ParsedScreen, PromptStep, ScreenLine } from './read-request.js';

/**
 * The reference model's "brain": given the current intent and the screen it reads in the prompt
 * (by its one reader, ./read-request.ts), produce the arguments of an `act` call — what a
 * competent model would do. It never sees the virtual phone. Its only recovery is `searchMove`
 * (target not on screen: back after a failed dispatched step, else scroll the list at most 3
 * times, else back); every other recovery rule is listed in ./recovery.ts. Each intent verb maps
 * to one tool call with the expectation a careful model would write (see `actForIntent`).
 */

/** `_search` marks a move made because the intent's target is not on screen (never sent). */
export type ActArgsOut = Record<string, unknown> & { thought: string; tool: string; _search?: boolean };

const norm = (s: string) => s.trim().toLowerCase();

export function findElement(
  screen: ParsedScreen,
  label: string,
  prefer?: (e: ScreenLine) => boolean,
  exclude?: (e: ScreenLine) => boolean,
): ScreenLine | undefined {
  const l = norm(label);
  const pool = exclude ? screen.elements.filter((e) => !exclude(e)) : screen.elements;
  const tiers: ((e: ScreenLine) => boolean)[] = [
    (e) => norm(e.text) === l,
    (e) => norm(e.resourceId) === l || norm(e.resourceId).endsWith(`/${l}`),
    (e) => norm(e.text).startsWith(l),
    (e) => norm(e.text).includes(l),
    (e) => {
      const key = l.replace(/[^a-z0-9]/g, '');
      return key.length > 2 && norm(e.resourceId).includes(key);
    },
  ];
  for (const t of tiers) {
    const hits = pool.filter(t);
    if (hits.length === 0) continue;
    return (prefer && hits.find(prefer)) ?? hits[0];
  }
  return undefined;
}

const isToggle = (e: ScreenLine) => e.verb === 'toggle' || /switch|checkbox|toggle/i.test(e.role);
const isField = (e: ScreenLine) => e.verb === 'fill' || /edit/i.test(e.role);
const isSlider = (e: ScreenLine) => e.verb === 'slide' || /seek|slider/i.test(e.role);

function flipped(state: string | undefined): string {
  return state === 'on' || state === 'checked' ? 'off' : 'on';
}

/** When the intent's target is not on screen: scroll the list (a few times), then go back. */
function searchMove(screen: ParsedScreen, history: PromptStep[], what: string): ActArgsOut {
  // The last action failed and the target is gone: it probably led somewhere else — go back. A step
  // that dispatched nothing (an invalid reply, a rejected done) led nowhere.
  const last = history[history.length - 1];
  const dispatched = last && !/^(\(|back|swipe|done|ask_user|infeasible)/.test(last.action);
  if (last && !last.ok && dispatched)
    return {
      thought: `"${what}" is not here after a failed step; go back`,
      tool: 'back',
      expect: 'page_changes',
      _search: true,
    };
  const recentScrolls = history.slice(-4).filter((h) => h.action.startsWith('swipe')).length;
  const list = screen.elements.find((e) => e.verb === 'scroll');
  if (list && recentScrolls < 3)
    return {
      thought: `"${what}" is not visible; scroll the list`,
      tool: 'swipe',
      direction: 'up',
      target_id: list.id,
      expect: 'page_changes',
      _search: true,
    };
  return { thought: `"${what}" is not on this screen; go back`, tool: 'back', expect: 'page_changes', _search: true };
}

/** The value shown next to a label: the rest of a row's label, or the next text on the screen. */
export function readValue(screen: ParsedScreen, label: string): string | undefined {
  const l = norm(label);
  for (const e of screen.elements) {
    const t = e.text.trim();
    // A row reads "Title — body": the value is the body, without the separator.
    if (norm(t).startsWith(l) && t.length > label.length) return t.slice(label.length).replace(/^[\s—·:]+/, '');
  }
  // A section header below the label heads the rows after it: the value is the first of those.
  const sections = new Set(screen.sections ?? []);
  const i = screen.texts.findIndex((t) => norm(t).includes(l));
  return i >= 0
    ? screen.texts
        .slice(i + 1)
        .find((t) => !sections.has(t))
        ?.trim()
    : undefined;
}

/** The value an edit field shows (`="…"` in the compact line), if any. */
/**
 * A field's text: its `="…"` value, else its label — over adb a uiautomator dump has no hint, so a
 * field shows what it holds as its only name (`fill EditText "Tiramisu" #search`).
 */
export function fieldValue(e: ScreenLine): string | undefined {
  return /="([^"]*)"/.exec(e.raw)?.[1] ?? (e.text || undefined);
}

export { isField, isToggle };

/**
 * A launch names the app as the Apps line spells it, when the line lists it: a model copies the name
 * it is shown ("Foodshop" over adb for the task's "FoodShop") rather than its own spelling.
 */
export function asListed(args: ActArgsOut, apps: readonly string[]): ActArgsOut {
  if (args.tool !== 'launch_app' || typeof args.package !== 'string') return args;
  const key = squashName(args.package);
  const hit = apps.find((a) => squashName(a) === key);
  return hit ? { ...args, package: hit } : args;
}
const squashName = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

export function actForIntent(intentLine: string, screen: ParsedScreen, history: PromptStep[]): ActArgsOut {
  const intent: Intent = parseIntent(intentLine);
  const [a0 = '', a1 = ''] = intent.args;
  switch (intent.verb) {
    case 'launch':
      return { thought: `open ${a0}`, tool: 'launch_app', package: a0, expect: 'page_changes', subgoal_done: true };
    case 'tap': {
      // A field that holds the typed query is not what "tap <item>" means.
      const el = findElement(screen, a0, undefined, isField);
      if (!el) return searchMove(screen, history, a0);
      // A tap that navigates makes its target disappear — a stronger check than "the page changed",
      // which a keyboard popping up also satisfies. `keep` marks buttons that stay on a page that
      // changes (Send), `changes` one that stays on a page that stays and changes a value on it (a
      // stepper's "+", Add to cart: only the cart's count moves, and a toast a dump does not show).
      const expect = isToggle(el)
        ? `element_state ${el.id} ${flipped(el.state)}`
        : a1 === 'keep'
          ? 'page_changes'
          : a1 === 'changes'
            ? 'screen_changes'
            : `element_gone ${el.id}`;
      return { thought: `tap "${a0}"`, tool: 'tap', target_id: el.id, expect, subgoal_done: true };
    }
    case 'toggle': {
      const el = findElement(screen, a0, isToggle);
      if (!el) return searchMove(screen, history, a0);
      if (a1 && el.state === a1)
        return { thought: `"${a0}" is already ${a1}`, tool: 'wait', value: 0, expect: 'no_change', subgoal_done: true };
      return {
        thought: `switch "${a0}" ${a1}`,
        tool: 'tap',
        target_id: el.id,
        expect: `element_state ${el.id} ${a1 || flipped(el.state)}`,
        subgoal_done: true,
      };
    }
    case 'type': {
      const el = findElement(screen, a0, isField) ?? screen.elements.find((e) => isField(e) && e.focused);
      if (!el || !isField(el)) return searchMove(screen, history, a0);
      // A password field never shows what was typed, only that it is filled: that is what to expect.
      const secret = /\[password\]|password|pwd|密码/i.test(`${el.text} ${el.resourceId} ${el.raw} ${a0}`);
      return {
        thought: `enter the ${a0}`,
        tool: 'type',
        target_id: el.id,
        text: a1,
        // The field's own text, not "the text appears somewhere": typing into the wrong field must fail.
        expect: secret ? `element_state ${el.id} filled` : `element_state ${el.id} text=${a1}`,
        subgoal_done: true,
      };
    }
    case 'slide': {
      const el = findElement(screen, a0, isSlider);
      if (!el) return searchMove(screen, history, a0);
      // No range on the line (a uiautomator dump has none): drag it to the share of its track.
      if (!el.range)
        return {
          thought: `drag "${a0}" to ${a1}% of its track`,
          tool: 'set_slider',
          target_id: el.id,
          value: Number(a1),
          expect: '-',
          subgoal_done: true,
        };
      const { min, max } = el.range;
      const value = Math.round(min + (Number(a1) / 100) * (max - min));
      // Already there: setting the same value changes nothing, and that is what to expect.
      const same = el.range?.current === value;
      return {
        thought: `set "${a0}" to ${a1}%`,
        tool: 'control_action',
        target_id: el.id,
        op: 'set_progress',
        value,
        expect: same ? 'no_change' : `element_state ${el.id} value=${value}`,
        subgoal_done: true,
      };
    }
    case 'pinch': {
      // A map or image: its change shows only in the screenshot, so that is what to expect.
      const el = findElement(screen, a0);
      if (!el) return searchMove(screen, history, a0);
      const scale = Number(a1) || 2;
      return {
        thought: `pinch "${a0}" by ${scale}`,
        tool: 'pinch',
        target_id: el.id,
        scale,
        expect: 'frame_changes',
        subgoal_done: true,
      };
    }
    case 'seek': {
      // The skill could not read the second: pass that on as it is, never claim the time.
      const last = history[history.length - 1];
      if (last?.action.startsWith('seek_timeline') && !last.ok && /uncertain/.test(last.note ?? ''))
        return {
          thought: 'the seek could not confirm the second',
          tool: 'ask_user',
          text: `The time is uncertain: I could not confirm the recording is at ${a1} (no readout I can trust). Please check it.`,
        };
      const el = findElement(screen, a0);
      if (!el) return searchMove(screen, history, a0);
      return {
        thought: `seek "${a0}" to ${a1}`,
        tool: 'seek_timeline',
        target_id: el.id,
        text: a1,
        subgoal_done: true,
      };
    }
    case 'read': {
      const value = readValue(screen, a0);
      if (!value) return searchMove(screen, history, a0);
      return { thought: `"${a0}" shows ${value}`, tool: 'done', text: value };
    }
    case 'answer': {
      const visible = screen.texts.some((t) => t.includes(a0)) || screen.raw.includes(a0);
      if (!visible) return searchMove(screen, history, a0);
      return { thought: 'the answer is on screen', tool: 'done', text: a0 };
    }
    case 'done':
      return { thought: 'the task is complete', tool: 'done' };
    case 'ask_user':
      return { thought: 'this needs the user', tool: 'ask_user', text: a0 || 'Please take over.' };
    case 'infeasible':
      return { thought: 'this cannot be done', tool: 'infeasible', text: a0 || 'not possible on this phone' };
    case 'back':
      return { thought: 'go back', tool: 'back', expect: 'page_changes', subgoal_done: true };
    case 'swipe':
      return {
        thought: `swipe ${a0 || 'up'}`,
        tool: 'swipe',
        direction: a0 || 'up',
        expect: 'page_changes',
        subgoal_done: true,
      };
    default:
      return {
        thought: `I do not know how to "${intentLine}"`,
        tool: 'ask_user',
        text: `How should I "${intentLine}"?`,
      };
  }
}
