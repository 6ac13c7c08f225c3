import { z } from 'zod';
import type { Action } from '../core/types.js';
import { mutates } from '../executor/act-kind.js';
import { REGISTRY, type Tool } from '../tools/index.js';
import type { McpExposure } from '../tools/tool.js';
import { ControlsShape } from './controls.js';
import { runAction } from './direct-tools.js';
import { runs, type ToolDef } from './tool.js';

/**
 * The native tools, generated from the registry: every tool with an MCP exposure (`Tool.mcp`,
 * src/tools/<name>.ts) becomes an MCP tool over the executor, with the helper protocol's own fields,
 * validated by the protocol's schemas before anything is sent (one rule, DESIGN §3). An element id
 * from observe may stand in for `selector`. Exposing a tool over MCP is adding `mcp` to its module.
 */

const Extra = {
  expect: z.string().optional().describe('light and full mode: what should change (default screen_changes)'),
  confirmation_id: z.string().optional(),
};

/** The server's own fields, not passed on to the protocol. */
const SERVER_FIELDS = new Set([
  'verificationMode',
  'responseMode',
  'actionTimeoutMs',
  'verificationTimeoutMs',
  'expect',
  'confirmation_id',
  'element_id',
]);

function nativeTool(t: Tool, mcp: McpExposure): ToolDef {
  const name = t.name;
  const readOnly = !mutates(t);
  return {
    name,
    title: mcp.title,
    description: `${mcp.description} Fields are the helper protocol's; unknown or out-of-range ones are rejected before anything is sent.`,
    shape: { ...mcp.fields, ...(readOnly ? {} : ControlsShape), ...Extra },
    readOnly,
    destructive: !readOnly && mcp.destructive === true,
    usesDevice: true,
    passthrough: true,
    offered: runs(name),
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => {
          const protocolArgs = Object.fromEntries(Object.entries(args).filter(([k]) => !SERVER_FIELDS.has(k)));
          const action: Action = { tool: name, args: protocolArgs, ...(r.target_id ? { target_id: r.target_id } : {}) };
          return { tool: name, action, expect: { kind: 'screen_changes' }, readOnly };
        },
        // The protocol's selector is the helper's to resolve; only an element id is ours.
        { targetKeys: ['element_id'] },
      ),
  };
}

/** The registry's tools that MCP clients call with protocol fields, in the registry's order. */
export const nativeTools: ToolDef[] = REGISTRY.tools
  .filter((t): t is Tool & { mcp: McpExposure } => t.mcp !== undefined)
  .map((t) => nativeTool(t, t.mcp));
