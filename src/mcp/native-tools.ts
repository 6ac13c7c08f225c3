import { z } from 'zod';
import type { Action, Expect, ToolName } from '../core/types.js';
import { CONTROL_OPS, WAIT_CONDITIONS } from '../device/protocol/index.js';
import { ControlsShape } from './controls.js';
import { runAction } from './direct-tools.js';
import { runs, type ToolDef } from './tool.js';

/**
 * The seed's native tools (read_control, control_action, wait_until, scroll_to, pinch,
 * touch_gesture) over the executor: their fields are the helper protocol's own, validated by the
 * protocol's schemas before anything is sent (one rule, DESIGN §3). An element id from observe may
 * stand in for `selector`.
 */

const Sel = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('exact selector: resource_id (as listed or in full), text, content_desc, class_name (AND)');
const ElementId = z.string().optional().describe('an element id from observe, instead of selector');
const Extra = {
  expect: z.string().optional().describe('full mode: what should change (default screen_changes)'),
  confirmation_id: z.string().optional(),
};

const PROTOCOL = new Set([
  'verificationMode',
  'responseMode',
  'actionTimeoutMs',
  'verificationTimeoutMs',
  'expect',
  'confirmation_id',
  'element_id',
]);

function nativeTool(opts: {
  name: ToolName;
  title: string;
  description: string;
  fields: z.ZodRawShape;
  readOnly: boolean;
  expect?: (args: Record<string, unknown>) => Expect;
}): ToolDef {
  return {
    name: opts.name,
    title: opts.title,
    description: `${opts.description} Fields are the helper protocol's; unknown or out-of-range ones are rejected before anything is sent.`,
    shape: { ...opts.fields, ...(opts.readOnly ? {} : ControlsShape), ...Extra },
    readOnly: opts.readOnly,
    destructive: !opts.readOnly && opts.name === 'control_action',
    usesDevice: true,
    passthrough: true,
    offered: runs(opts.name),
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => {
          const protocolArgs = Object.fromEntries(Object.entries(args).filter(([k]) => !PROTOCOL.has(k)));
          const action: Action = {
            tool: opts.name,
            args: protocolArgs,
            ...(r.target_id ? { target_id: r.target_id } : {}),
          };
          return {
            tool: opts.name,
            action,
            expect: opts.expect?.(args) ?? { kind: 'screen_changes' },
            readOnly: opts.readOnly,
          };
        },
        // The protocol's selector is the helper's to resolve; only an element id is ours.
        { targetKeys: ['element_id'] },
      ),
  };
}

export const nativeTools: ToolDef[] = [
  nativeTool({
    name: 'read_control',
    title: 'Read a control',
    description:
      "Read a control: range, value, supported actions, selection, state and an identity token, in `value`. Read-only: nothing is sent to the phone (delivery_status not_delivered). Over adb a slider's value is read off a screenshot (range_source frame), else the result says it cannot be read (READ_FAILED).",
    fields: { selector: Sel, element_id: ElementId },
    readOnly: true,
  }),
  nativeTool({
    name: 'control_action',
    title: 'Native control action',
    description: `Perform a native action the control supports (${CONTROL_OPS.join(', ')}); no coordinate fallback. set_progress needs value; set_text/replace_selection need text; set_selection start/end (UTF-16).`,
    fields: {
      selector: Sel,
      element_id: ElementId,
      action: z.enum(CONTROL_OPS),
      value: z.number().optional(),
      text: z.string().optional(),
      start: z.number().int().optional(),
      end: z.number().int().optional(),
      expected_token: z.string().optional(),
    },
    readOnly: false,
  }),
  nativeTool({
    name: 'wait_until',
    title: 'Wait until',
    description: `Wait (read-only, ≤ 30 s) until a condition holds: ${WAIT_CONDITIONS.join(', ')}. A failed read never proves disappearance.`,
    fields: {
      selector: Sel,
      element_id: ElementId,
      condition: z.enum(WAIT_CONDITIONS),
      text: z.string().optional(),
      value: z.number().optional(),
      timeout_ms: z.number().int().optional(),
      stable_ms: z.number().int().optional(),
    },
    readOnly: true,
  }),
  nativeTool({
    name: 'scroll_to',
    title: 'Scroll to',
    description:
      'Scroll a list until the target is visible (≤ 20 scrolls / 30 s; stops on no progress). The list: container, or the one element_id names (a list or a row in it), else the largest list on the screen.',
    fields: {
      container: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('exact selector of the list (resource_id as listed or in full, class_name, …)'),
      element_id: z.string().optional().describe('an element id from observe: the list, or a row inside it'),
      target: z
        .record(z.string(), z.unknown())
        .describe('exact selector of what to reveal, e.g. {"text": "Sourdough"} (a row\'s title as listed)'),
      direction: z.enum(['forward', 'backward']).optional(),
      max_scrolls: z.number().int().optional(),
      timeout_ms: z.number().int().optional(),
    },
    readOnly: false,
  }),
  nativeTool({
    name: 'pinch',
    title: 'Pinch',
    description:
      'Two-finger pinch/zoom (and rotation) around x,y; coord_space normalized (0..1000, distances per mille of the short side) or pixel; ≤ 10 s.',
    fields: {
      x: z.number(),
      y: z.number(),
      start_distance: z.number(),
      end_distance: z.number(),
      coord_space: z.enum(['normalized', 'pixel']).optional(),
      angle_degrees: z.number().optional(),
      rotation_degrees: z.number().optional(),
      duration_ms: z.number().int().optional(),
    },
    readOnly: false,
  }),
  nativeTool({
    name: 'touch_gesture',
    title: 'Multi-touch gesture',
    description:
      '1–5 fingers held and moved through 2–32 keyframes ({at_ms, points:[{x,y}]}, at_ms from 0, strictly increasing, same finger count); ≤ 10 s.',
    fields: {
      frames: z.array(z.record(z.string(), z.unknown())),
      coord_space: z.enum(['normalized', 'pixel']).optional(),
    },
    readOnly: false,
  }),
];
