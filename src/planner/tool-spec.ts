import type { z } from 'zod';
import type { Action, Expect } from '../core/types.js';

/**
 * What the planner needs to know about a tool: its help line, the `act` fields it reads, the
 * screens it is offered on, how its fields become an Action, and how an Action shows in the
 * history. The planner names no tool; the tool registry (src/tools/) fills these specs in and the
 * caller hands them over (DESIGN §2: the registry sits above the planner).
 */

export type Json = Record<string, unknown>;

/** One field of the flat `act` call: the parser's zod and the JSON schema the model is sent. */
export interface ActField {
  zod: z.ZodType;
  /** The compact JSON schema, or how to build it from the tools offered on this request (and all known). */
  json: Json | ((offered: readonly PlannerToolSpec[], catalog: ToolCatalog) => Json);
  /** The nested shape in full, for strict-mode providers (default: `json`). */
  full?: (offered: readonly PlannerToolSpec[], catalog: ToolCatalog) => Json;
}

/** The `act` call's fields every tool shares (the rest are the tools' own). */
export interface CommonArgs {
  thought: string;
  tool: string;
  target_id?: string;
  point?: { x: number; y: number };
  text?: string;
  direction?: 'up' | 'down' | 'left' | 'right';
  expect?: string;
  /** `true`: the [>] subgoal; N: every open one up to subgoal N (the Plan's numbers). */
  subgoal_done?: boolean | number;
  plan?: string[];
}
/** The parsed call: the common fields, and each tool's own (validated by its field's zod). */
export type ActArgs = CommonArgs & Record<string, unknown>;

/** The parts of the Action a tool's fields make (target_id, point and direction are common). */
export type ActionPart = Omit<Action, 'tool' | 'target_id' | 'point' | 'direction'>;
export type ToolParse = { ok: true; action: ActionPart } | { ok: false; error: string };

/** What kind of controls the listing shows: a tool's help names only what applies. */
export interface ScreenKinds {
  toggle: boolean;
  field: boolean;
  /** A field whose enter submits (a search box, marked `submits`): ime_enter is said only then. */
  submit: boolean;
  slider: boolean;
  list: boolean;
}

/** What a screen holds, for the tools offered only where they make sense (./screen-tools.ts). */
export interface ScreenTraits {
  /** A control with a range the tree carries (a slider). */
  range: boolean;
  /** Something is drawn in pixels (a map, a canvas, a large image, a self-drawn timeline). */
  drawn: boolean;
  /** A self-drawn recording timeline (perception/timeline.ts). */
  timeline: boolean;
  longPress: boolean;
  field: boolean;
  list: boolean;
  /** A control only the control tools serve: a range to set or read, a field to submit. */
  control: boolean;
  /** A slider whose tree carries no value (a uiautomator dump). */
  slider: boolean;
  loading: boolean;
  /** The run offers bursts (Flash) and the screen has controls for one (two or more). */
  burst: boolean;
}

/** An act field's value as the history shows it. */
export type FieldValue = string | number | { x: number; y: number } | FieldSet[] | { frames: number };
export type FieldSet = { tool?: string; target_id?: string } & Record<string, FieldValue | undefined>;

/** What a tool's parse may consult beyond its own fields. */
export interface ParseCtx {
  /** Every tool the planner knows (a sequence's members are parsed by their own specs). */
  catalog: ToolCatalog;
  /** An id as written (a listed prefix) → the full id on this screen, or why it is not there. */
  id: (id: string) => { id: string } | { error: string };
  /** The most members one action_sequence may have (the run's task setting). */
  maxBurst?: number;
}

export interface PlannerToolSpec {
  name: string;
  /**
   * Its line in the prompt's Tools list; starts with the name (PROMPT_FORMAT). `offered`: the tools
   * this request offers — a line names another tool only when it is one of them.
   */
  help: (kinds: ScreenKinds, offered: ReadonlySet<string>) => string;
  /** The act fields only this tool (or a few) reads, by name; merged over the registry. */
  fields?: Readonly<Record<string, ActField>>;
  /** Offered only on screens where this holds (default: everywhere the device can do it). */
  offeredOn?: (t: ScreenTraits) => boolean;
  /** Its fields → the action's own parts, or an error phrased for the model (re-asked). */
  parse: (a: ActArgs, ctx: ParseCtx) => ToolParse;
  /** It verifies itself: the model's expect is not read, this is the step's expectation. */
  expectation?: (a: ActArgs) => Expect;
  /** Ends the run instead of acting (done, ask_user, infeasible): expect "-". */
  terminal?: boolean;
  /** Claims the goal reached: questioned while subgoals are open, and needs the answer a question asks. */
  completes?: boolean;
  /** Acts on the agent or only waits or reads: nothing on the screen changes (said in the expect line). */
  quiet?: boolean;
  /** Acts on what is drawn: the screenshot is evidence (the expect line offers frame_changes). */
  drawn?: boolean;
  /** A planner tool that is not a device action (look, note, read): the agent answers it. */
  meta?: boolean;
  /** May be a member of a sequence (the sequence's `steps` offer it). */
  member?: boolean;
  /** Its text is typed into a field: the history shows its length, the signature a hash. */
  typed?: (f: FieldSet) => boolean;
  /** The action back in the act call's fields (the inverse of parse), beyond the common ones. */
  fieldsOf?: (a: Action, catalog: ToolCatalog) => Record<string, FieldValue | undefined>;
  /**
   * What the agent itself uses it for, acting without the model: `press` taps the button an
   * interrupt rule chose, `dismiss` moves a notification banner out of the way (unopened), `pause`
   * is the no-op a meta step (look, note, read) records. One tool per use (agentTool).
   */
  agentUse?: AgentUse;
}

export type AgentUse = 'press' | 'dismiss' | 'pause';

/** Every tool the planner may offer, by name. */
export type ToolCatalog = ReadonlyMap<string, PlannerToolSpec>;

/**
 * The tool the agent uses for `use` (the planner names no tool: it finds it by that property).
 * A catalog without one is a registry error, said as such.
 */
export function agentTool(catalog: ToolCatalog, use: AgentUse): string {
  for (const t of catalog.values()) if (t.agentUse === use) return t.name;
  throw new Error(`no tool in the catalog has agentUse '${use}': the registry (src/tools) must give one`);
}
