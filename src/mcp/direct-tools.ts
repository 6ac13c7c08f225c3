import { z } from 'zod';
import type { Action, Expect } from '../core/types.js';
import { parseExpect } from '../planner/expect-dsl.js';
import { REGISTRY, type Tool } from '../tools/index.js';
import type { McpDirect } from '../tools/tool.js';
import { act } from './act.js';
import { type Controls, ControlsShape, shape } from './controls.js';
import { type ResolvedOk, resolveOrFail } from './resolve-call.js';
import { TargetShape } from './targets.js';
import { runs, type ToolCall, type ToolDef, type ToolOutput, toolError } from './tool.js';

/**
 * The input tools, generated from the registry: every tool with a direct MCP exposure
 * (`Tool.mcpDirect`, src/tools/<name>.ts) names its target as the agent does, turns into a
 * planner-level Action with its default expectation (or the client's own, in the planner's one-line
 * form) and goes through `act` — the project's executor under the call's interaction controls,
 * guardrails included. The tools with an `mcpKey` (back, home) are one tool, `press_key`.
 */

const ExpectShape = {
  expect: z
    .string()
    .optional()
    .describe(
      'what the action should do, checked in light and full mode: page_changes | screen_changes | element_gone <id> | text_appears <text> | element_state <id> <on|off|filled|empty|text=S> | keyboard_shown | app_foreground <pkg> | no_change',
    ),
  confirmation_id: z
    .string()
    .optional()
    .describe('from a needs_confirmation result, only after your user agreed to this exact action'),
};

export function expectOf(line: unknown, fallback: Expect): Expect | string {
  if (typeof line !== 'string' || !line.trim()) return fallback;
  const p = parseExpect(line);
  return p.ok ? p.value : p.error;
}

export interface ActionSpec {
  tool: string;
  action: Action;
  expect: Expect;
  dispatchDefaultMs?: number;
  readOnly?: boolean;
}

/** Resolve, build and run: the shared tail of every action tool. */
export async function runAction(
  args: Record<string, unknown>,
  call: ToolCall,
  build: (r: ResolvedOk) => ActionSpec | ToolOutput,
  opts: { targetRequired?: boolean; targetKeys?: string[] } = {},
): Promise<ToolOutput> {
  const keys = opts.targetKeys;
  const targetArgs = keys ? Object.fromEntries(Object.entries(args).filter(([k]) => keys.includes(k))) : args;
  const r = await resolveOrFail(call.session, targetArgs, { required: opts.targetRequired ?? false });
  if (!('ok' in r)) return r;
  const spec = build(r);
  if ('result' in spec) return spec;
  const expect = expectOf(args.expect, spec.expect);
  if (typeof expect === 'string') return toolError('INVALID_ARGUMENT', expect);
  const controls = args as Controls;
  const res = await act(call.session, {
    tool: spec.tool,
    action: spec.action,
    expect,
    base: r.base,
    element: r.element,
    controls,
    consent: { ...call.consent, confirmationId: args.confirmation_id as string | undefined },
    dispatchDefaultMs: spec.dispatchDefaultMs,
    readOnly: spec.readOnly,
    fresh: r.fresh,
  });
  const out = shape(res, controls.responseMode ?? 'debug');
  return {
    result: out as unknown as Record<string, unknown>,
    isError: !res.success && res.lifecycle_state !== 'needs_confirmation',
  };
}

const aimed = (r: ResolvedOk): Pick<Action, 'target_id' | 'point'> =>
  r.target_id ? { target_id: r.target_id } : r.point ? { point: r.point } : {};

const ACTION = { readOnly: false, usesDevice: true } as const;

/** The target fields a direct tool takes (the server resolves them: ./targets.ts). */
const TARGET_FIELDS: Record<McpDirect['target'], z.ZodRawShape> = {
  any: TargetShape,
  element: { element_id: TargetShape.element_id, selector: TargetShape.selector },
  none: {},
};

function directTool(t: Tool, m: McpDirect): ToolDef {
  const name = m.name ?? t.name;
  const client = m.checksItself ? { confirmation_id: ExpectShape.confirmation_id } : ExpectShape;
  return {
    ...ACTION,
    name,
    offered: runs(t.name),
    title: m.title,
    description: m.description,
    shape: { ...TARGET_FIELDS[m.target], ...m.fields, ...ControlsShape, ...client },
    destructive: m.destructive,
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => {
          const c = m.call(args, { aimed: aimed(r), element: r.element, obs: r.base.obs });
          if ('code' in c) return toolError(c.code, c.message);
          const action = { ...c.action, tool: t.name };
          return { tool: name, action, expect: c.expect, dispatchDefaultMs: m.dispatchDefaultMs };
        },
        { targetRequired: m.targetRequired },
      ),
  };
}

/** `press_key`: the registry's tools with an MCP key, one tool whose `key` names which. */
function pressKey(keyed: readonly Tool[]): ToolDef {
  const keys = keyed.map((t) => t.mcpKey as string);
  const first = keyed[0];
  if (!first) throw new Error('press_key needs a tool with an mcpKey in the registry (src/tools)');
  return {
    ...ACTION,
    name: 'press_key',
    offered: runs(first.name),
    title: 'Press a key',
    description: `Press ${keys.join(' or ')}.`,
    shape: { key: z.enum(keys as [string, ...string[]]), ...ControlsShape, ...ExpectShape },
    destructive: false,
    run: (args, call) =>
      runAction(args, call, () => {
        const key = keyed.find((t) => t.mcpKey === args.key) ?? first;
        return { tool: 'press_key', action: { tool: key.name }, expect: { kind: 'screen_changes' } };
      }),
  };
}

/** The direct tools in the registry's order, press_key where its first key tool is. */
export const directTools: ToolDef[] = REGISTRY.tools.flatMap((t) => {
  const keyed = REGISTRY.tools.filter((k) => k.mcpKey !== undefined);
  if (t.mcpDirect) return [directTool(t, t.mcpDirect)];
  return t === keyed[0] ? [pressKey(keyed)] : [];
});
