import { z } from 'zod';
import { SelectorSchema } from '../../core/types.js';
import { WAIT_CONDITIONS } from '../../core/wait-conditions.js';
import { LIMITS, OpIdSchema as OpId } from './limits.js';
import { TARGET_MATCHES } from './scroll-target.js';

/**
 * Requests of the native control actions (PROTOCOL.md §7): set_text, read_control, control_action,
 * wait_until and scroll_to. Selectors match exactly (scroll_to's target by title when it asks for
 * `target_match: "title"`); see src/testbed/sim/bridge/selector.ts for resolution.
 */

export { WAIT_CONDITIONS };

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
    /**
     * How target.text / target.content_desc match: `exact` (as every selector), or `title` — a node
     * matching exactly still wins; else one whose text has the same title ("Bluetooth" finds
     * "Bluetooth, Connected", "Sourdough ¥18" finds "Sourdough"): ./scroll-target.ts.
     */
    target_match: z.enum(TARGET_MATCHES).default('exact'),
    direction: z.enum(['forward', 'backward']).default('forward'),
    max_scrolls: z.number().int().min(1).max(LIMITS.maxScrolls).default(LIMITS.defaultScrolls),
    timeout_ms: z.number().int().min(1).max(LIMITS.maxScrollMs).default(LIMITS.defaultScrollMs),
    /** Content and target must hold still this long before the next decision. */
    settle_ms: z.number().int().min(0).max(5_000).default(300),
  })
  .strict();

export type SetTextRequest = z.infer<typeof SetTextRequestSchema>;
export type ReadControlRequest = z.infer<typeof ReadControlRequestSchema>;
export type ControlActionRequest = z.infer<typeof ControlActionRequestSchema>;
export type WaitUntilRequest = z.infer<typeof WaitUntilRequestSchema>;
export type ScrollToRequest = z.infer<typeof ScrollToRequestSchema>;
