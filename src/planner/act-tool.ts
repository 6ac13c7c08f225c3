import type { z } from 'zod';
import { resolveRef } from '../core/element-ref.js';
import { type Action, type Decision, TERMINAL_TOOLS, type ToolName } from '../core/types.js';
import { buildNativeArgs, memberIds } from './act-native.js';
import { actArgsSchema, MAX_SUBGOALS } from './act-schema.js';
import { type ParseResult, parseExpect } from './expect-dsl.js';
import { actionSignature, describeAction } from './memory/signature.js';

/**
 * The one function the model calls each step: DESIGN §3's Decision, flattened so its JSON schema is
 * small (one schema in every request instead of one per tool). `tool` is an enum of exactly the
 * tools the connected device supports, so an unknown tool fails validation and is re-asked.
 */

/**
 * Planner tools that are not device actions. `look` asks for a screenshot (crop around a target);
 * `note` keeps a fact in working memory (shown in every later prompt); `read` asks for the full
 * text of a cut line (perception/read-text.ts answers it from the observation).
 */
export const META_TOOLS = ['look', 'note', 'read'] as const;
export type PlannerTool = ToolName | (typeof META_TOOLS)[number];

export { actArgsSchema, MAX_SUBGOALS, TERMINAL_TOOLS };

const NEEDS_TARGET = new Set(['tap', 'long_press']);
const SEEK_TIME_RE = /^\d{1,2}:\d{2}:\d{2}$/;
/** How long one seek_timeline may take: it pauses, zooms, drags and waits for the readout to settle several times. */
const SEEK_TIMEOUT_MS = 30_000;
/** Longest note kept (characters): working memory is for facts, not transcripts. */
export const MAX_NOTE_CHARS = 300;

export type ActArgs = z.infer<ReturnType<typeof actArgsSchema>>;

export interface PlannedStep {
  decision: Decision;
  /** The model says this action, once validated, completes the current subgoal. */
  subgoalDone: boolean;
  /** The model asked to see the screen (optionally zoomed on an element or point). */
  look?: { target_id?: string; point?: { x: number; y: number } };
  /** `note`: a fact to keep in working memory (no device action). */
  note?: string;
  /** `read`: the full text of an element (by id) or of a text item (as shown, "…" and all). */
  read?: { target_id?: string; text?: string };
  /**
   * The model revised its plan: what is still to do after this action replaces the open subgoals
   * (done ones stay done); `[]` = nothing is left, so the open ones close with this action.
   */
  revisedPlan?: string[];
}

export interface ActContext {
  tools: readonly PlannerTool[];
  /**
   * Element ids present on the current screen, in full: an id outside this set is invented. The
   * model may write an id as listed (its shortest unique prefix); it is read back to the full id.
   */
  ids: ReadonlySet<string>;
  subgoal?: string;
  /** Signatures banned on this page (actionSignature) → the ban as the prompt shows it: choosing one again is re-asked. */
  banned?: ReadonlyMap<string, string>;
}

/** How far one pinch may zoom: beyond 4× the fingers would not fit on the screen. */
export const PINCH_SCALE = { min: 0.25, max: 4 } as const;

/** A pinch needs where (target_id or point) and how much (`scale`, >1 zooms in); `value` is accepted as the scale. */
function checkPinch(a: { target_id?: string; point?: unknown; scale?: number; value?: number }): string | undefined {
  if (!a.target_id && !a.point) return 'pinch needs target_id (the map or image to zoom) or a point as its centre';
  const s = a.scale ?? a.value;
  if (s === undefined) return `pinch needs scale (${PINCH_SCALE.min}..${PINCH_SCALE.max}; >1 zooms in, <1 zooms out)`;
  if (!Number.isFinite(s) || s < PINCH_SCALE.min || s > PINCH_SCALE.max || s === 1)
    return `pinch scale ${s} is out of range: use ${PINCH_SCALE.min}..${PINCH_SCALE.max}, not 1 (>1 zooms in, <1 zooms out); pinch again for more`;
  return undefined;
}

