import type { ErrorCode, Range } from '../core/types.js';
import {
  type ActionRequest,
  ActionRequestSchema,
  type ControlInfo,
  type ControlRequest,
  checkActionGeometry,
  type ScreenSize,
} from '../device/protocol/index.js';

/**
 * Pure checks of native-tool input, run before any device call: a rejected request never moves a
 * finger and never reaches a backend. The helper protocol's own schemas and geometry checks are
 * used, so the executor and the bridge server agree on every limit; the checks that need the live
 * control (range, selection, token) are here.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

const bad = (code: ErrorCode, message: string): { ok: false; code: ErrorCode; message: string } => ({
  ok: false,
  code,
  message,
});

/** A protocol request body (`{ action, … }`) checked against the helper protocol's schema and geometry. */
export function checkNativeRequest(body: Record<string, unknown>, screen: ScreenSize): Checked<ActionRequest> {
  const r = ActionRequestSchema.safeParse(body);
  if (!r.success)
    return bad(
      'INVALID_ARGUMENT',
      `${String(body.action)}: ${r.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`,
    );
  const g = checkActionGeometry(r.data, screen);
  if (!g.ok) return bad(g.code, g.message);
  return { ok: true, value: r.data };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Whether UTF-16 index `i` falls between the two halves of a surrogate pair. */
export function splitsSurrogate(text: string, i: number): boolean {
  return i > 0 && i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i));
}

/** A selection in Android's UTF-16 indices: in `A😀B中文` the emoji is [1,3]. */
export function checkSelection(text: string, start: number, end: number): Checked<{ start: number; end: number }> {
  if (!Number.isInteger(start) || !Number.isInteger(end))
    return bad('INVALID_ARGUMENT', 'selection indices must be integers (UTF-16 code units)');
  if (start < 0 || end < start || end > text.length)
    return bad(
      'OUT_OF_RANGE',
      `selection [${start},${end}] is outside the field's text (0..${text.length} UTF-16 units, start ≤ end)`,
    );
  for (const i of [start, end])
    if (splitsSurrogate(text, i))
      return bad(
        'INVALID_ARGUMENT',
        `selection index ${i} splits a surrogate pair (an emoji or rare character); use ${i - 1} or ${i + 1}`,
      );
  return { ok: true, value: { start, end } };
}

/** set_progress only within the control's real min/max; no range → it has no native value. */
export function checkProgress(range: Range | undefined, value: number): Checked<number> {
  if (!range)
    return bad(
      'UNSUPPORTED',
      'this control exposes no range, so it cannot be set natively; use a gesture after reading the screen',
    );
  if (!Number.isFinite(value) || value < range.min || value > range.max)
    return bad('OUT_OF_RANGE', `value ${value} is outside the control's range ${range.min}..${range.max}`);
  return { ok: true, value };
}

/**
 * A control request against the control as just read: the action must be one the control
 * supports (native writes never fall back to coordinates), the value within its range, the
 * selection on whole characters, and the token unchanged.
 */
export function checkControlRequest(req: ControlRequest, control: ControlInfo): Checked<ControlRequest> {
  if (req.expected_token !== undefined && req.expected_token !== control.token)
    return bad(
      'STALE',
      'the control changed since it was read (expected_token differs); read_control again and decide',
    );
  const implicit = req.action === 'show_on_screen';
  if (!implicit && !control.actions.includes(req.action))
    return bad(
      'UNSUPPORTED',
      `the control does not support ${req.action} (it supports: ${control.actions.join(', ') || 'nothing'}); no coordinate fallback is made`,
    );
  if (req.action === 'set_progress') {
    const r = checkProgress(control.range, req.value ?? Number.NaN);
    if (!r.ok) return r;
  }
  if (req.action === 'set_selection') {
    if (control.flags.password)
      return bad('UNSUPPORTED', 'selections in a password field are not supported (its text is never exposed)');
    const r = checkSelection(control.text, req.start ?? -1, req.end ?? -1);
    if (!r.ok) return r;
  }
  if (req.action === 'replace_selection' && control.flags.password)
    return bad('UNSUPPORTED', 'replace_selection is not supported in a password field (its text is never exposed)');
  return { ok: true, value: req };
}
