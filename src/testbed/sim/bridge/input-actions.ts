import type {
  ImeCommitRequest,
  KeyRequest,
  LaunchAppRequest,
  LongPressRequest,
  PinchRequest,
  SwipeRequest,
  TapRequest,
  TouchGestureRequest,
} from '../../../device/protocol/actions.js';
import { pinchStrokes, toPx, touchGestureStrokes } from '../../../device/protocol/gesture.js';
import type { ActionReceipt } from '../../../device/protocol/receipt.js';
import type { InputResult } from '../surface.js';
import { type ExecContext, fromInput, inject, now, rejected } from './context.js';
import { touchCheck } from './guard-check.js';

/**
 * Coordinate and system input: taps, presses, swipes, multi-finger gestures, keys, IME commits and
 * app launches. Geometry was already checked against the screen (checkActionGeometry) before these run.
 */

export type InputRequest =
  | TapRequest
  | LongPressRequest
  | SwipeRequest
  | TouchGestureRequest
  | PinchRequest
  | KeyRequest
  | ImeCommitRequest
  | LaunchAppRequest;

export async function runInput(ctx: ExecContext, req: InputRequest): Promise<ActionReceipt> {
  const startedAt = now(ctx);
  const screen = ctx.phone.screen();
  const { phone } = ctx;
  const dispatchedAt = now(ctx);
  switch (req.action) {
    case 'tap':
    case 'long_press': {
      const p = toPx(req, req.coord_space, screen);
      const r = await inject(() => phone.tap(p.x, p.y, req.duration_ms, req.guard && touchCheck(req.guard, p)));
      return touched(ctx, req, startedAt, dispatchedAt, r);
    }
    case 'swipe': {
      const a = toPx({ x: req.x1, y: req.y1 }, req.coord_space, screen);
      const b = toPx({ x: req.x2, y: req.y2 }, req.coord_space, screen);
      const r = await inject(() =>
        phone.swipe(a.x, a.y, b.x, b.y, req.duration_ms, req.guard && touchCheck(req.guard, a)),
      );
      return touched(ctx, req, startedAt, dispatchedAt, r);
    }
    case 'touch_gesture': {
      const strokes = touchGestureStrokes(req, screen);
      const first = strokes[0]?.points[0];
      const guard = req.guard && first ? touchCheck(req.guard, first) : undefined;
      return touched(ctx, req, startedAt, dispatchedAt, await inject(() => phone.gesture(strokes, guard)));
    }
    case 'pinch': {
      const strokes = pinchStrokes(req, screen);
      return fromInput(ctx, 'pinch', startedAt, dispatchedAt, await inject(() => phone.gesture(strokes)));
    }
    case 'key':
      return fromInput(ctx, 'key', startedAt, dispatchedAt, await inject(() => phone.key(req.key)));
    case 'ime_commit':
      return fromInput(ctx, 'ime_commit', startedAt, dispatchedAt, await inject(() => phone.imeCommit(req.text)));
    case 'launch_app': {
      const target = req.package ?? req.label ?? '';
      const r = await inject(() => phone.launch(target, req.activity));
      return fromInput(ctx, 'launch_app', startedAt, dispatchedAt, r);
    }
  }
}

/** A guarded touch the helper refused touched nothing: its receipt has no dispatch time. */
function touched(
  ctx: ExecContext,
  req: TapRequest | LongPressRequest | SwipeRequest | TouchGestureRequest,
  startedAt: number,
  dispatchedAt: number,
  r: InputResult,
): ActionReceipt {
  if (req.guard && !r.ok && (r.code === 'STALE' || r.code === 'OCCLUDED'))
    return rejected(ctx, req.action, startedAt, r.code, r.message);
  return fromInput(ctx, req.action, startedAt, dispatchedAt, r);
}
