import { z } from 'zod';
import type { Element, Observation, Selector } from '../core/types.js';
import { LIMITS } from '../device/protocol/limits.js';
import { nativeRequest, refuse, sendNative } from '../executor/dispatch.js';
import { byId, fullSelectors, resourceIdMatches } from '../executor/native-args.js';
import { fullOf, STR } from '../planner/act-schema.js';
import type {
  ActArgs,
  FieldSet,
  Json,
  ParseCtx,
  PlannerToolSpec,
  ToolCatalog,
  ToolParse,
} from '../planner/tool-spec.js';
import { controlAction } from './control-action.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';
import { waitUntil } from './wait-until.js';

/**
 * Several native steps in one go on the phone (set a slider, then wait for the screen to settle):
 * each member is a tool whose spec says it may be one (`member`), written in the act call's own
 * fields and parsed by its own spec. Every member is checked against its live control before the
 * first one runs.
 */

/** One sequence, as a model writes it (it is offered by sliders and drawn views): set, then let the screen settle. */
export const SEQUENCE_EXAMPLE = JSON.stringify([
  { tool: controlAction.name, target_id: '…', op: 'set_progress', value: 40 },
  { tool: waitUntil.name, op: 'stable' },
]);

/**
 * A step as parsed first: its tool and target; its own fields are its member spec's (checked in
 * parse). A step on a screen a tap before it opens names its control by `label` (ids are this
 * screen's): the agent grounds it there (agent/flash-burst.ts); `state` makes a switch's click
 * certain on a screen not seen yet (clicked only when it is not in that state).
 */
const StepArg = z.looseObject({
  tool: z.string(),
  target_id: z.string().optional(),
  label: z.string().min(1).optional(),
  state: z.enum(['on', 'off']).optional(),
  text: z.string().optional(),
});
type Step = z.infer<typeof StepArg>;

/** A member named by label is grounded later; its own spec is asked with this stand-in for a target. */
const BY_LABEL = '(label)';

/** The zod of a member's own fields (op, value, frames…), for its steps. */
function fieldsZod(m: PlannerToolSpec): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(m.fields ?? {}).map(([k, f]) => [k, f.zod])));
}

/** The tools a step may be: every member tool, a drawn one only where it is offered (its fields need its help line). */
function members(offered: readonly PlannerToolSpec[], catalog: ToolCatalog): PlannerToolSpec[] {
  return [...catalog.values()].filter((t) => t.member && (!t.drawn || offered.includes(t)));
}

/** The steps' compact schema: a member's tool, target and the members' own fields (as the act call's). */
function stepJson(offered: readonly PlannerToolSpec[], catalog: ToolCatalog): Json {
  const ms = members(offered, catalog);
  const own: Record<string, Json> = {};
  for (const m of ms)
    for (const [k, f] of Object.entries(m.fields ?? {}))
      own[k] ??= typeof f.json === 'function' ? f.json(offered, catalog) : f.json;
  const properties = {
    tool: { enum: ms.map((t) => t.name) },
    target_id: STR,
    label: STR,
    state: { enum: ['on', 'off'] },
    ...own,
    text: STR,
  };
  return { type: 'array', items: { type: 'object', properties, required: ['tool'] } };
}

/** The steps in full, for strict-mode providers: every member and every member field spelled out. */
function stepFull(_offered: readonly PlannerToolSpec[], catalog: ToolCatalog): Json {
  const ms = [...catalog.values()].filter((t) => t.member);
  const [first, ...rest] = ms.map((t) => t.name);
  const own = Object.assign({}, ...ms.map((m) => fieldsZod(m).shape));
  const step = z.object({
    tool: z.enum([first ?? '', ...rest]),
    target_id: z.string().optional(),
    label: z.string().optional(),
    state: z.enum(['on', 'off']).optional(),
    ...own,
    text: z.string().optional(),
  });
  return fullOf(z.array(step))();
}

