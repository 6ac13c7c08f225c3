import { z } from 'zod';
import { CoordSpaceSchema, SelectorSchema } from '../../core/types.js';

/**
 * Request schemas of `POST /v3/action` (helper/PROTOCOL.md §5). The body is `{ action, ...params }`.
 * Limits that need no screen size are checked here; the screen-dependent checks (points inside the
 * screen, fingers that merge) are in ./gesture.ts. Both run before any input is dispatched.
 */

export const ACTION_NAMES = [
  'tap',
  'long_press',
  'swipe',
  'touch_gesture',
  'pinch',
  'key',
  'set_text',
  'ime_commit',
  'launch_app',
  'read_control',
  'control_action',
  'wait_until',
  'scroll_to',
  'action_sequence',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const LIMITS = {
  maxFingers: 5,
  minFrames: 2,
  maxFrames: 32,
  maxGestureMs: 10_000,
  maxPinchMs: 10_000,
  maxWaitMs: 30_000,
  maxScrolls: 20,
  maxScrollMs: 30_000,
  /** Members of one action_sequence (the task's max burst). */
  maxBurstActions: 8,
  /** A wait inside an action_sequence. */
  maxGroupWaitMs: 3_000,
  /** Characters of text in all members of one action_sequence together. */
  maxSequenceTextChars: 1_024,
  /** The serialized members of one action_sequence (parameter-stream guard). */
  maxSequenceParamChars: 16_384,
  /** Characters of one set_text / ime_commit outside a sequence. */
  maxTextChars: 16_384,
  /** Polling period of wait_until / scroll_to on the phone's clock. */
  pollMs: 120,
} as const;

/** Client-chosen operation id: resending the same id returns the stored receipt, never a second dispatch. */
const OpId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'op_id: 1–64 characters of A–Z a–z 0–9 . _ : -')
  .optional();

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
  })
  .strict()
  .superRefine((v, ctx) => {
    const fingers = v.frames[0]?.points.length ?? 0;
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

export const SetTextRequestSchema = z
  .object({
    action: z.literal('set_text'),
    op_id: OpId,
    /** The field; the focused editable node when omitted. */
    selector: SelectorSchema.optional(),
    text: z.string().max(LIMITS.maxTextChars),
    expected_token: z.string().optional(),
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

export const ReadControlRequestSchema = z
  .object({ action: z.literal('read_control'), op_id: OpId, selector: SelectorSchema })
  .strict();

export const CONTROL_OPS = [
  'click',
  'long_click',
  'focus',
  'show_on_screen',
  'set_progress',
  'scroll_forward',
  'scroll_backward',
  'set_text',
  'set_selection',
  'replace_selection',
  'ime_enter',
] as const;
export type ControlOp = (typeof CONTROL_OPS)[number];

export const ControlRequestSchema = z
  .object({
    selector: SelectorSchema,
    action: z.enum(CONTROL_OPS),
    /** set_progress: the value in the control's own range (strictly checked against min/max). */
    value: z.number().finite().optional(),
    /** set_text / replace_selection: passed as is (whitespace and '' included). */
    text: z.string().max(LIMITS.maxTextChars).optional(),
    /** set_selection: UTF-16 indices; a surrogate pair cannot be split. */
    start: z.number().int().min(0).optional(),
    end: z.number().int().min(0).optional(),
    /** The token of an earlier read_control; a changed target → STALE. */
    expected_token: z.string().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const need = (field: 'value' | 'text' | 'start' | 'end') => {
      if (v[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${v.action} needs ${field}` });
    };
    if (v.action === 'set_progress') need('value');
    if (v.action === 'set_text' || v.action === 'replace_selection') need('text');
    if (v.action === 'set_selection') {
      need('start');
      need('end');
      if (v.start !== undefined && v.end !== undefined && v.end < v.start)
        ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be ≥ start' });
    }
  });
export type ControlRequest = z.infer<typeof ControlRequestSchema>;

export const ControlActionRequestSchema = z
  .object({ action: z.literal('control_action'), op_id: OpId, request: ControlRequestSchema })
  .strict();

export const WAIT_CONDITIONS = [
  'appears',
  'disappears',
  'enabled',
  'disabled',
  'checked',
  'unchecked',
  'selected',
  'text_equals',
  'value_equals',
  'stable',
] as const;

export const WaitUntilRequestSchema = z
  .object({
    action: z.literal('wait_until'),
    op_id: OpId,
    condition: z.enum(WAIT_CONDITIONS),
    /** Required except for `stable`, where it narrows stability to one node (else the whole tree). */
    selector: SelectorSchema.optional(),
    /** text_equals: the exact text. */
    text: z.string().optional(),
    /** value_equals: the exact range value. */
    value: z.number().finite().optional(),
    timeout_ms: z.number().int().min(0).max(LIMITS.maxWaitMs).default(5_000),
    /** The condition must hold on consecutive reliable reads for this long. */
    stable_ms: z.number().int().min(0).max(LIMITS.maxWaitMs).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.condition !== 'stable' && !v.selector)
      ctx.addIssue({ code: 'custom', path: ['selector'], message: `${v.condition} needs a selector` });
    if (v.condition === 'text_equals' && v.text === undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'text_equals needs text' });
    if (v.condition === 'value_equals' && v.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'value_equals needs value' });
  });

export const ScrollToRequestSchema = z
  .object({
    action: z.literal('scroll_to'),
    op_id: OpId,
    /** A unique scrollable container. */
    container: SelectorSchema,
    target: SelectorSchema,
    direction: z.enum(['forward', 'backward']).default('forward'),
    max_scrolls: z.number().int().min(1).max(LIMITS.maxScrolls).default(10),
    timeout_ms: z.number().int().min(1).max(LIMITS.maxScrollMs).default(10_000),
    /** Content and target must hold still this long before the next decision. */
    settle_ms: z.number().int().min(0).max(5_000).default(300),
  })
  .strict();

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
export type SetTextRequest = z.infer<typeof SetTextRequestSchema>;
export type ImeCommitRequest = z.infer<typeof ImeCommitRequestSchema>;
export type LaunchAppRequest = z.infer<typeof LaunchAppRequestSchema>;
export type ReadControlRequest = z.infer<typeof ReadControlRequestSchema>;
export type ControlActionRequest = z.infer<typeof ControlActionRequestSchema>;
export type WaitUntilRequest = z.infer<typeof WaitUntilRequestSchema>;
export type ScrollToRequest = z.infer<typeof ScrollToRequestSchema>;
export type ActionSequenceRequest = z.infer<typeof ActionSequenceRequestSchema>;

/** Actions that only read; they never take the input lock and never deliver input. */
export const READ_ONLY_ACTIONS: ReadonlySet<ActionName> = new Set(['read_control', 'wait_until']);

export const CancelRequestSchema = z.object({ op_id: z.string().min(1).max(64) }).strict();
