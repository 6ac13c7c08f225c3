import { z } from 'zod';
import { DeliverySchema, ErrorCodeSchema, FlagsSchema, ReceiptStatusSchema, RectSchema } from '../../core/types.js';
import { ACTION_NAMES } from './actions.js';

/**
 * Response schemas of `POST /v3/action` (helper/PROTOCOL.md §6). Every request that passed
 * validation gets HTTP 200 and a receipt, failures included; only transport problems (auth, size,
 * malformed or invalid requests, faults) use other statuses, with `HttpErrorBody`.
 */

/** The state of one node before or after an action (password text is never included). */
export const NodeStateSchema = z.object({
  node_id: z.number().int(),
  /** The snapshot seq the state was read from. */
  seq: z.number().int(),
  token: z.string(),
  class_name: z.string(),
  text: z.string(),
  bounds: RectSchema,
  enabled: z.boolean(),
  checked: z.boolean(),
  selected: z.boolean(),
  focused: z.boolean(),
  range: z.object({ min: z.number(), max: z.number(), current: z.number() }).optional(),
  selection: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
});
export type NodeState = z.infer<typeof NodeStateSchema>;

/** What read_control reports about a control. */
export const ControlInfoSchema = z.object({
  node_id: z.number().int(),
  seq: z.number().int(),
  window: z.number().int(),
  class_name: z.string(),
  package_name: z.string(),
  resource_id: z.string(),
  /** Empty for password fields. */
  text: z.string(),
  content_desc: z.string(),
  hint: z.string().optional(),
  bounds: RectSchema,
  /** Pixels of the node still visible after clipping to its window and removing higher windows. */
  visible_area: z.number(),
  /** An element's flags (one definition, core/types.ts), with the protocol's one snake_case name. */
  flags: FlagsSchema.omit({ longClickable: true }).extend({ long_clickable: z.boolean() }),
  range: z.object({ min: z.number(), max: z.number(), current: z.number() }).optional(),
  /** UTF-16 indices. */
  selection: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
  actions: z.array(z.string()),
  /** Identity token: pass it back as `expected_token` to act only on this very control. */
  token: z.string(),
});
export type ControlInfo = z.infer<typeof ControlInfoSchema>;

export const ScrollLogEntrySchema = z.object({
  index: z.number().int(),
  action: z.enum(['scroll_forward', 'scroll_backward']),
  at: z.number(),
  outcome: z.enum(['moved', 'no_progress', 'failed', 'unknown']),
  seq: z.number().int().optional(),
  target_visible: z.boolean(),
  detail: z.string().optional(),
});
export type ScrollLogEntry = z.infer<typeof ScrollLogEntrySchema>;

export const ReceiptErrorSchema = z.object({ code: ErrorCodeSchema, message: z.string() });

export const ReceiptTimingsSchema = z.object({
  /** Phone clock, ms. */
  received_at: z.number(),
  started_at: z.number(),
  dispatched_at: z.number().optional(),
  ended_at: z.number(),
});

export interface ActionReceipt {
  op_id: string;
  action: (typeof ACTION_NAMES)[number];
  status: z.infer<typeof ReceiptStatusSchema>;
  delivery: z.infer<typeof DeliverySchema>;
  error?: z.infer<typeof ReceiptErrorSchema>;
  timings: z.infer<typeof ReceiptTimingsSchema>;
  before?: NodeState;
  after?: NodeState;
  control?: ControlInfo;
  /** wait_until: how many reliable reads it made and the last read error, if any. */
  polls?: number;
  last_read_error?: string;
  scroll_log?: ScrollLogEntry[];
  /** scroll_to that found its target: the node's label (its text, else its description). */
  found?: string;
  /**
   * scroll_to that did not find its target: whether the list can go no further that way (true: the
   * target is not in it in this direction) or still moved at the last scroll (false: it may be further on).
   */
  list_end?: boolean;
  members?: ActionReceipt[];
  /** True when this is the stored receipt of an op_id already seen (no second dispatch). */
  replayed?: boolean;
  detail?: string;
}

export const ActionReceiptSchema: z.ZodType<ActionReceipt> = z.lazy(() =>
  z.object({
    op_id: z.string(),
    action: z.enum(ACTION_NAMES),
    status: ReceiptStatusSchema,
    delivery: DeliverySchema,
    error: ReceiptErrorSchema.optional(),
    timings: ReceiptTimingsSchema,
    before: NodeStateSchema.optional(),
    after: NodeStateSchema.optional(),
    control: ControlInfoSchema.optional(),
    polls: z.number().int().optional(),
    last_read_error: z.string().optional(),
    scroll_log: z.array(ScrollLogEntrySchema).optional(),
    found: z.string().optional(),
    list_end: z.boolean().optional(),
    members: z.array(ActionReceiptSchema).optional(),
    replayed: z.boolean().optional(),
    detail: z.string().optional(),
  }),
);

export const HTTP_ERROR_CODES = [
  'UNAUTHORIZED',
  'PAYLOAD_TOO_LARGE',
  'INVALID_ARGUMENT',
  'NO_SUCH_ENDPOINT',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

/** Body of every non-200 answer of the v3 API. */
export const HttpErrorBodySchema = z.object({
  error: z.object({ code: z.enum(HTTP_ERROR_CODES), message: z.string() }),
});
export type HttpErrorBody = z.infer<typeof HttpErrorBodySchema>;

export const CancelResponseSchema = z.object({
  op_id: z.string(),
  /** running: the op was aborted; pending: recorded, a later request with this op_id is refused; done: too late. */
  state: z.enum(['running', 'pending', 'done']),
});
export type CancelResponse = z.infer<typeof CancelResponseSchema>;