function parse(a: ActArgs, ctx: ParseCtx): ToolParse {
  const steps = a.steps as Step[] | undefined;
  if (!steps || steps.length < 1)
    return { ok: false, error: 'action_sequence needs steps: [{tool, target_id?, op?, value?, text?, frames?}, …]' };
  const max = Math.min(ctx.maxBurst ?? LIMITS.maxBurstActions, LIMITS.maxBurstActions);
  if (steps.length > max)
    return {
      ok: false,
      error: `action_sequence takes at most ${max} steps (the task setting pro.execution.max_burst_actions), got ${steps.length}: send the first ${max}`,
    };
  const actions: Record<string, unknown>[] = [];
  let byLabel = -1;
  for (const [i, s] of steps.entries()) {
    const m = ctx.catalog.get(s.tool);
    if (!m?.member) {
      const allowed = [...ctx.catalog.values()].filter((t) => t.member).map((t) => t.name);
      return { ok: false, error: `action_sequence step ${i}: ${s.tool} cannot be a step; use ${allowed.join(', ')}` };
    }
    const placed = placement(s, i, byLabel);
    if (placed) return { ok: false, error: placed };
    if (s.label !== undefined && byLabel < 0) byLabel = i;
    let target_id = s.target_id;
    if (target_id !== undefined) {
      const r = ctx.id(target_id);
      if ('error' in r) return { ok: false, error: `steps target_id ${r.error}` };
      target_id = r.id;
    }
    const own = fieldsZod(m).safeParse(s);
    if (!own.success) {
      const issues = own.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ');
      return { ok: false, error: `action_sequence step ${i}: ${issues}` };
    }
    const b = m.parse(
      { thought: a.thought, ...s, ...own.data, target_id: target_id ?? (s.label && BY_LABEL) } as ActArgs,
      ctx,
    );
    if (!b.ok) return { ok: false, error: `action_sequence step ${i}: ${b.error}` };
    const named = target_id ? { target_id } : s.label ? { label: s.label, ...(s.state ? { state: s.state } : {}) } : {};
    actions.push({ tool: s.tool, ...named, args: b.action.args ?? {} });
  }
  // Members stay in planner shape ({tool, target_id, args}); the executor makes protocol members.
  return { ok: true, action: { args: { actions } } };
}

/**
 * Where a step's target may be named: by id or by label, not both; after a step by label, the
 * screen may be another, so no later step names this screen's id. Why not, for the model.
 */
