import { z } from 'zod';
import { FrameArg, SequenceStepArg } from './act-native.js';

/**
 * The `act` call's fields, defined once: the parser's zod schema (`actArgsSchema`) and the JSON
 * schema a model is sent (`actJsonSchema`) are both rendered from FIELDS, so they cannot drift.
 * The JSON schema is paid on every request, so it is compact: only the fields of the tools offered
 * on this screen, no `$schema`, no descriptions (the system prompt's tool lines say what each field
 * means). A sequence's members (`steps`) are spelled out field by field, as the act call's own
 * fields (a member is written like the call itself; `frames` only where touch_gesture is offered);
 * a gesture's `frames` stay a plain array of objects — their shape is in the tool line, and the
 * parser checks it. Strict-mode providers need every object spelled out, so `full` renders the
 * nested shapes in full for them.
 */

/** Most subgoals a plan (or a plan revision) may have; the prompt states the same number. */
export const MAX_SUBGOALS = 16;

type Json = Record<string, unknown>;

interface Field {
  zod: z.ZodType;
  /** The compact JSON schema, or how to build it from the tools offered. */
  json: Json | ((tools: readonly string[]) => Json);
  /** The nested shape in full, for strict-mode providers (default: `json`). */
  full?: () => Json;
  /** Only offered with one of these tools (default: always). */
  tools?: readonly string[];
}

const str: Json = { type: 'string' };
const num: Json = { type: 'number' };
const objects: Json = { type: 'array', items: { type: 'object' } };
const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

function fullOf(schema: z.ZodType): () => Json {
  return () => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema) as Json;
    return rest;
  };
}

const PointArg = z.object({ x: z.number(), y: z.number() });

/** A sequence member's fields, compact: the member tools, and `frames` only where gestures are offered. */
function memberJson(tools: readonly string[]): Json {
  const gestures = tools.includes('touch_gesture');
  const memberTools = SequenceStepArg.shape.tool.options.filter((t) => t !== 'touch_gesture' || gestures);
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        tool: { enum: memberTools },
        target_id: str,
        op: str,
        value: num,
        text: str,
        ...(gestures ? { frames: objects } : {}),
      },
      required: ['tool'],
    },
  };
}

const FIELDS = {
  thought: { zod: z.string(), json: str },
  // `tool` is the enum of the tools offered; built per request.
  tool: { zod: z.string(), json: str },
  target_id: { zod: z.string().optional(), json: str },
  // Compact: the two numbers; strict providers get it closed and required.
  point: {
    zod: PointArg.optional(),
    json: { type: 'object', properties: { x: num, y: num } },
    full: () => ({ type: 'object', properties: { x: num, y: num }, required: ['x', 'y'], additionalProperties: false }),
  },
  text: { zod: z.string().optional(), json: str },
  // The tool lines name the directions; the parser refuses others (strict providers get the enum).
  direction: {
    zod: z.enum(DIRECTIONS).optional(),
    json: str,
    full: () => ({ type: 'string', enum: [...DIRECTIONS] }),
  },
  package: { zod: z.string().optional(), json: str, tools: ['launch_app'] },
  value: {
    zod: z.number().optional(),
    json: num,
    tools: ['wait', 'control_action', 'wait_until', 'pinch', 'set_slider'],
  },
  scale: { zod: z.number().optional(), json: num, tools: ['pinch'] },
  op: { zod: z.string().optional(), json: str, tools: ['control_action', 'wait_until'] },
  frames: {
    zod: z.array(FrameArg).optional(),
    json: objects,
    full: fullOf(z.array(FrameArg)),
    tools: ['touch_gesture'],
  },
  steps: {
    zod: z.array(SequenceStepArg).optional(),
    json: memberJson,
    full: fullOf(z.array(SequenceStepArg)),
    tools: ['action_sequence'],
  },
  // Required by the schema for every tool; the parser needs it for every tool that acts on the
  // phone and ignores it on done / ask_user / infeasible (the prompt says to write "-" there).
  expect: { zod: z.string().optional(), json: str },
  subgoal_done: { zod: z.boolean().optional(), json: { type: 'boolean' } },
  /** Plan revision: the subgoals still open after this action (those left out are ticked). */
  // The bound is the prompt's (≤ MAX_SUBGOALS) and the parser's; strict-mode providers also get it here.
  plan: {
    zod: z.array(z.string().min(1)).max(MAX_SUBGOALS).optional(),
    json: { type: 'array', items: str },
    full: () => ({ type: 'array', items: str, maxItems: MAX_SUBGOALS }),
  },
} satisfies Record<string, Field>;

type Shape = { [K in keyof typeof FIELDS]: (typeof FIELDS)[K]['zod'] };

/** Fields every call must carry, in the JSON schema (the parser's own rules are in parseAct). */
export const REQUIRED_FIELDS = ['thought', 'tool', 'expect'] as const;

function offered(f: Field, tools: readonly string[]): boolean {
  return !f.tools || f.tools.some((t) => tools.includes(t));
}

/** The parser's schema: every field (a field of a tool not offered is ignored, the tool refused). */
export function actArgsSchema<T extends string>(tools: readonly T[]) {
  const [first, ...rest] = tools;
  if (!first) throw new Error('actArgsSchema needs at least one tool');
  const shape = Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, f.zod])) as Shape;
  return z.object({ ...shape, tool: z.enum([first, ...rest]) });
}

/** The JSON schema sent to the model: the offered tools' fields only. */
export function actJsonSchema(tools: readonly string[], opts: { full?: boolean } = {}): Json {
  const properties: Record<string, Json> = {};
  for (const [name, field] of Object.entries(FIELDS) as [string, Field][]) {
    if (!offered(field, tools)) continue;
    properties[name] =
      name === 'tool'
        ? { ...(opts.full ? { type: 'string' } : {}), enum: [...tools] }
        : opts.full && field.full
          ? field.full()
          : typeof field.json === 'function'
            ? field.json(tools)
            : field.json;
  }
  // Closed for strict providers only (toStrictSchema closes every object again); others ignore it.
  return {
    type: 'object',
    properties,
    required: [...REQUIRED_FIELDS],
    ...(opts.full ? { additionalProperties: false } : {}),
  };
}

/** The names FIELDS defines (for the agreement test: the parser's keys are exactly these). */
export const FIELD_NAMES = Object.keys(FIELDS);
