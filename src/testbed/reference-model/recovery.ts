import { parseIntent } from './intents.js';
import { type ActArgsOut, actForIntent, fieldValue, findElement, isField, isToggle } from './policy.js';
import { listedElement, type ParsedScreen, type PromptStep, shownTyped } from './read-request.js';

/**
 * The reference model's whole recovery policy: what a careful model does beyond the current step.
 * It is an oracle for the regression suite, so it stays this small — the suite must measure the
 * agent (its validation, notes, bans and replans), not the oracle. Do not add rules here to make a
 * task pass; fix the agent. The rules, in the order `decideWithPlan` applies them:
 *
 * 1. undoMistake — the last step FAILED and its note carries the agent's `undo: …` steps: do the
 *    first whose element is on screen (a `back` always). Why: the agent's validator writes these
 *    notes; a model that reads its prompt follows them, and the suite checks they are right.
 * 2. brokenEarlier — an earlier type/toggle/option-tap whose effect is visibly wrong now (a field
 *    with other text, a switch or option in the wrong state), unless a later step superseded it:
 *    redo it. Why: a mis-tap (the noise's wrong element) can silently undo earlier work; without
 *    this the oracle would carry it into a false "done" the agent could not have prevented.
 * 3. the current subgoal's intent (policy.ts `actForIntent`; its target missing → searchMove:
 *    back after a failed step, else scroll a list ≤ 3 times, else back).
 * 4. earlierStep — only when 3 found no target: walking back from the current step, redo the first
 *    earlier launch (if on the home screen) or tap whose target is in front. Why: a mis-tap that
 *    navigated elsewhere, or an app that was left.
 * 5. avoidBanned — the agent banned this action on this page: a tap by id is retried once at the
 *    element's centre by coordinates (where its line shows one), `back` becomes a relaunch, anything
 *    else asks the user. Why: the prompt says "do not repeat banned actions", and the agent's ban
 *    list is what is measured. Bans and undo notes write full ids, the listing their shortest
 *    prefixes: a full id names the listed line it starts with (read-request `listedElement`).
 * Plus one rule in server.ts: after "the user declined …" in the recent steps, ask_user (a careful
 * model stops when the user declined a guarded action).
 */

export interface PlanContext {
  intents: string[];
  current: number;
  screen: ParsedScreen;
  history: PromptStep[];
  banned: string[];
  /** `package/activity` from the screen header. */
  app: string;
}

function redo(args: ActArgsOut): ActArgsOut {
  return { ...args, subgoal_done: false, thought: `redo an earlier step: ${args.thought}` };
}

/**
 * An earlier type/toggle step whose effect is visibly wrong on this screen. Steps a later one
 * superseded are not checked: the same verb on the same label again (a second search, another
 * item's size), or, for typing, a later button tap that submitted it (Send empties the box).
 */
function brokenEarlier(ctx: PlanContext): ActArgsOut | undefined {
  const seen = new Set<string>();
  let submitted = false;
  for (let i = ctx.current - 1; i >= 0; i--) {
    const it = parseIntent(ctx.intents[i] ?? '');
    const [label = '', want = ''] = it.args;
    const key = `${it.verb}|${label}`;
    const superseded = seen.has(key) || (it.verb === 'type' && submitted);
    seen.add(key);
    if (it.verb === 'tap') {
      const el = findElement(ctx.screen, label, undefined, isField);
      if (!el || !isToggle(el)) submitted = true;
    }
    if (superseded) continue;
    if (it.verb === 'type') {
      const el = findElement(ctx.screen, label, isField);
      if (!el || !isField(el) || /\[password\]/.test(el.raw) || want.startsWith('⟨secret')) continue;
      if (fieldValue(el) !== want) return redo(actForIntent(ctx.intents[i] ?? '', ctx.screen, ctx.history));
    }
    if (it.verb === 'tap') {
      // A tapped option (size, radio) that a later mis-tap switched off again. Only the option
      // itself: a page entry ("Bluetooth") is not the switch on the page it opened ("Use Bluetooth").
      const el = findElement(ctx.screen, label, undefined, isField);
      const same = el?.text.trim().toLowerCase().startsWith(label.trim().toLowerCase()) === true;
      if (el && same && isToggle(el) && el.state === 'off')
        return redo(actForIntent(ctx.intents[i] ?? '', ctx.screen, ctx.history));
    }
    if (it.verb === 'toggle') {
      const el = findElement(ctx.screen, label, isToggle);
      if (el && want && el.state && el.state !== want)
        return redo(actForIntent(ctx.intents[i] ?? '', ctx.screen, ctx.history));
    }
  }
  return undefined;
}

