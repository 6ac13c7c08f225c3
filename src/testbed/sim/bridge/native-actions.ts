import type { ErrorCode, Selector, WindowInfo } from '../../../core/types.js';
import type {
  ControlOp,
  ControlRequest,
  ReadControlRequest,
  SetTextRequest,
} from '../../../device/protocol/actions.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
import type { NodeAction } from '../surface.js';
import { type ExecContext, fromInput, inject, now, readTree, rejected } from './context.js';
import { controlInfo, nodeState, nodeToken, type Resolved, resolve, targetWindows, visibleArea } from './selector.js';
import { readAgain, readForSelector } from './target-read.js';

/**
 * Native control actions (read_control, control_action, set_text): resolve the selector on a fresh
 * read (Android's query for its id or text when it has one, ./target-read.ts; else the tree), check
 * token, support, range and occlusion, then ask the phone to act on that very node. No
 * fallback to coordinates: a control that cannot be acted on natively is an error, not a tap.
 */

function focusedEditable(snap: WireSnapshot): Resolved {
  const wins = targetWindows(snap) ?? [];
  const ids = new Set(wins.map((w) => w.id));
  const hits = snap.nodes.filter((n) => ids.has(n.window) && n.flags.focused && n.flags.editable);
  const [node] = hits;
  const window = node && wins.find((w) => w.id === node.window);
  if (!node || !window)
    return { ok: false, code: 'NOT_FOUND', message: 'no editable field has focus; give a selector' };
  return { ok: true, node, window };
}

/** UTF-16 length, and whether index i splits a surrogate pair. */
function splitsPair(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const hi = text.charCodeAt(i - 1);
  const lo = text.charCodeAt(i);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}

type Check = { ok: true; action: NodeAction } | { ok: false; code: ErrorCode; message: string };

const TEXT_OPS: ReadonlySet<ControlOp> = new Set(['set_text', 'set_selection', 'replace_selection']);

/** Pre-dispatch checks of one control op against the node's real capabilities. */
function checkOp(node: WireNode, req: ControlRequest): Check {
  const op: ControlOp = req.action;
  if (TEXT_OPS.has(op) && !node.flags.editable)
    return { ok: false, code: 'NOT_EDITABLE', message: `${op} needs an editable field; this ${node.className} is not` };
  if (!node.actions.includes(op))
    return {
      ok: false,
      code: 'UNSUPPORTED',
      message: `the control does not support ${op}; it supports: ${node.actions.join(', ') || 'nothing'}`,
    };
  switch (op) {
    case 'set_progress': {
      const r = node.range;
      const v = req.value ?? Number.NaN;
      if (!r) return { ok: false, code: 'UNSUPPORTED', message: 'the control has no range; set_progress needs one' };
      if (!(v >= r.min && v <= r.max))
        return {
          ok: false,
          code: 'OUT_OF_RANGE',
          message: `value ${v} is outside the control's range ${r.min}..${r.max}`,
        };
      return { ok: true, action: { action: 'set_progress', value: v } };
    }
    case 'set_text':
      return { ok: true, action: { action: 'set_text', text: req.text ?? '' } };
    case 'set_selection': {
      const start = req.start ?? 0;
      const end = req.end ?? 0;
      if (node.flags.password)
        return { ok: false, code: 'UNSUPPORTED', message: 'selections in password fields are not supported' };
      if (end > node.text.length)
        return {
          ok: false,
          code: 'OUT_OF_RANGE',
          message: `selection ${start}..${end} is beyond the text (${node.text.length} UTF-16 units)`,
        };
      if (splitsPair(node.text, start) || splitsPair(node.text, end))
        return {
          ok: false,
          code: 'OUT_OF_RANGE',
          message: 'the selection would split a surrogate pair (UTF-16 indices)',
        };
      return { ok: true, action: { action: 'set_selection', start, end } };
    }
    case 'replace_selection':
      if (node.flags.password)
        return {
          ok: false,
          code: 'UNSUPPORTED',
          message: 'replacing a selection of hidden password text is not supported',
        };
      return { ok: true, action: { action: 'replace_selection', text: req.text ?? '' } };
    default:
      return { ok: true, action: { action: op } };
  }
}

