import { z } from 'zod';
import type { Deadline } from '../core/clock.js';
import { submitsOnEnter } from '../core/field-submit.js';
import type { Action } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { ActionRequest } from '../device/protocol/index.js';
import { CONTROL_OPS, type ControlInfo } from '../device/protocol/index.js';
import { type DispatchCtx, refuse, sendNative } from '../executor/dispatch.js';
import { bindSelector, byId, selectorFor } from '../executor/native-args.js';
import { checkControlRequest, checkNativeRequest } from '../executor/native-validate.js';
import type { Live } from '../executor/tool-spec.js';
import { FIELD } from '../planner/act-schema.js';
import type { ActArgs, ScreenKinds, ToolParse } from '../planner/tool-spec.js';
import { McpElementId, McpSelector } from './mcp-fields.js';
import type { Tool } from './tool.js';

/**
 * A native action on a control (PROTOCOL.md §7): set a slider's value, submit or fill a field,
 * click, focus, scroll a list. Checked against the live control right before it is sent (range,
 * selection, token, supported actions); a native write never falls back to coordinates.
 */

/** The protocol's ops a model may ask for (selections are the MCP client's, by UTF-16 index). */
const OPS = CONTROL_OPS.filter((op) => op !== 'set_selection' && op !== 'replace_selection');
type Op = (typeof OPS)[number];

/** The ops a kind of control takes; the rest apply to any control. */
const OPS_OF: Partial<Record<Op, keyof ScreenKinds>> = {
  set_progress: 'slider',
  scroll_forward: 'list',
  scroll_backward: 'list',
  set_text: 'field',
  ime_enter: 'submit',
};

/** The offered tool that does what an op does (the parse still takes the op). */
const SAME_AS: Partial<Record<Op, string>> = { click: 'tap', long_click: 'long_press', set_text: 'type' };

/** The help: only the ops the screen's controls take (all of them without a screen). */
function help(k: ScreenKinds, offered: ReadonlySet<string>): string {
  const ops = OPS.filter((op) => {
    // click, long_click and set_text are what tap, long_press and type do by id: named only where those are not.
    if (offered.has(SAME_AS[op] ?? '')) return false;
    const kind = OPS_OF[op];
    return kind === undefined || k[kind];
  });
  const range = k.slider ? " set_progress takes the control's own range (current/max), not a percent" : '';
  // value is set_progress's, text set_text's: each said only with its op.
  const value = ops.includes('set_progress') ? ', value?' : '';
  const text = ops.includes('set_text') ? ', text?' : '';
  return `control_action(target_id, op=${ops.join('|')}${value}${text})${range}`;
}

function parse(f: ActArgs): ToolParse {
  const op = typeof f.op === 'string' ? f.op : undefined;
  const value = typeof f.value === 'number' ? f.value : undefined;
  if (!f.target_id) return { ok: false, error: 'control_action needs target_id' };
  if (!op || !(OPS as readonly string[]).includes(op))
    return { ok: false, error: `control_action needs op, one of: ${OPS.join(', ')}` };
  if (op === 'set_progress' && value === undefined)
    return { ok: false, error: "set_progress needs value: the raw value in the control's own range (not a percent)" };
  if (op === 'set_text' && f.text === undefined) return { ok: false, error: 'set_text needs text' };
  const args: Record<string, unknown> = { action: op };
  if (value !== undefined) args.value = value;
  if (f.text !== undefined && op === 'set_text') args.text = f.text;
  return { ok: true, action: { args } };
}

/** read_control through the device, for checks that need the live control. */
async function readLive(
  device: Device,
  selector: unknown,
  d: Deadline,
): Promise<{ ok: true; control: ControlInfo } | { ok: false; call: Live & { ok: false } }> {
  const r = checkNativeRequest(
    { action: 'read_control', selector: selector as Record<string, unknown> },
    { width: 1, height: 1 },
  );
  if (!r.ok) return { ok: false, call: { ok: false, call: refuse(d, r.code, r.message) } };
  const call = await device.native(r.value, d);
  if (!call.ok || !call.device?.control) return { ok: false, call: { ok: false, call } };
  return { ok: true, control: call.device.control };
}