/** The current target is missing: an earlier tap whose target is here, or a relaunch from home. */
function earlierStep(ctx: PlanContext): ActArgsOut | undefined {
  const onHome = /launcher/i.test(ctx.app);
  for (let i = ctx.current - 1; i >= 0; i--) {
    const line = ctx.intents[i] ?? '';
    const it = parseIntent(line);
    if (it.verb === 'launch' && onHome) return redo(actForIntent(line, ctx.screen, ctx.history));
    if (it.verb === 'tap') {
      const el = findElement(ctx.screen, it.args[0] ?? '', undefined, isField);
      if (el) return redo(actForIntent(line, ctx.screen, ctx.history));
    }
  }
  return undefined;
}

/**
 * Whether a ban (the action as it was sent: `tap [id] "Wi-Fi"`, `type [id] "Email" text=(5 chars)`)
 * names this choice: the same tool on the same element, and for typing the same text as shown.
 */
function isBanned(a: ActArgsOut, ban: string): boolean {
  const head = [a.tool, typeof a.target_id === 'string' ? `[${a.target_id}]` : ''].filter(Boolean).join(' ');
  if (ban !== head && !ban.startsWith(`${head} `)) return false;
  if (a.tool !== 'type' || typeof a.text !== 'string') return true;
  // A ban shows the text typed into a plain field (quoted), and only its length for a password field.
  return ban.endsWith(`text=${JSON.stringify(a.text)}`) || ban.endsWith(`text=${shownTyped(a.text)}`);
}

/** A banned signature with its full ids written as the listing shows them (`tap [99857add]` → `tap [998]`). */
function asListed(banned: string, screen: ParsedScreen): string {
  return banned.replace(/\[([0-9a-f]{3,8}(?:~\d+)?)\]/g, (all, id: string) => {
    const el = listedElement(screen, id);
    return el ? `[${el.id}]` : all;
  });
}

/** A banned choice is replaced: an id tap by the same tap at the element's centre, back by a relaunch. */
function avoidBanned(a: ActArgsOut, ctx: PlanContext): ActArgsOut {
  // Bans may write full ids; the listing shows shortest prefixes.
  const banned = ctx.banned.map((b) => asListed(b, ctx.screen));
  if (!banned.some((b) => isBanned(a, b))) return a;
  if (typeof a.target_id === 'string' && (a.tool === 'tap' || a.tool === 'long_press')) {
    // By its centre, where the line shows one.
    const el = listedElement(ctx.screen, a.target_id);
    if (el?.x !== undefined && el.y !== undefined) {
      const { target_id: _, ...rest } = a;
      return { ...rest, point: { x: el.x, y: el.y }, thought: `${a.thought} (by coordinates this time)` };
    }
  }
  const launch = ctx.intents.find((l) => parseIntent(l).verb === 'launch');
  if (a.tool === 'back' && launch && !ctx.banned.includes('launch_app'))
    return redo(actForIntent(launch, ctx.screen, ctx.history));
  return {
    thought: 'every way forward failed here',
    tool: 'ask_user',
    text: 'I am stuck on this screen; please help.',
  };
}

/** `tap [id] expect …`, `control_action [id] set_progress N expect …`, `type [id] "text" expect …`. */
const UNDO_STEP =
  /^(tap|control_action|type) \[([0-9a-f]{3,8}(?:~\d+)?)\](?: set_progress (\d+))?(?: "([^"]*)")? expect (.+)$/;

/**
 * The last step failed and its note says what it changed by mistake and how to undo it
 * (`undo: tap [id] expect …; …`): put the first such change back whose element is on screen.
 */
function undoMistake(ctx: PlanContext): ActArgsOut | undefined {
  const last = ctx.history[ctx.history.length - 1];
  const steps = last && !last.ok ? /undo: (.*)$/.exec(last.note ?? '')?.[1] : undefined;
  for (const step of steps?.split('; ') ?? []) {
    const b = /^back expect (.+)$/.exec(step.trim());
    if (b)
      return {
        thought: 'undo: close what the last step opened by mistake',
        tool: 'back',
        expect: b[1],
        subgoal_done: false,
      };
    const m = UNDO_STEP.exec(step.trim());
    // The note writes the full id; the listing its shortest prefix.
    const el = m ? listedElement(ctx.screen, m[2] ?? '') : undefined;
    if (!m || !el) continue;
    const out: ActArgsOut = { thought: `undo what the last step changed by mistake: ${step}`, tool: m[1] ?? 'tap' };
    out.target_id = el.id;
    if (m[3] !== undefined) Object.assign(out, { op: 'set_progress', value: Number(m[3]) });
    if (m[4] !== undefined) out.text = m[4];
    out.expect = m[5];
    out.subgoal_done = false;
    return out;
  }
  return undefined;
}

export function decideWithPlan(ctx: PlanContext): ActArgsOut {
  const line = ctx.intents[ctx.current] ?? 'done';
  let out = undoMistake(ctx) ?? brokenEarlier(ctx) ?? actForIntent(line, ctx.screen, ctx.history);
  if (out._search) out = earlierStep(ctx) ?? out;
  out = avoidBanned(out, ctx);
  const { _search: _, ...clean } = out;
  return clean as ActArgsOut;
}