/** Drop the `null`s strict-mode providers send for absent optional fields. */
export function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = stripNulls(x);
    return out;
  }
  return v;
}

/** Parse and check one `act` call; errors are phrased for the model (they are fed back on re-ask). */
export function parseAct(raw: unknown, ctx: ActContext): ParseResult<PlannedStep> {
  const parsed = actArgsSchema(ctx.tools).safeParse(stripNulls(raw));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return { ok: false, error: `invalid act arguments (${issues}); available tools: ${ctx.tools.join(', ')}` };
  }
  const a = parsed.data;
  // Ids as listed (a prefix) become the full ids every later layer uses.
  const full = (id: string): { id: string } | { error: string } => {
    if (ctx.ids.has(id)) return { id };
    const r = resolveRef(ctx.ids, id);
    if (r.ok) return { id: r.id };
    return r.code === 'AMBIGUOUS'
      ? { error: `"${id}" matches several elements; use the id as listed` }
      : { error: `"${id}" is not on the current screen; use an id from the list or a point` };
  };
  const checkId = (id: string | undefined, what: string): string | undefined => {
    if (id === undefined) return undefined;
    const r = full(id);
    return 'error' in r ? `${what} ${r.error}` : undefined;
  };
  const canon = (id: string): string => {
    const r = full(id);
    return 'id' in r ? r.id : id;
  };
  const idErr = checkId(a.target_id, 'target_id');
  if (idErr) return { ok: false, error: idErr };
  if (a.target_id) a.target_id = canon(a.target_id);
  for (const step of a.steps ?? []) {
    const err = checkId(step.target_id, 'steps target_id');
    if (err) return { ok: false, error: err };
    if (step.target_id) step.target_id = canon(step.target_id);
  }
  // `plan=[]` is meant: nothing is left after this action (the open subgoals close with it).
  const revisedPlan = a.plan !== undefined ? { revisedPlan: a.plan } : {};
  // look and note act on the agent, not the phone: a no-op decision the loop does not dispatch.
  const meta = { thought: a.thought, action: { tool: 'wait' as const, ms: 0 }, expect: { kind: 'no_change' as const } };
  if (a.tool === 'look')
    return {
      ok: true,
      value: { decision: meta, subgoalDone: false, look: { target_id: a.target_id, point: a.point }, ...revisedPlan },
    };
  if (a.tool === 'read') {
    if (!a.target_id && !a.text)
      return { ok: false, error: 'read needs target_id, or text: the cut text as shown (e.g. "The address is 4…")' };
    return {
      ok: true,
      value: {
        decision: meta,
        // A read can complete a subgoal ("read his phone number"): closed when the read answers.
        subgoalDone: a.subgoal_done ?? false,
        read: { target_id: a.target_id, text: a.text },
        ...revisedPlan,
      },
    };
  }
  if (a.tool === 'note') {
    const text = a.text?.trim();
    if (!text) return { ok: false, error: 'note needs text: the fact to remember (shown in every later prompt)' };
    if (text.length > MAX_NOTE_CHARS)
      return { ok: false, error: `note text is ${text.length} characters; keep it under ${MAX_NOTE_CHARS}` };
    return { ok: true, value: { decision: meta, subgoalDone: a.subgoal_done ?? false, note: text, ...revisedPlan } };
  }
  const tool = a.tool as ToolName;
  if (NEEDS_TARGET.has(tool) && !a.target_id && !a.point)
    return { ok: false, error: `${tool} needs target_id (or a point when no element fits)` };
  if (tool === 'type' && a.text === undefined) return { ok: false, error: 'type needs text' };
  // An app may be named by its label ("Settings") or its package; `text` is accepted as the label.
  if (tool === 'launch_app' && !a.package && !a.text)
    return { ok: false, error: "launch_app needs package: the app's name as the launcher shows it, or its package" };
  const native = buildNativeArgs(a);
  if (!native.ok) return { ok: false, error: native.error };
  if (tool === 'pinch') {
    const err = checkPinch(a);
    if (err) return { ok: false, error: err };
  }
  const seekTo = a.text?.trim() ?? '';
  if (tool === 'seek_timeline' && (!a.target_id || !SEEK_TIME_RE.test(seekTo)))
    return { ok: false, error: 'seek_timeline needs target_id (the timeline) and text=HH:MM:SS (the time to seek to)' };
  if (tool === 'set_slider' && (!a.target_id || a.value === undefined || a.value < 0 || a.value > 100))
    return { ok: false, error: 'set_slider needs target_id (the slider) and value=0..100 (percent of its track)' };
  if (tool === 'infeasible' && !a.text) return { ok: false, error: 'infeasible needs the reason in text' };
  if (tool === 'ask_user' && !a.text) return { ok: false, error: 'ask_user needs the question in text' };

  let expect: Decision['expect'] = { kind: 'no_change' };
  // The skill verifies itself (its readout at the target); the model's expect is not needed.
  if (tool === 'seek_timeline')
    expect = { kind: 'text_appears', text: seekTo, note: 'seek_timeline reads its readout' };
  else if (tool === 'set_slider') expect = { kind: 'screen_changes', note: 'set_slider reads where the thumb rests' };
  else if (!TERMINAL_TOOLS.has(tool)) {
    const e = parseExpect(a.expect ?? '');
    if (!e.ok) return { ok: false, error: e.error };
    expect = e.value;
    const onElement = expect.kind === 'element_state' || expect.kind === 'element_gone';
    if (onElement && !expect.target_id && !a.target_id)
      return { ok: false, error: `expect ${expect.kind} without an id needs an action with target_id: give the id` };
    const expErr = onElement ? checkId(expect.target_id, 'expect id') : undefined;
    if (expErr) return { ok: false, error: expErr };
    if ('target_id' in expect && expect.target_id) expect = { ...expect, target_id: canon(expect.target_id) };
  }
  const action: Action = { tool };
  if (a.target_id) action.target_id = a.target_id;
  if (a.point) action.point = { x: a.point.x, y: a.point.y };
  if (a.direction) action.direction = a.direction;
  if (a.package) action.package = a.package.trim();
  else if (tool === 'launch_app' && a.text) action.package = a.text.trim();
  if (tool === 'wait') action.ms = a.value ?? 1000;
  if (tool === 'done') {
    if (a.text) action.answer = a.text;
  } else if (tool === 'infeasible') action.reason = a.text;
  else if (tool === 'ask_user') action.question = a.text;
  else if (a.text !== undefined && tool !== 'launch_app') action.text = a.text;
  if (native.args) action.args = native.args;
  // The skill's own budget (ms), as wait_until's: the action's deadline covers it.
  if (tool === 'seek_timeline') action.args = { time: seekTo, timeout_ms: SEEK_TIMEOUT_MS };
  if (tool === 'set_slider') action.args = { value: a.value };
  // The executor turns scale + centre into the protocol's finger distances (executor/pinch.ts).
  if (tool === 'pinch') action.args = { scale: a.scale ?? a.value };
  for (const id of memberIds(action)) {
    const err = checkId(id, 'steps target_id');
    if (err) return { ok: false, error: err };
  }
  const ban = ctx.banned?.get(actionSignature(action));
  if (ban !== undefined) {
    // Named as sent; a point a few units off a banned one is the same action (the signature's grid).
    const sent = describeAction(action);
    const same = ban.startsWith(sent) ? '' : ` (too close to the banned ${ban})`;
    return { ok: false, error: `${sent} is banned on this page${same}: it failed here; choose something else` };
  }
  const decision: Decision = { thought: a.thought, action, expect };
  if (ctx.subgoal) decision.subgoal = ctx.subgoal;
  return { ok: true, value: { decision, subgoalDone: a.subgoal_done ?? TERMINAL_TOOLS.has(tool), ...revisedPlan } };
}
