import type { z } from 'zod';
import type { Action, Element, Expect, Observation } from '../core/types.js';
import type { ExecutorToolSpec } from '../executor/tool-spec.js';
import type { PlannerToolSpec, ToolParse } from '../planner/tool-spec.js';

/**
 * One tool, defined once: everything the planner needs (help line, act fields, the screens that
 * offer it, its parse from the model's reply, its expectation) and everything the executor needs
 * (the device operations it takes, its aim, request and dispatch over the Device interface). The
 * registry (./index.ts) lists the tools; the act schema, the prompt's tool list and the dispatch
 * table are generated from it. Adding a tool is adding one file here and its line in the index.
 */
export interface Tool extends PlannerToolSpec, ExecutorToolSpec {
  name: string;
  terminal?: boolean;
  /** What its result says in the history, when it worked (what a read read, where a skill ended). */
  summary?: (value: unknown) => string | undefined;
  /**
   * What its result read off the screen (a slider's read-back percent, a timeline's readout): the
   * done gate counts these as seen, since the model was shown them as the tool's reading.
   */
  readings?: (value: unknown) => string[];
  /** Its MCP tool, where MCP clients call it with the helper protocol's own fields (mcp/native-tools.ts). */
  mcp?: McpExposure;
  /** Its MCP tool, where MCP clients call it with the agent's own targets (mcp/direct-tools.ts). */
  mcpDirect?: McpDirect;
  /** The key MCP's `press_key` names it by (a system key): every tool with one is in that one MCP tool. */
  mcpKey?: string;
}

/**
 * A tool as an MCP client calls it directly, naming its target as the agent does — an element id
 * from observe, a selector resolved on a fresh read, a point — rather than in protocol fields. The
 * server adds the target fields it takes, the controls, `expect` and `confirmation_id`, resolves
 * the target, and runs the action through the one executor (mcp/act.ts).
 */
export interface McpDirect {
  /** Its MCP name, where the client's word differs from the tool's (`type_text`). */
  name?: string;
  title: string;
  description: string;
  /** The target fields it takes: element id, selector or point; a field's (no point); none. */
  target: 'any' | 'element' | 'none';
  /** A call that names no target is refused before anything runs. */
  targetRequired?: boolean;
  /** Its own fields (beside the target's). */
  fields: z.ZodRawShape;
  /** The MCP `destructiveHint`: a press may pay, send or delete (the guard still asks first). */
  destructive: boolean;
  /** It verifies itself (a skill): the client names no expectation, only `confirmation_id`. */
  checksItself?: boolean;
  /** The dispatch budget (ms) when the client names none. */
  dispatchDefaultMs?: number;
  /** The call as the action (tool name aside) and what it should do by default, or why it cannot be made. */
  call: (args: Record<string, unknown>, at: McpTarget) => McpCall | { code: string; message: string };
}

/** The target an MCP call named, resolved on `obs`. */
export interface McpTarget {
  /** The target as an action aims (an element id, else a point; nothing when none was named). */
  aimed: Pick<Action, 'target_id' | 'point'>;
  element?: Element;
  obs: Observation;
}

export interface McpCall {
  action: Omit<Action, 'tool'>;
  expect: Expect;
}

/**
 * A tool as an MCP client calls it: its protocol fields (validated again by the protocol's schemas
 * before anything is sent), its title and description, and its annotations. The server adds the
 * controls (verification, timeouts), `expect` and `confirmation_id`. Its `readOnlyHint` is the
 * tool's own `readOnly` (a read or a wait: no controls, nothing to verify).
 */
export interface McpExposure {
  title: string;
  description: string;
  fields: z.ZodRawShape;
  /** The MCP `destructiveHint`: it may change what it acts on beyond the screen (a native action). */
  destructive?: boolean;
}

/** The parse of a tool without arguments of its own. */
export const noArgs = (): ToolParse => ({ ok: true, action: {} });

/** A fixed help line. */
export const says =
  (line: string): PlannerToolSpec['help'] =>
  () =>
    line;
