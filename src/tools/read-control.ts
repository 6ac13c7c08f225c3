import { writeRange } from '../core/range-value.js';
import { readControlOnReads } from '../executor/control-reads.js';
import { nativeRequest, refuse, sendNative } from '../executor/dispatch.js';
import { bindSelector } from '../executor/native-args.js';
import { McpElementId, McpSelector } from './mcp-fields.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** A control's value, range and state (a slider's the listing does not show); nothing is sent to the phone. */
export const readControl: Tool = {
  name: 'read_control',
  explore: 'free',
  help: says('read_control(target_id) its value, range and state'),
  // Without the helper's native read, the executor reads the tree (a slider's value off the screenshot).
  needs: [['read_control'], ['snapshot']],
  readOnly: true,
  // A field's value is on its line; a slider's line has its value and ends, not the actions it supports (nor a frame read's detail).
  offeredOn: (t) => t.range || t.slider || t.drawn,
  quiet: true,
  parse: (a) => (a.target_id ? { ok: true, action: {} } : { ok: false, error: 'read_control needs target_id' }),
  bind: bindSelector,
  prepare: (a, obs) => nativeRequest(a, obs),
  summary: controlSummary,
  dispatch: async (ctx, _a, _t, req, d) => {
    if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', 'read_control has no request') };
    if (req.action === 'read_control' && !ctx.device.capabilities().ops.has('read_control')) {
      const call = await readControlOnReads(ctx.device, req, d);
      return { call, value: call.device?.control };
    }
    return sendNative(ctx.device, req, d);
  },
  mcp: {
    title: 'Read a control',
    description:
      "Read a control: range, value, supported actions, selection, state and an identity token, in `value`. Read-only: nothing is sent to the phone (delivery_status not_delivered). Over adb a slider's value is read off a screenshot (range_source frame), else the result says it cannot be read (READ_FAILED).",
    fields: { selector: McpSelector, element_id: McpElementId },
  },
};

/**
 * A read_control's answer, for the history: what the control holds, in one short line — always
 * something, so a control with nothing to read (a map drawn in pixels) says so instead of "ok".
 */
export function controlSummary(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as {
    class_name?: string;
    text?: string;
    content_desc?: string;
    hint?: string;
    flags?: Record<string, boolean>;
    range?: { min: number; max: number; current: number };
    range_source?: 'tree' | 'frame';
    value_unreadable?: string;
    selection?: { start: number; end: number };
  };
  const f = v.flags ?? {};
  const parts: string[] = [];
  if (v.text) parts.push(`text=${JSON.stringify(v.text)}`);
  else if (f.password) parts.push('text hidden (password)');
  if (v.content_desc && v.content_desc !== v.text) parts.push(`desc=${JSON.stringify(v.content_desc)}`);
  if (!v.text && v.hint) parts.push(`hint=${JSON.stringify(v.hint)}`);
  if (v.range?.current !== undefined && v.range_source === 'frame')
    parts.push(`value≈${v.range.current}% of the track (read off the screenshot)`);
  // As the listing writes it (core/range-value.ts): the value, then its track's ends.
  else if (v.range) parts.push(`value=${writeRange(v.range)}`);
  if (v.value_unreadable) parts.push(`its value cannot be read: ${v.value_unreadable}`);
  if (f.checkable) parts.push(f.checked ? 'checked' : 'unchecked');
  if (f.selected) parts.push('selected');
  if (f.enabled === false) parts.push('disabled');
  if (v.selection && v.selection.end > v.selection.start)
    parts.push(`selection ${v.selection.start}-${v.selection.end}`);
  const line = parts.join(' ');
  if (!v.text && !v.range && !f.checkable && !f.editable)
    return `read: ${v.class_name?.split('.').pop() ?? 'view'}${line ? ` ${line}` : ''}; it holds no text, value or range (what it shows is not in the tree)`;
  return `read: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
}
