import { resolveRef } from '../core/element-ref.js';
import type { Action, Decision } from '../core/types.js';
import { actArgsSchema, MAX_SUBGOALS } from './act-schema.js';
import { type ParseResult, parseExpect } from './expect-dsl.js';
import { actionSignature, describeAction } from './memory/signature.js';
import { type ActArgs, agentTool, type ToolCatalog } from './tool-spec.js';

/**
 * The one function the model calls each step: DESIGN §3's Decision, flattened so its JSON schema is
 * small (one schema in every request instead of one per tool). `tool` is an enum of exactly the
 * tools the connected device supports, so an unknown tool fails validation and is re-asked.
 */

export type { ActArgs };
export { actArgsSchema, MAX_SUBGOALS };

/** Longest note kept (characters): working memory is for facts, not transcripts. */
export const MAX_NOTE_CHARS = 300;

export interface PlannedStep {
  decision: Decision;
  /** The model says this action, once validated, completes the current subgoal. */
  subgoalDone: boolean;
  /** With `subgoalDone`, from `subgoal_done=N`: the action completes every open subgoal up to this index (0-based). */
  doneThrough?: number;
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
  /** The tools offered on this request, by name (each in `catalog`). */
  tools: readonly string[];
  /** Every tool the planner knows: what each one's fields mean (src/tools/ fills it in). */
  catalog: ToolCatalog;
  /**
   * Element ids present on the current screen, in full: an id outside this set is invented. The
   * model may write an id as listed (its shortest unique prefix); it is read back to the full id.
   */
  ids: ReadonlySet<string>;
  subgoal?: string;
  /** Signatures banned on this page (actionSignature) → the ban as the prompt shows it: choosing one again is re-asked. */
  banned?: ReadonlyMap<string, string>;
  /** The most members one action_sequence may have (the task setting `pro.execution.max_burst_actions`). */
  maxBurst?: number;
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

/** An id as the model wrote it (a listed prefix) → the full id, or why it is not on the screen. */
export type IdResolver = (id: string) => { id: string } | { error: string };

/** Parse and check one `act` call; errors are phrased for the model (they are fed back on re-ask). */
export function parseAct(raw: unknown, ctx: ActContext): ParseResult<PlannedStep> {
  const parsed = actArgsSchema(ctx.tools, ctx.catalog).safeParse(stripNulls(raw));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return { ok: false, error: `invalid act arguments (${issues}); available tools: ${ctx.tools.join(', ')}` };
  }
  const a = parsed.data as ActArgs;
  // Ids as listed (a prefix) become the full ids every later layer uses.
  const full: IdResolver = (id) => {
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
  // `plan=[]` is meant: nothing is left after this action (the open subgoals close with it).
  const revisedPlan = a.plan !== undefined ? { revisedPlan: a.plan } : {};
  const spec = ctx.catalog.get(a.tool);
  if (!spec) return { ok: false, error: `unknown tool ${a.tool}; available tools: ${ctx.tools.join(', ')}` };
  if (spec.meta) return metaStep(a, revisedPlan, ctx.catalog);
  const part = spec.parse(a, { catalog: ctx.catalog, id: full, maxBurst: ctx.maxBurst });
  if (!part.ok) return part;

  let expect: Decision['expect'] = { kind: 'no_change' };
  // A skill verifies itself (its readout at the target); the model's expect is not needed.
  if (spec.expectation) expect = spec.expectation(a);
  else if (!spec.terminal) {
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
  const action: Action = { tool: spec.name };
  if (a.target_id) action.target_id = a.target_id;
  if (a.point) action.point = { x: a.point.x, y: a.point.y };
  if (a.direction) action.direction = a.direction;
  // The text is the action's unless the tool's fields say what it is (a label, an answer, a reason).
  const own: Record<string, unknown> = { ...(a.text !== undefined ? { text: a.text } : {}), ...part.action };
  for (const [k, v] of Object.entries(own)) if (v !== undefined) (action as Record<string, unknown>)[k] = v;
  const ban = ctx.banned?.get(actionSignature(action, ctx.catalog));
  if (ban !== undefined) {
    // Named as sent; a point a few units off a banned one is the same action (the signature's grid).
    const sent = describeAction(action, ctx.catalog);
    const same = ban.startsWith(sent) ? '' : ` (too close to the banned ${ban})`;
    return { ok: false, error: `${sent} is banned on this page${same}: it failed here; choose something else` };
  }
  const decision: Decision = { thought: a.thought, action, expect };
  if (ctx.subgoal) decision.subgoal = ctx.subgoal;
  return { ok: true, value: { decision, ...done(a, !!spec.terminal), ...revisedPlan } };
}

/** `subgoal_done`: true, false, or N (subgoal N of the Plan, 1-based, and the open ones before it). */
function done(a: ActArgs, dflt: boolean): Pick<PlannedStep, 'subgoalDone' | 'doneThrough'> {
  const d = a.subgoal_done;
  if (typeof d === 'number') return { subgoalDone: true, doneThrough: d - 1 };
  return { subgoalDone: d ?? dflt };
}

/** look, read and note act on the agent, not the phone: a no-op decision the loop does not dispatch. */
function metaStep(a: ActArgs, revisedPlan: { revisedPlan?: string[] }, catalog: ToolCatalog): ParseResult<PlannedStep> {
  const action = { tool: agentTool(catalog, 'pause'), ms: 0 };
  const meta = { thought: a.thought, action, expect: { kind: 'no_change' as const } };
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
        ...done(a, false),
        read: { target_id: a.target_id, text: a.text },
        ...revisedPlan,
      },
    };
  }
  const text = a.text?.trim();
  if (!text) return { ok: false, error: 'note needs text: the fact to remember (shown in every later prompt)' };
  if (text.length > MAX_NOTE_CHARS)
    return { ok: false, error: `note text is ${text.length} characters; keep it under ${MAX_NOTE_CHARS}` };
  return { ok: true, value: { decision: meta, ...done(a, false), note: text, ...revisedPlan } };
}