function placement(s: Step, i: number, byLabel: number): string | undefined {
  if (s.label !== undefined && s.target_id !== undefined)
    return `action_sequence step ${i}: give target_id or label, not both`;
  if (s.state !== undefined && (s.label === undefined || s.op !== 'click'))
    return `action_sequence step ${i}: state=on|off goes with a click by label (a switch on the next screen)`;
  if (byLabel < 0 || s.label !== undefined) return undefined;
  if (s.target_id !== undefined)
    return `action_sequence step ${i} names ${s.target_id} by id after step ${byLabel} by label: ids are of this screen, and step ${byLabel} may run on another — give step ${i} by label too`;
  // A gesture's points are this screen's too; a wait for the screen to settle is anywhere's.
  if (s.tool !== waitUntil.name)
    return `action_sequence step ${i} (${s.tool}) acts on this screen's points after step ${byLabel} by label, which may run on another: end the sequence before it`;
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Whether an element answers to a selector as the phone matches one (every given field, exactly). */
function answers(e: Element, s: Selector): boolean {
  return (
    (!s.resource_id || resourceIdMatches(e.resourceId, s.resource_id)) &&
    (s.text === undefined || e.text === s.text) &&
    (s.content_desc === undefined || e.desc === s.content_desc) &&
    (!s.class_name || e.className === s.class_name)
  );
}

/**
 * A member's selector names its one element: rows of a list share an id or a class, and the phone
 * refuses a selector that matches several (AMBIGUOUS) — the element's bounds make it one. A member
 * after a page change is grounded on the screen it runs on (agent/flash-burst.ts), so these are
 * that screen's bounds.
 */
function distinct(member: Record<string, unknown>, el: Element | undefined, obs: Observation): Record<string, unknown> {
  const req = member.request as Record<string, unknown> | undefined;
  const sel = (req?.selector ?? member.selector) as Selector | undefined;
  if (!el || !sel || sel.bounds || obs.elements.filter((e) => answers(e, sel)).length <= 1) return member;
  const bounded = { ...sel, bounds: el.boundsPx };
  return req ? { ...member, request: { ...req, selector: bounded } } : { ...member, selector: bounded };
}

export const actionSequence: Tool = {
  name: 'action_sequence',
  // The members' fields are in the schema; the line shows one sequence whole.
  // A step takes every op of its tool: control_action's own line leaves out what tap/type do, and a
  // Flash player could not fill a field in a burst (its set_text was named nowhere).
  help: says(
    `action_sequence(steps) runs them in one go; a control_action step takes any op (click, set_text+text, set_progress+value): ${SEQUENCE_EXAMPLE}`,
  ),
  fields: {
    steps: {
      zod: z.array(StepArg).optional(),
      json: stepJson,
      full: stepFull,
    },
  },
  needs: [['action_sequence']],
  // For sliders and drawn surfaces (a field's set_text and ime_enter are one call each), and in
  // Flash wherever the screen has controls for a burst of certain steps.
  offeredOn: (t) => t.range || t.drawn || t.burst,
  parse,
  typed: () => false,
  fieldsOf: (a, catalog) => ({
    steps: (Array.isArray(a.args?.actions) ? a.args.actions : []).map((m): FieldSet => {
      const member = (m ?? {}) as Record<string, unknown> & { args?: Record<string, unknown> };
      const t = str(member.tool) ?? '';
      const own = catalog.get(t)?.fieldsOf?.({ tool: t, args: member.args ?? {} }, catalog) ?? {};
      const byLabel = { label: str(member.label), state: str(member.state) };
      return { tool: t, target_id: str(member.target_id), ...(byLabel.label ? byLabel : {}), ...own };
    }),
  }),
  // Members in planner shape ({tool, target_id, args}) become protocol members on this observation.
  bind: (a, obs, tools) => {
    if (!Array.isArray(a.args?.actions)) return a;
    const actions = a.args.actions.map((m) => {
      if (!m || typeof m !== 'object') return m;
      const r = m as Record<string, unknown>;
      if (typeof r.action === 'string') return r; // already in protocol shape
      const spec = tools.get(String(r.tool));
      const args = { ...((r.args as Record<string, unknown> | undefined) ?? {}) };
      const target_id = typeof r.target_id === 'string' ? r.target_id : undefined;
      const member = fullSelectors(
        spec?.asMember?.({ target_id, args }, obs) ?? { action: String(r.tool), ...args },
        obs,
      );
      return distinct(member, byId(obs, target_id), obs);
    });
    return { ...a, args: { ...a.args, actions } };
  },
  prepare: (a, obs) => nativeRequest(a, obs),
  dispatch: async (ctx, _a, _t, req, d) => {
    if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', 'action_sequence has no request') };
    if (req.action !== 'action_sequence') return sendNative(ctx.device, req, d);
    // Validate every member against its live control before the first one runs.
    const ms = [...req.actions];
    // A member after one that acts changes what later members reach: the same control (set_text,
    // then ime_enter), or another one's label (a quantity typed, then "Add to cart ¥75" where it
    // read ¥15 — a Flash burst refused as STALE). Only the members before the first that acts are
    // bound to the token read now; later ones are found by their selector when they run.
    let acted = false;
    for (const [i, m] of ms.entries()) {
      const check = ctx.tools.get(m.action)?.checkLive;
      if (check) {
        const c = await check(ctx, m, d);
        if (!c.ok) {
          const msg = `action_sequence member ${i}: ${c.call.ok ? '' : c.call.message}`;
          return { call: refuse(d, c.call.ok ? 'INTERNAL' : c.call.code, msg) };
        }
        if (!acted) ms[i] = c.req as typeof m;
      }
      if (m.action !== 'wait_until') acted = true;
    }
    return sendNative(ctx.device, { ...req, actions: ms }, d);
  },
};
