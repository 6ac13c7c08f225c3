import { z } from 'zod';
import { CoordSpaceSchema } from '../../core/types.js';
import { TouchGuardSchema } from './guard.js';
import { type ActionName, LIMITS, OpIdSchema as OpId } from './limits.js';
import {
  ControlActionRequestSchema,
  ReadControlRequestSchema,
  ScrollToRequestSchema,
  SetTextRequestSchema,
  WaitUntilRequestSchema,
} from './native-requests.js';

export * from './guard.js';
export * from './limits.js';
export * from './native-requests.js';

/**
 * Request schemas of `POST /v3/action` (helper/PROTOCOL.md §5). The body is `{ action, ...params }`.
 * Limits that need no screen size are checked here; the screen-dependent checks (points inside the
 * screen, fingers that merge) are in ./gesture.ts. Both run before any input is dispatched.
 */

const Coord = z.number().finite();
const coordSpace = CoordSpaceSchema.default('normalized');

/** Normalized coordinates are 0..1000; pixel coordinates are checked against the screen later. */
function checkSpace(
  ctx: z.RefinementCtx,
  space: 'normalized' | 'pixel',
  pts: { x: number; y: number }[],
  path: string,
) {
  for (const [i, p] of pts.entries()) {
    if (space === 'normalized' && (p.x < 0 || p.x > 1000 || p.y < 0 || p.y > 1000))
      ctx.addIssue({ code: 'custom', path: [path, i], message: `point (${p.x},${p.y}) is outside 0..1000` });
    if (space === 'pixel' && (p.x < 0 || p.y < 0 || !Number.isInteger(p.x) || !Number.isInteger(p.y)))
      ctx.addIssue({ code: 'custom', path: [path, i], message: `pixel point (${p.x},${p.y}) must be integers ≥ 0` });
  }
}

export const TapRequestSchema = z
  .object({
    action: z.literal('tap'),
    op_id: OpId,
    x: Coord,
    y: Coord,
    coord_space: coordSpace,
    duration_ms: z.number().int().min(1).max(499).default(50),
    /** Capability `guarded_touch`: the target to check on the phone right before touching (./guard.ts). */
    guard: TouchGuardSchema.optional(),
  })
  .strict()
  .superRefine((v, ctx) => checkSpace(ctx, v.coord_space, [v], 'point'));

export const LongPressRequestSchema = z
  .object({
    action: z.literal('long_press'),
    op_id: OpId,
    x: Coord,
    y: Coord,
    coord_space: coordSpace,
    duration_ms: z.number().int().min(500).max(10_000).default(700),
    guard: TouchGuardSchema.optional(),
  })
  .strict()
  .superRefine((v, ctx) => checkSpace(ctx, v.coord_space, [v], 'point'));

export const SwipeRequestSchema = z
  .object({
    action: z.literal('swipe'),
    op_id: OpId,
    x1: Coord,
    y1: Coord,
    x2: Coord,
    y2: Coord,
    coord_space: coordSpace,
    duration_ms: z.number().int().min(10).max(10_000).default(400),
    /** Checked at the start point. */
    guard: TouchGuardSchema.optional(),
  })
  .strict()
  .superRefine((v, ctx) =>
    checkSpace(
      ctx,
      v.coord_space,
      [
        { x: v.x1, y: v.y1 },
        { x: v.x2, y: v.y2 },
      ],
      'points',
    ),
  );

const FrameSchema = z
  .object({
    at_ms: z.number().int().min(0),
    points: z
      .array(z.object({ x: Coord, y: Coord }).strict())
      .min(1)
      .max(LIMITS.maxFingers),
  })
  .strict();

export const TouchGestureRequestSchema = z
  .object({
    action: z.literal('touch_gesture'),
    op_id: OpId,
    coord_space: coordSpace,
    /** Keyframes; each lists every finger's point in a fixed finger order. Same point = keep holding. */
    frames: z.array(FrameSchema).min(LIMITS.minFrames).max(LIMITS.maxFrames),
    /** Checked at the first finger's first point; one finger only. */
    guard: TouchGuardSchema.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const fingers = v.frames[0]?.points.length ?? 0;
    if (v.guard && fingers !== 1)
      ctx.addIssue({
        code: 'custom',
        path: ['guard'],
        message: 'a guard checks one finger: use it on one-finger gestures',
      });
    if (v.frames[0] && v.frames[0].at_ms !== 0)
      ctx.addIssue({ code: 'custom', path: ['frames', 0, 'at_ms'], message: 'the first frame must be at_ms 0' });
    for (const [i, f] of v.frames.entries()) {
      if (f.points.length !== fingers)
        ctx.addIssue({
          code: 'custom',
          path: ['frames', i, 'points'],
          message: `every frame needs the same number of fingers (${fingers}), frame ${i} has ${f.points.length}`,
        });
      const prev = v.frames[i - 1];
      if (prev && f.at_ms <= prev.at_ms)
        ctx.addIssue({
          code: 'custom',
          path: ['frames', i, 'at_ms'],
          message: `at_ms must strictly increase (frame ${i}: ${f.at_ms} ≤ ${prev.at_ms})`,
        });
      checkSpace(ctx, v.coord_space, f.points, `frames.${i}.points`);
    }
    const last = v.frames[v.frames.length - 1];
    if (last && last.at_ms > LIMITS.maxGestureMs)
      ctx.addIssue({ code: 'custom', path: ['frames'], message: `a gesture lasts at most ${LIMITS.maxGestureMs} ms` });
  });

