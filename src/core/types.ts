import { z } from 'zod';

/**
 * The contracts of DESIGN §3. Zod schemas where a value crosses a process boundary (LLM output,
 * checkpoints, the helper protocol); plain types inferred from them everywhere else.
 */

export const RectSchema = z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() });
export const PointSchema = z.object({ x: z.number(), y: z.number() });

/** Expected failures are values with one of these codes; messages say what to do next. */
export const ErrorCodeSchema = z.enum([
  'NOT_FOUND',
  'AMBIGUOUS',
  'STALE',
  'OCCLUDED',
  'UNSUPPORTED',
  'INVALID_ARGUMENT',
  'OUT_OF_RANGE',
  'NOT_EDITABLE',
  'READ_FAILED',
  'UNAVAILABLE',
  'TIMEOUT',
  'NO_PROGRESS',
  'CANCELLED',
  'BUSY',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ToolErrorSchema = z.object({ code: ErrorCodeSchema, message: z.string() });
export type ToolError = z.infer<typeof ToolErrorSchema>;

/** Exact AND-match selector. Package and bounds alone are never a target. */
export const SelectorSchema = z
  .object({
    resource_id: z.string().optional(),
    text: z.string().optional(),
    content_desc: z.string().optional(),
    class_name: z.string().optional(),
    package_name: z.string().optional(),
    bounds: RectSchema.optional(),
  })
  .strict()
  .refine(
    (s) =>
      s.resource_id !== undefined || s.text !== undefined || s.content_desc !== undefined || s.class_name !== undefined,
    {
      message:
        'a selector needs at least one of resource_id, text, content_desc, class_name (package and bounds alone are never a target)',
    },
  );
export type Selector = z.infer<typeof SelectorSchema>;

export const FlagsSchema = z.object({
  clickable: z.boolean(),
  longClickable: z.boolean(),
  editable: z.boolean(),
  scrollable: z.boolean(),
  checkable: z.boolean(),
  checked: z.boolean(),
  enabled: z.boolean(),
  focused: z.boolean(),
  selected: z.boolean(),
  password: z.boolean(),
});
export type Flags = z.infer<typeof FlagsSchema>;

export const RangeSchema = z.object({
  min: z.number(),
  max: z.number(),
  current: z.number(),
  /**
   * Read off the screenshot (a percent, 0..100, to a pixel of the track): the tree carries no value
   * (a uiautomator dump), so the thumb's place is the only evidence (perception/slider-frame.ts).
   */
  fromFrame: z.boolean().optional(),
});
export type Range = z.infer<typeof RangeSchema>;

export const ElementSchema = z.object({
  /** 8-hex fingerprint, with a `~N` ordinal suffix on collisions; carried over by content (DESIGN §4). */
  id: z.string(),
  /** The positional fingerprint, where the id differs: carried over from an earlier screen, or a control named by text clipped off screen (absent: = id). */
  place: z.string().optional(),
  /** Short class name: Button, EditText, Switch, SeekBar, List, … */
  role: z.string(),
  className: z.string(),
  text: z.string(),
  desc: z.string(),
  resourceId: z.string(),
  /** Normalized 0..1000 over the full screen. */
  bounds: RectSchema,
  boundsPx: RectSchema,
  flags: FlagsSchema,
  range: RangeSchema.optional(),
  /** Id of the nearest actionable ancestor, for labels attached to it. */
  actionableAncestorId: z.string().optional(),
  window: z.number(),
  /** Whether this element is something the agent can act on (vs. a text label). */
  actionable: z.boolean(),
  /** What a person would call it: own text/desc, an edit field's hint, or its descendants' text. */
  label: z.string().optional(),
  /** The label is the resource id in words (`btn_safety_center` → "Safety center"): the control has no name of its own. */
  labelFromId: z.boolean().optional(),
  /** An edit field's hint (placeholder). */
  hint: z.string().optional(),
  /** A password field's length when filled; its text is never kept (it shows as bullets). */
  filled: z.number().optional(),
  /** The helper's node id in the snapshot this element came from (native node actions). */
  nodeId: z.number().optional(),
  /** Native actions the node supports, when the helper reports them (scroll_forward, set_text, …). */
  actions: z.array(z.string()).optional(),
  /**
   * The node's own resource id and description, when the element shows others (a same-bounds wrapper's,
   * merged in; a description with its whitespace cleaned): what a guarded touch finds the node by.
   */
  identity: z.object({ resourceId: z.string(), desc: z.string() }).optional(),
});
export type Element = z.infer<typeof ElementSchema>;

export const WindowTypeSchema = z.enum([
  'application',
  'dialog',
  'system',
  'input_method',
  'status_bar',
  'navigation_bar',
  'notification',
  'toast',
  'overlay',
]);
export type WindowType = z.infer<typeof WindowTypeSchema>;

export const WindowInfoSchema = z.object({
  id: z.number(),
  type: WindowTypeSchema,
  layer: z.number(),
  bounds: RectSchema,
  package: z.string(),
  title: z.string(),
  focused: z.boolean(),
  touchable: z.boolean(),
});
export type WindowInfo = z.infer<typeof WindowInfoSchema>;

export const TreeQualitySchema = z.enum(['ok', 'sparse', 'empty']);
export type TreeQuality = z.infer<typeof TreeQualitySchema>;

export const ScreenInfoSchema = z.object({
  w: z.number(),
  h: z.number(),
  aspect: z.number(),
  rotation: z.number(),
});
export type ScreenInfo = z.infer<typeof ScreenInfoSchema>;

export const ObservationSchema = z.object({
  seq: z.number(),
  takenAt: z.number(),
  screen: ScreenInfoSchema,
  app: z.object({ package: z.string(), activity: z.string(), title: z.string() }),
  windows: z.array(WindowInfoSchema),
  keyboard: z.object({ shown: z.boolean(), bounds: RectSchema.optional() }),
  elements: z.array(ElementSchema),
  /** Non-actionable visible text, in reading order. */
  texts: z.array(z.string()),
  pageHash: z.string(),
  frameHash: z.string().optional(),
  treeQuality: TreeQualitySchema,
  /** True when the page should be handled visually first (WebView, canvas, game). */
  visualFirst: z.boolean(),
  /** Set when the tree and screenshot disagree or a transition is under way: wait a frame. */
  unstable: z.string().optional(),
  screenshot: z
    .object({
      path: z.string().optional(),
      width: z.number(),
      height: z.number(),
      /** Rows of the full screen missing at the top of the capture (status bar cropped), in screenshot pixels. */
      offsetY: z.number().optional(),
    })
    .optional(),
  /** Diagnostics for a person (screen size inferred, tree rescaled, empty dump reason, …). */
  notes: z.array(z.string()).optional(),
});
export type Observation = z.infer<typeof ObservationSchema>;

/** What the planner expects an action to do, checked by code (DESIGN §5). */
export const ExpectSchema = z.object({
  kind: z.enum([
    'page_changes',
    'element_gone',
    'text_appears',
    'element_state',
    'keyboard_shown',
    'app_foreground',
    'no_change',
    // The screenshot changed (blockhash distance): the one signal a canvas (a map) gives.
    'frame_changes',
    // Anything visible changed (page, element state, text, keyboard): the MCP direct tools' default.
    'screen_changes',
  ]),
  target_id: z.string().optional(),
  text: z.string().optional(),
  state: z.string().optional(),
  package: z.string().optional(),
  note: z.string().optional(),
});
export type Expect = z.infer<typeof ExpectSchema>;

export const KeyNameSchema = z.enum(['back', 'home', 'recents', 'enter']);
export type KeyName = z.infer<typeof KeyNameSchema>;

export const CoordSpaceSchema = z.enum(['normalized', 'pixel']);

/**
 * A planner-level tool's name (DESIGN §3). The tool set is the registry's (src/tools/): core
 * names none, so a tool is defined in one place; the executor refuses a name it does not know.
 */
export const ToolNameSchema = z.string().min(1);
export type ToolName = z.infer<typeof ToolNameSchema>;

export const ActionSchema = z
  .object({
    tool: ToolNameSchema,
    target_id: z.string().optional(),
    point: PointSchema.optional(),
    text: z.string().optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    package: z.string().optional(),
    ms: z.number().optional(),
    answer: z.string().optional(),
    reason: z.string().optional(),
    question: z.string().optional(),
    /** Native-tool arguments, validated by the executor against the helper protocol. */
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type Action = z.infer<typeof ActionSchema>;

export const DecisionSchema = z.object({
  thought: z.string(),
  action: ActionSchema,
  expect: ExpectSchema,
  subgoal: z.string().optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const ReceiptStatusSchema = z.enum(['not_started', 'observed', 'completed', 'partial', 'cancelled', 'unknown']);
export type ReceiptStatus = z.infer<typeof ReceiptStatusSchema>;
export const DeliverySchema = z.enum(['delivered', 'not_delivered', 'unknown']);
export type Delivery = z.infer<typeof DeliverySchema>;
export const MethodSchema = z.enum(['bridge', 'adb', 'coordinates', 'none']);

export const ReceiptSchema = z.object({
  status: ReceiptStatusSchema,
  delivery: DeliverySchema,
  method: MethodSchema,
  /** The backend used, and whether it was a failover from the helper. */
  backend: z.string().optional(),
  failover: z.boolean().optional(),
  error: ToolErrorSchema.optional(),
  /** Pixel point actually injected, if any. */
  injectedPx: PointSchema.optional(),
  /** What the device said about the input, when it said something (a replay phone: `off-graph: …`). */
  detail: z.string().optional(),
  timings: z.object({ startedAt: z.number(), dispatchedAt: z.number().optional(), endedAt: z.number() }),
  pre: z.record(z.string(), z.unknown()).optional(),
  post: z.record(z.string(), z.unknown()).optional(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
