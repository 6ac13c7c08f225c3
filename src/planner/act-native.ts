import { z } from 'zod';
import type { Action } from '../core/types.js';
import { WAIT_CONDITIONS } from '../core/wait-conditions.js';

/** Re-exported for the prompt's tool list; the list itself lives in core. */
export { WAIT_CONDITIONS };

/**
 * The seed's native tools (read_control, control_action, wait_until, scroll_to, touch_gesture,
 * action_sequence) in the `act` schema's flat fields, turned into the action's `args`. Selectors
 * are not built here: the model names elements by id, and the executor derives the protocol
 * selector (and scroll_to's container) from the observation (executor/native-args.ts).
 */

/** Control operations a model can ask for through `op` (the protocol's set, PROTOCOL.md §7). */
export const CONTROL_OPS = [
  'click',
  'long_click',
  'focus',
  'show_on_screen',
  'set_progress',
  'scroll_forward',
  'scroll_backward',
  'set_text',
  'ime_enter',
] as const;

const Point = z.object({ x: z.number(), y: z.number() });
export const FrameArg = z.object({ at_ms: z.number(), points: z.array(Point).min(1).max(5) });

/** One member of an action_sequence, in the same flat fields as `act` itself. */
export const SequenceStepArg = z.object({
  tool: z.enum(['control_action', 'wait_until', 'touch_gesture']),
  target_id: z.string().optional(),
  op: z.string().optional(),
  value: z.number().optional(),
  text: z.string().optional(),
  frames: z.array(FrameArg).optional(),
});

export interface NativeFields {
  tool: string;
  target_id?: string;
  op?: string;
  value?: number;
  text?: string;
  direction?: 'up' | 'down' | 'left' | 'right';
  frames?: z.infer<typeof FrameArg>[];
  steps?: z.infer<typeof SequenceStepArg>[];
}

type Built = { ok: true; args?: Record<string, unknown> } | { ok: false; error: string };

function controlArgs(f: NativeFields): Built {
  if (!f.target_id) return { ok: false, error: 'control_action needs target_id' };
  if (!f.op || !(CONTROL_OPS as readonly string[]).includes(f.op))
    return { ok: false, error: `control_action needs op, one of: ${CONTROL_OPS.join(', ')}` };
  if (f.op === 'set_progress' && f.value === undefined)
    return { ok: false, error: "set_progress needs value: the raw value in the control's own range (not a percent)" };
  if (f.op === 'set_text' && f.text === undefined) return { ok: false, error: 'set_text needs text' };
  const args: Record<string, unknown> = { action: f.op };
  if (f.value !== undefined) args.value = f.value;
  if (f.text !== undefined && f.op === 'set_text') args.text = f.text;
  return { ok: true, args };
}

function waitArgs(f: NativeFields): Built {
  const condition = f.op ?? (f.target_id ? 'appears' : 'stable');
  if (!(WAIT_CONDITIONS as readonly string[]).includes(condition))
    return { ok: false, error: `wait_until needs op, one of: ${WAIT_CONDITIONS.join(', ')}` };
  if (condition !== 'stable' && !f.target_id && !(condition === 'appears' && f.text))
    return { ok: false, error: `wait_until ${condition} needs target_id (or text for appears)` };
  const args: Record<string, unknown> = { condition };
  if (condition === 'appears' && !f.target_id && f.text) args.selector = { text: f.text };
  if (condition === 'text_equals') {
    if (f.text === undefined) return { ok: false, error: 'wait_until text_equals needs text' };
    args.text = f.text;
  }
  if (condition === 'value_equals') {
    if (f.value === undefined) return { ok: false, error: 'wait_until value_equals needs value' };
    args.value = f.value;
  }
  return { ok: true, args };
}

function gestureArgs(f: NativeFields): Built {
  if (!f.frames || f.frames.length < 2)
    return {
      ok: false,
      error: 'touch_gesture needs frames: [{at_ms:0, points:[{x,y}…]}, {at_ms:300, points:[…]}] (≥ 2, 0..1000)',
    };
  return { ok: true, args: { coord_space: 'normalized', frames: f.frames } };
}

/** scroll_to: the item's exact text; the list is target_id or, when omitted, the one on screen. */
function scrollArgs(f: NativeFields): Built {
  if (!f.text) return { ok: false, error: 'scroll_to needs text: the exact text of the item to bring into view' };
  const backward = f.direction === 'up' || f.direction === 'left';
  return { ok: true, args: { target: { text: f.text }, direction: backward ? 'backward' : 'forward' } };
}