export const PinchRequestSchema = z
  .object({
    action: z.literal('pinch'),
    op_id: OpId,
    coord_space: coordSpace,
    /** Centre of the two fingers. */
    x: Coord,
    y: Coord,
    /** Finger distance; normalized distances are per mille of the screen's SHORT side. */
    start_distance: z.number().positive(),
    end_distance: z.number().positive(),
    /** Direction of the line through both fingers at the start (0 = horizontal). */
    angle_degrees: z.number().min(-360).max(360).default(0),
    /** Rotation of that line over the gesture. */
    rotation_degrees: z.number().min(-360).max(360).default(0),
    duration_ms: z.number().int().min(50).max(LIMITS.maxPinchMs).default(500),
  })
  .strict()
  .superRefine((v, ctx) => checkSpace(ctx, v.coord_space, [v], 'center'));

export const KeyRequestSchema = z
  .object({
    action: z.literal('key'),
    op_id: OpId,
    key: z.enum(['back', 'home', 'recents', 'enter', 'delete', 'search', 'menu']),
  })
  .strict();

export const ImeCommitRequestSchema = z
  .object({
    action: z.literal('ime_commit'),
    op_id: OpId,
    /** Committed at the cursor of the focused field (Unicode). */
    text: z.string().max(LIMITS.maxTextChars),
  })
  .strict();

export const LaunchAppRequestSchema = z
  .object({
    action: z.literal('launch_app'),
    op_id: OpId,
    package: z.string().min(1).optional(),
    /** The launcher label (exact, then case-insensitive, then fuzzy). */
    label: z.string().min(1).optional(),
    activity: z.string().min(1).optional(),
  })
  .strict()
  .refine((v) => v.package !== undefined || v.label !== undefined, {
    message: 'launch_app needs package or label',
  });

/** Members of an action_sequence: gestures, short waits and control actions. */
const SequenceMemberSchema = z.discriminatedUnion('action', [
  PinchRequestSchema,
  TouchGestureRequestSchema,
  WaitUntilRequestSchema,
  ControlActionRequestSchema,
]);
export type SequenceMember = z.infer<typeof SequenceMemberSchema>;
export const SEQUENCE_MEMBER_ACTIONS = ['pinch', 'touch_gesture', 'wait_until', 'control_action'] as const;

function memberText(m: SequenceMember): number {
  if (m.action === 'control_action') return m.request.text?.length ?? 0;
  if (m.action === 'wait_until') return m.text?.length ?? 0;
  return 0;
}

export const ActionSequenceRequestSchema = z
  .object({
    action: z.literal('action_sequence'),
    op_id: OpId,
    actions: z.array(SequenceMemberSchema).min(1).max(LIMITS.maxBurstActions),
  })
  .strict()
  .superRefine((v, ctx) => {
    let text = 0;
    for (const [i, m] of v.actions.entries()) {
      if (m.action === 'wait_until' && m.timeout_ms > LIMITS.maxGroupWaitMs)
        ctx.addIssue({
          code: 'custom',
          path: ['actions', i, 'timeout_ms'],
          message: `a wait inside action_sequence lasts at most ${LIMITS.maxGroupWaitMs} ms`,
        });
      text += memberText(m);
    }
    if (text > LIMITS.maxSequenceTextChars)
      ctx.addIssue({
        code: 'custom',
        path: ['actions'],
        message: `action_sequence carries at most ${LIMITS.maxSequenceTextChars} characters of text; send larger text as its own control_action`,
      });
    if (JSON.stringify(v.actions).length > LIMITS.maxSequenceParamChars)
      ctx.addIssue({ code: 'custom', path: ['actions'], message: 'action_sequence parameters are too large' });
  });

export const ActionRequestSchema = z.discriminatedUnion('action', [
  TapRequestSchema,
  LongPressRequestSchema,
  SwipeRequestSchema,
  TouchGestureRequestSchema,
  PinchRequestSchema,
  KeyRequestSchema,
  SetTextRequestSchema,
  ImeCommitRequestSchema,
  LaunchAppRequestSchema,
  ReadControlRequestSchema,
  ControlActionRequestSchema,
  WaitUntilRequestSchema,
  ScrollToRequestSchema,
  ActionSequenceRequestSchema,
]);
/** A parsed request (defaults applied). */
export type ActionRequest = z.infer<typeof ActionRequestSchema>;
/** A request as a client writes it (defaults optional). */
export type ActionRequestInput = z.input<typeof ActionRequestSchema>;

export type TapRequest = z.infer<typeof TapRequestSchema>;
export type LongPressRequest = z.infer<typeof LongPressRequestSchema>;
export type SwipeRequest = z.infer<typeof SwipeRequestSchema>;
export type TouchGestureRequest = z.infer<typeof TouchGestureRequestSchema>;
export type PinchRequest = z.infer<typeof PinchRequestSchema>;
export type KeyRequest = z.infer<typeof KeyRequestSchema>;
export type ImeCommitRequest = z.infer<typeof ImeCommitRequestSchema>;
export type LaunchAppRequest = z.infer<typeof LaunchAppRequestSchema>;
export type ActionSequenceRequest = z.infer<typeof ActionSequenceRequestSchema>;

/** Actions that only read; they never take the input lock and never deliver input. */
export const READ_ONLY_ACTIONS: ReadonlySet<ActionName> = new Set(['read_control', 'wait_until']);

export const CancelRequestSchema = z.object({ op_id: z.string().min(1).max(64) }).strict();
