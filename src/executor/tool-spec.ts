import type { Deadline } from '../core/clock.js';
import type { Action, Element, ErrorCode, Observation } from '../core/types.js';
import type { DeviceCall, DeviceCapabilities, DeviceOp } from '../device/device.js';
import type { ActionRequest } from '../device/protocol/index.js';
import type { DispatchCtx, Dispatched, DispatchTarget } from './dispatch.js';
import type { SkillDeps, SkillStepResult } from './skill-step.js';
import type { Aim } from './targets.js';

/**
 * What the executor needs to know about a tool: the device operations it takes, how it is aimed
 * and turned into a device request on the observation it was decided on, and its dispatch (a
 * function over the Device interface). The executor names no tool; the tool registry (src/tools/)
 * fills these specs in and the composition hands them over (DESIGN §2: the registry sits above the
 * executor).
 */

export type Live = { ok: true; req: ActionRequest } | { ok: false; call: DeviceCall };

export type Prepared = { ok: true; req?: ActionRequest } | { ok: false; code: ErrorCode; message: string };

/** A skill's closed loop of gestures and reads, as one pipeline step (it verifies itself). */
export type Skill = (
  deps: SkillDeps,
  a: Action,
  obs: Observation,
  target: Element,
  d: Deadline,
) => Promise<SkillStepResult>;

export interface ExecutorToolSpec {
  name: string;
  /** Device operations it takes: any one of these sets, all of the set's ops (DESIGN §3). */
  needs: readonly (readonly DeviceOp[])[];
  /** Ends the run: the executor sends nothing. */
  terminal?: boolean;
  /** The action with its protocol arguments derived on this observation (selectors from ids). */
  bind?: (a: Action, obs: Observation, tools: ToolTable) => Action;
  /** As a sequence member (`{ target_id?, args }`, planner shape): the protocol member. */
  asMember?: (m: { target_id?: string; args: Record<string, unknown> }, obs: Observation) => Record<string, unknown>;
  /**
   * Checks against the live control right before it is sent (range, selection, token), binding the
   * request to the control just read; a sequence runs it for each member of this tool.
   */
  checkLive?: (ctx: DispatchCtx, req: ActionRequest, d: Deadline) => Promise<Live>;
  /** What it acts on (default: the element its protocol selector names, if any). */
  aim?: (a: Action, obs: Observation) => Aim;
  /** Its device request, validated in full before any input (native tools). */
  prepare?: (a: Action, obs: Observation) => Prepared;
  /** The device calls, after grounding, the guard and the re-check have passed. */
  dispatch?: (
    ctx: DispatchCtx,
    a: Action,
    target: DispatchTarget,
    req: ActionRequest | undefined,
    d: Deadline,
  ) => Promise<Dispatched>;
  /** A skill: its own loop of gestures and reads replaces dispatch and verification. */
  skill?: Skill;
  /** A touch at the target's position: re-checked right before, guarded on the phone. */
  touch?: boolean;
  /**
   * What Explore (an app walk without a task, ./guardrails/explore-policy.ts) may do with it: `free`
   * moves about and presses nothing (back, launching the app), `presses` is judged by what it presses,
   * `types` goes only into a search field, `scrolls` only up or down a scrollable container (a
   * sideways swipe may dismiss or delete a row). Absent: Explore refuses it.
   */
  explore?: 'free' | 'presses' | 'types' | 'scrolls';
  /** Moves fingers on the glass (a touch or a drawn gesture): a frame is evidence where the tree has no value. */
  gesture?: boolean;
  // What it does, as the guard, the validator and the audit judge it (./act-kind.ts): absent is no.
  /** Changes nothing on the phone: it reads or waits (a terminal tool sends nothing either). */
  readOnly?: boolean;
  /** Presses what it is aimed at (a tap, a long press, a control's click): its target's words say what it does. */
  presses?: (a: Action) => boolean;
  /** Enters text into a field (typing, setting or replacing its text): the field's new text is the agent's own. */
  entersText?: (a: Action) => boolean;
  /** Submits what the field holds (typing that ends in a newline, an IME enter): on a chat page that sends. */
  submits?: (a: Action) => boolean;
  /** May rightly leave the page as it was (focusing a field, bringing a control on screen): no change is no failure. */
  showsNothing?: (a: Action, target: Element | undefined) => boolean;
  /** Opens an app: by the names the action gives it (package, label), or by the launcher icon it presses. */
  opensApp?: (a: Action) => 'by_name' | 'by_icon' | undefined;
}

/** The tools the executor can run, by name. */
export type ToolTable = ReadonlyMap<string, ExecutorToolSpec>;

/** Whether the device can perform the tool (one of its op sets is all declared). */
export function canRun(spec: Pick<ExecutorToolSpec, 'needs'>, caps: DeviceCapabilities): boolean {
  return spec.needs.some((all) => all.every((op) => caps.ops.has(op)));
}

/** The tools the connected device can perform, in the table's order (DESIGN §3). */
export function offeredTools(table: ToolTable, caps: DeviceCapabilities): string[] {
  return [...table.values()].filter((t) => canRun(t, caps)).map((t) => t.name);
}
