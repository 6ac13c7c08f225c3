import { z } from 'zod';
import type { ActField, Json, PlannerToolSpec, ToolCatalog } from './tool-spec.js';

/**
 * The `act` call's fields: the parser's zod schema (`actArgsSchema`) and the JSON schema a model is
 * sent (`actJsonSchema`) are both rendered from one list — the common fields below and the fields
 * each tool declares (its spec's `fields`, src/tools/) — so they cannot drift. The JSON schema is
 * paid on every request, so it is compact: only the fields of the tools offered on this screen, no
 * `$schema`, no descriptions (the system prompt's tool lines say what each field means).
 * Strict-mode providers need every object spelled out, so `full` renders the nested shapes in full.
 */

/** Most subgoals a plan (or a plan revision) may have; the prompt states the same number. */
export const MAX_SUBGOALS = 16;

export const STR: Json = { type: 'string' };
export const NUM: Json = { type: 'number' };
const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** The full JSON schema of a zod type, for strict-mode providers. */
export function fullOf(schema: z.ZodType): () => Json {
  return () => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema) as Json;
    return rest;
  };
}

/** Field shapes tools share (a number, a string): each tool names the ones it reads. */
export const FIELD = {
  number: { zod: z.number().optional(), json: NUM },
  string: { zod: z.string().optional(), json: STR },
} satisfies Record<string, ActField>;

const PointArg = z.object({ x: z.number(), y: z.number() });

/** Fields before the tools' own (what the call is and where), in the schema's order. */
const HEAD: Record<string, ActField> = {
  thought: { zod: z.string(), json: STR },
  // `tool` is the enum of the tools offered; built per request.
  tool: { zod: z.string(), json: STR },
  target_id: { zod: z.string().optional(), json: STR },
  // Compact: the two numbers; strict providers get it closed and required.
  point: {
    zod: PointArg.optional(),
    json: { type: 'object', properties: { x: NUM, y: NUM } },
    full: () => ({ type: 'object', properties: { x: NUM, y: NUM }, required: ['x', 'y'], additionalProperties: false }),
  },
  text: { zod: z.string().optional(), json: STR },
  // The tool lines name the directions; the parser refuses others (strict providers get the enum).
  direction: {
    zod: z.enum(DIRECTIONS).optional(),
    json: STR,
    full: () => ({ type: 'string', enum: [...DIRECTIONS] }),
  },
};

/** Fields after the tools' own: the expectation and the plan bookkeeping. */
const TAIL: Record<string, ActField> = {
  // Required by the schema for every tool; the parser needs it for every tool that acts on the
  // phone and ignores it on the terminal tools (the prompt says to write "-" there).
  expect: { zod: z.string().optional(), json: STR },
  // `true` ticks the [>] subgoal, N every open one up to subgoal N (src/agent/plan-edit.ts).
  subgoal_done: {
    zod: z.union([z.boolean(), z.number().int().min(1)]).optional(),
    json: { type: ['boolean', 'integer'] },
  },
  /** Plan revision: the subgoals still open after this action; they replace the open ones (those left out are dropped). */
  // The bound is the prompt's (≤ MAX_SUBGOALS) and the parser's; strict-mode providers also get it here.
  plan: {
    zod: z.array(z.string().min(1)).max(MAX_SUBGOALS).optional(),
    json: { type: 'array', items: STR },
    full: () => ({ type: 'array', items: STR, maxItems: MAX_SUBGOALS }),
  },
};

/** Fields every call must carry, in the JSON schema (the parser's own rules are in parseAct). */
export const REQUIRED_FIELDS = ['thought', 'tool', 'expect'] as const;

/** Every field in order: the head, the tools' own (first declaration wins), the tail. */
function fieldsOf(tools: Iterable<PlannerToolSpec>): [string, ActField, boolean][] {
  const own = new Map<string, ActField>();
  for (const t of tools) for (const [k, f] of Object.entries(t.fields ?? {})) if (!own.has(k)) own.set(k, f);
  return [
    ...Object.entries(HEAD).map(([k, f]) => [k, f, true] as [string, ActField, boolean]),
    ...[...own].map(([k, f]) => [k, f, false] as [string, ActField, boolean]),
    ...Object.entries(TAIL).map(([k, f]) => [k, f, true] as [string, ActField, boolean]),
  ];
}

/** The names of every field the catalog's tools may send (the parser's keys are exactly these). */
export function fieldNames(catalog: ToolCatalog): string[] {
  return fieldsOf(catalog.values()).map(([k]) => k);
}

/** The offered tools' specs, in the order offered (a name the catalog lacks is left out). */
export function specsOf(tools: readonly string[], catalog: ToolCatalog): PlannerToolSpec[] {
  return tools.map((t) => catalog.get(t)).filter((t) => t !== undefined);
}

/** The parser's schema: every field of every tool known (a tool not offered is refused by the enum). */
export function actArgsSchema(tools: readonly string[], catalog: ToolCatalog) {
  const [first, ...rest] = tools;
  if (!first) throw new Error('actArgsSchema needs at least one tool');
  const shape = Object.fromEntries(fieldsOf(catalog.values()).map(([k, f]) => [k, f.zod]));
  return z.object({ ...shape, tool: z.enum([first, ...rest]) });
}

/** The JSON schema sent to the model: the common fields and the offered tools' own. */
export function actJsonSchema(tools: readonly string[], catalog: ToolCatalog, opts: { full?: boolean } = {}): Json {
  const offered = specsOf(tools, catalog);
  const properties: Record<string, Json> = {};
  for (const [name, field] of fieldsOf(offered)) {
    properties[name] =
      name === 'tool'
        ? { ...(opts.full ? { type: 'string' } : {}), enum: offered.map((t) => t.name) }
        : opts.full && field.full
          ? field.full(offered, catalog)
          : typeof field.json === 'function'
            ? field.json(offered, catalog)
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