function sequenceArgs(f: NativeFields): Built {
  if (!f.steps || f.steps.length < 1)
    return { ok: false, error: 'action_sequence needs steps: [{tool, target_id?, op?, value?, text?, frames?}, …]' };
  const actions: Record<string, unknown>[] = [];
  for (const [i, s] of f.steps.entries()) {
    const b = buildNativeArgs(s);
    if (!b.ok) return { ok: false, error: `action_sequence step ${i}: ${b.error}` };
    actions.push({ tool: s.tool, ...(s.target_id ? { target_id: s.target_id } : {}), args: b.args ?? {} });
  }
  // Members stay in planner shape ({tool, target_id, args}); the executor makes protocol members.
  return { ok: true, args: { actions } };
}

/** The args of a native tool from the act fields; tools without args (read_control) get none. */
export function buildNativeArgs(f: NativeFields): Built {
  switch (f.tool) {
    case 'control_action':
      return controlArgs(f);
    case 'wait_until':
      return waitArgs(f);
    case 'touch_gesture':
      return gestureArgs(f);
    case 'scroll_to':
      return scrollArgs(f);
    case 'action_sequence':
      return sequenceArgs(f);
    case 'read_control':
      return f.target_id ? { ok: true } : { ok: false, error: 'read_control needs target_id' };
    default:
      return { ok: true };
  }
}

/** Ids an action refers to, inside its sequence members too (each must be on the screen). */
export function memberIds(a: Action): string[] {
  const actions = a.args?.actions;
  if (!Array.isArray(actions)) return [];
  return actions
    .map((m) => (m && typeof m === 'object' ? (m as { target_id?: unknown }).target_id : undefined))
    .filter((x): x is string => typeof x === 'string');
}

/** An act field's value as the history shows it (see `actFields`). */
export type FieldValue = string | number | { x: number; y: number } | FieldSet[] | { frames: number };
export type FieldSet = { tool?: string; target_id?: string } & Record<string, FieldValue | undefined>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const numOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A native tool's `args` back in the act fields that built them (buildNativeArgs run backwards). */
function nativeFields(tool: string, args: Record<string, unknown>): Record<string, FieldValue | undefined> {
  switch (tool) {
    case 'control_action':
      return { op: str(args.action), value: numOf(args.value), text: str(args.text) };
    case 'wait_until': {
      const sel = args.selector as { text?: unknown } | undefined;
      return { op: str(args.condition), text: str(args.text) ?? str(sel?.text), value: numOf(args.value) };
    }
    case 'touch_gesture':
      return { frames: { frames: Array.isArray(args.frames) ? args.frames.length : 0 } };
    case 'scroll_to': {
      const target = args.target as { text?: unknown } | undefined;
      return { text: str(target?.text), direction: args.direction === 'backward' ? 'up' : undefined };
    }
    case 'pinch':
      return { scale: numOf(args.scale) };
    case 'set_slider':
      return { value: numOf(args.value) };
    case 'action_sequence':
      return {
        steps: (Array.isArray(args.actions) ? args.actions : []).map((m) => {
          const member = (m ?? {}) as { tool?: unknown; target_id?: unknown; args?: Record<string, unknown> };
          const t = str(member.tool) ?? '';
          return { tool: t, target_id: str(member.target_id), ...nativeFields(t, member.args ?? {}) };
        }),
      };
    default:
      return {};
  }
}

/**
 * An action in the `act` call's own fields (`op`, `steps`, `value`, `text`…), the shape the model
 * sends, so the history never shows it another shape (protocol `args`) to copy.
 */
export function actFields(a: Action): FieldSet {
  const f: FieldSet = { tool: a.tool, target_id: a.target_id };
  if (a.point) f.point = { x: Math.round(a.point.x), y: Math.round(a.point.y) };
  if (a.direction) f.direction = a.direction;
  if (a.package) f.package = a.package;
  if (a.tool === 'wait' && a.ms !== undefined) f.value = a.ms;
  const text = a.text ?? a.answer ?? a.question ?? a.reason;
  if (text !== undefined) f.text = text;
  if (a.args) for (const [k, v] of Object.entries(nativeFields(a.tool, a.args))) if (v !== undefined) f[k] = v;
  return f;
}
