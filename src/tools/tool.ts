import type { z } from 'zod';
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
}

/**
 * A tool as an MCP client calls it: its protocol fields (validated again by the protocol's schemas
 * before anything is sent), its title and description, and its annotations. The server adds the
 * controls (verification, timeouts), `expect` and `confirmation_id`.
 */
export interface McpExposure {
  title: string;
  description: string;
  fields: z.ZodRawShape;
  readOnly: boolean;
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
