import { z } from 'zod';
import { WAIT_CONDITIONS } from '../core/wait-conditions.js';
import { LIMITS } from '../device/protocol/limits.js';
import { nativeRequest, refuse, sendNative } from '../executor/dispatch.js';
import { bindSelector, byId, selectorFor } from '../executor/native-args.js';
import { waitOnReads } from '../executor/wait-reads.js';
import { FIELD } from '../planner/act-schema.js';
import type { ActArgs, ToolParse } from '../planner/tool-spec.js';
import { McpElementId, McpSelector } from './mcp-fields.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/**
 * Wait (≤ 30 s) until something appears, goes, settles or reads a value: the helper's native wait,
 * or polled plain reads where the device has none (ADB). Offered where something is still loading.
 */

function parse(f: ActArgs): ToolParse {
  const condition = typeof f.op === 'string' ? f.op : f.target_id ? 'appears' : 'stable';
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
    if (typeof f.value !== 'number') return { ok: false, error: 'wait_until value_equals needs value' };
    args.value = f.value;
  }
  return { ok: true, action: { args } };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export const waitUntil: Tool = {
  name: 'wait_until',
  explore: 'free',
  help: says(`wait_until(op=${WAIT_CONDITIONS.join('|')}, target_id?, text?, value?) up to 5 s`),
  fields: { op: FIELD.string, value: FIELD.number },
  // Without the helper's native wait, the executor waits on plain reads.
  needs: [['wait_until'], ['snapshot']],
  readOnly: true,
  offeredOn: (t) => t.loading,
  member: true,
  parse,
  fieldsOf: (a) => {
    const args = a.args ?? {};
    const sel = args.selector as { text?: unknown } | undefined;
    return {
      op: str(args.condition),
      text: str(args.text) ?? str(sel?.text),
      value: typeof args.value === 'number' ? args.value : undefined,
    };
  },
  bind: bindSelector,
  asMember: (m, obs) => {
    const args = { ...m.args };
    const el = byId(obs, m.target_id);
    if (el) args.selector = selectorFor(el);
    // A wait in a sequence is bounded tighter than one alone (PROTOCOL.md): the model names no
    // timeout, so it gets the longest a member may take rather than a 5 s default the bridge refuses.
    args.timeout_ms ??= LIMITS.maxGroupWaitMs;
    return { action: 'wait_until', ...args };
  },
  prepare: (a, obs) => nativeRequest(a, obs),
  dispatch: async (ctx, _a, _t, req, d) => {
    if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', 'wait_until has no request') };
    if (req.action === 'wait_until' && !ctx.device.capabilities().ops.has('wait_until'))
      return { call: await waitOnReads(ctx.device, req, d) };
    return sendNative(ctx.device, req, d);
  },
  mcp: {
    title: 'Wait until',
    description: `Wait (read-only, ≤ 30 s) until a condition holds: ${WAIT_CONDITIONS.join(', ')}. A failed read never proves disappearance.`,
    fields: {
      selector: McpSelector,
      element_id: McpElementId,
      condition: z.enum(WAIT_CONDITIONS),
      text: z.string().optional(),
      value: z.number().optional(),
      timeout_ms: z.number().int().optional(),
      stable_ms: z.number().int().optional(),
    },
  },
};
