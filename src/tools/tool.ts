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
}

/** The parse of a tool without arguments of its own. */
export const noArgs = (): ToolParse => ({ ok: true, action: {} });

/** A fixed help line. */
export const says =
  (line: string): PlannerToolSpec['help'] =>
  () =>
    line;