/** Control requests that need the live control: range, selection, token, supported actions. */
async function checkLive(ctx: DispatchCtx, req: ActionRequest, d: Deadline): Promise<Live> {
  if (req.action !== 'control_action') return { ok: true, req };
  const live = await readLive(ctx.device, req.request.selector, d);
  if (!live.ok) return live.call;
  const c = checkControlRequest(req.request, live.control);
  if (!c.ok) return { ok: false, call: refuse(d, c.code, c.message) };
  // Bind the write to the very control just checked.
  return {
    ok: true,
    req: { ...req, request: { ...req.request, expected_token: req.request.expected_token ?? live.control.token } },
  };
}

/** The protocol op a control action performs (its `args.action`). */
const opOf = (a: Action): string => String(a.args?.action ?? '');
const ops =
  (...these: string[]) =>
  (a: Action) =>
    these.includes(opOf(a));

export const controlAction: Tool = {
  name: 'control_action',
  help,
  fields: { op: FIELD.string, value: FIELD.number },
  // The write is checked against the control as read first.
  needs: [['control_action', 'read_control']],
  // What only the control tools do: set or read a range, and submit a field (a real phone's
  // keyboard keys are not in the tree, so there is no key to tap).
  offeredOn: (t) => t.control,
  member: true,
  parse,
  typed: (f) => f.op === 'set_text',
  fieldsOf: (a) => {
    const args = a.args ?? {};
    return {
      op: typeof args.action === 'string' ? args.action : undefined,
      value: typeof args.value === 'number' ? args.value : undefined,
      text: typeof args.text === 'string' ? args.text : undefined,
    };
  },
  presses: ops('click', 'long_click'),
  entersText: ops('set_text', 'replace_selection'),
  submits: ops('ime_enter'),
  showsNothing: ops('focus', 'show_on_screen'),
  // A click on a launcher icon opens its app.
  opensApp: (a) => (opOf(a) === 'click' ? 'by_icon' : undefined),
  bind: bindSelector,
  asMember: (m, obs) => {
    const el = byId(obs, m.target_id);
    return { action: 'control_action', request: { ...(el ? { selector: selectorFor(el) } : {}), ...m.args } };
  },
  // The args are the control request itself (`{ selector, action, value?, … }`).
  prepare: (a, obs) => {
    const el = byId(obs, a.target_id);
    // Per field: enter submits a search box only (core/field-submit.ts); elsewhere it did nothing.
    if (a.args?.action === 'ime_enter' && el && !submitsOnEnter(el))
      return {
        ok: false,
        code: 'UNSUPPORTED',
        message: `enter does not submit ${el.label ? `"${el.label}"` : 'this field'} (only a field marked submits takes ime_enter); tap the screen's own button (Search, Send, OK, Save) instead`,
      };
    const r = checkNativeRequest(
      { action: 'control_action', request: { ...(a.args ?? {}) } },
      { width: obs.screen.w, height: obs.screen.h },
    );
    return r.ok ? { ok: true, req: r.value } : r;
  },
  checkLive,
  dispatch: async (ctx, _a, _t, req, d) => {
    if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', 'control_action has no request') };
    const c = await checkLive(ctx, req, d);
    if (!c.ok) return { call: c.call };
    return sendNative(ctx.device, c.req, d);
  },
  mcp: {
    title: 'Native control action',
    description: `Perform a native action the control supports (${CONTROL_OPS.join(', ')}); no coordinate fallback. set_progress needs value; set_text/replace_selection need text; set_selection start/end (UTF-16).`,
    fields: {
      selector: McpSelector,
      element_id: McpElementId,
      action: z.enum(CONTROL_OPS),
      value: z.number().optional(),
      text: z.string().optional(),
      start: z.number().int().optional(),
      end: z.number().int().optional(),
      expected_token: z.string().optional(),
    },
    destructive: true,
  },
};