type Located = { ok: true; snap: WireSnapshot; node: WireNode; window: WindowInfo };

async function locate(
  ctx: ExecContext,
  selector: Selector | undefined,
  expectedToken: string | undefined,
): Promise<Located | { ok: false; code: ErrorCode; message: string }> {
  const read = selector ? await readForSelector(ctx, selector) : await readTree(ctx);
  if (!read.ok) return read;
  const r = selector ? resolve(read.snap, selector) : focusedEditable(read.snap);
  if (!r.ok) return r;
  if (expectedToken !== undefined && nodeToken(r.node) !== expectedToken)
    return {
      ok: false,
      code: 'STALE',
      message:
        'the control changed (text, position or identity) since it was read for this action; re-observe before acting',
    };
  return { ok: true, snap: read.snap, node: r.node, window: r.window };
}

export async function readControl(ctx: ExecContext, req: ReadControlRequest): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  const l = await locate(ctx, req.selector, undefined);
  if (!l.ok) return rejected(ctx, 'read_control', startedAt, l.code, l.message);
  const control = controlInfo(l.snap, l.node, l.window);
  return {
    op_id: ctx.opId,
    action: 'read_control',
    status: 'observed',
    delivery: 'not_delivered',
    timings: { received_at: ctx.receivedAt, started_at: startedAt, ended_at: now(ctx) },
    control,
  };
}

/** Shared by control_action and set_text: one retry when the screen moved between read and act. */
async function act(
  ctx: ExecContext,
  name: 'control_action' | 'set_text',
  req: ControlRequest | (Omit<ControlRequest, 'selector'> & { selector?: Selector }),
): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  for (let attempt = 0; ; attempt++) {
    const l = await locate(ctx, req.selector, req.expected_token);
    if (!l.ok) return rejected(ctx, name, startedAt, l.code, l.message);
    const check = checkOp(l.node, req as ControlRequest);
    const before = nodeState(l.snap, l.node);
    if (!check.ok) return rejected(ctx, name, startedAt, check.code, check.message, { before });
    if (req.action !== 'show_on_screen' && visibleArea(l.snap, l.node, l.window) === 0)
      return rejected(
        ctx,
        name,
        startedAt,
        'OCCLUDED',
        'the control is completely covered (keyboard, dialog or overlay) or off screen; dismiss what covers it or scroll, then re-observe',
        { before },
      );
    if (ctx.signal.aborted) return rejected(ctx, name, startedAt, 'CANCELLED', 'cancelled before dispatch');
    const dispatchedAt = now(ctx);
    const result = await inject(() => ctx.phone.nodeAction(l.snap.seq, l.node.id, check.action));
    // The screen changed between our read and the act: nothing happened, resolve again once.
    // (expected_token, if given, is checked again on the fresh read.)
    if (!result.ok && result.code === 'STALE' && attempt === 0) continue;
    const again = await readAgain(ctx, l.node);
    const after = again ? nodeState(again.snap, again.node) : undefined;
    return fromInput(ctx, name, startedAt, dispatchedAt, result, { before, ...(after ? { after } : {}) });
  }
}

export function controlAction(ctx: ExecContext, req: ControlRequest): Promise<ActionReceipt> {
  return act(ctx, 'control_action', req);
}

export function setText(ctx: ExecContext, req: SetTextRequest): Promise<ActionReceipt> {
  return act(ctx, 'set_text', {
    action: 'set_text',
    text: req.text,
    ...(req.selector ? { selector: req.selector } : {}),
    ...(req.expected_token !== undefined ? { expected_token: req.expected_token } : {}),
  });
}
