import type { Action } from '../core/types.js';
import type { DeviceCapabilities } from '../device/device.js';
import { offeredTools as offeredOf, type ToolTable } from '../executor/tool-spec.js';
import {
  actFields,
  describeAction as describeOf,
  actionSignature as signatureOf,
} from '../planner/memory/signature.js';
import { META_TOOLS } from '../planner/meta-tools.js';
import type { PlannerToolSpec, ToolCatalog } from '../planner/tool-spec.js';
import { actionSequence } from './action-sequence.js';
import { askUser } from './ask-user.js';
import { back } from './back.js';
import { controlAction } from './control-action.js';
import { done } from './done.js';
import { home } from './home.js';
import { infeasible } from './infeasible.js';
import { launchApp } from './launch-app.js';
import { longPress } from './long-press.js';
import { pinch } from './pinch.js';
import { readControl } from './read-control.js';
import { scrollTo } from './scroll-to.js';
import { seekTimeline } from './seek-timeline.js';
import { setSlider } from './set-slider.js';
import { swipe } from './swipe.js';
import { tap } from './tap.js';
import type { Tool } from './tool.js';
import { touchGesture } from './touch-gesture.js';
import { type } from './type.js';
import { wait } from './wait.js';
import { waitUntil } from './wait-until.js';

/**
 * The tool registry: every device tool, one module each (DESIGN §3's tool set). The planner's
 * catalog (act schema, the prompt's tool list, parse), the executor's dispatch table and the MCP
 * tool list are all generated from it; nothing else names a tool. Order is the prompt's order.
 */

export type { Tool } from './tool.js';

export const TOOLS: readonly Tool[] = [
  tap,
  longPress,
  type,
  swipe,
  back,
  home,
  launchApp,
  wait,
  done,
  askUser,
  infeasible,
  readControl,
  controlAction,
  waitUntil,
  scrollTo,
  pinch,
  touchGesture,
  actionSequence,
  seekTimeline,
  setSlider,
];

/** A registry over a list of tools: names must be unique. */
export class ToolRegistry {
  readonly tools: readonly Tool[];
  /** The executor's dispatch table (aim, request, dispatch per tool). */
  readonly table: ToolTable;
  /** The planner's catalog: the device tools and the planner's own (look, note, read). */
  readonly catalog: ToolCatalog;

  constructor(tools: readonly Tool[], meta: readonly PlannerToolSpec[] = META_TOOLS) {
    const names = new Set<string>();
    for (const t of [...tools, ...meta]) {
      if (names.has(t.name)) throw new Error(`two tools are named ${t.name}: a tool is defined once`);
      names.add(t.name);
    }
    this.tools = tools;
    this.table = new Map(tools.map((t) => [t.name, t]));
    this.catalog = new Map<string, PlannerToolSpec>([...tools, ...meta].map((t) => [t.name, t]));
  }

  get(name: string): Tool | undefined {
    return this.table.get(name) as Tool | undefined;
  }

  /** The device tools the connected device can perform (DESIGN §3). */
  offered(caps: DeviceCapabilities): string[] {
    return offeredOf(this.table, caps);
  }

  /** The planner's tools: the device's (those this registry has), then the planner's own (`look` only for a model that sees images). */
  plannerTools(deviceTools: readonly string[], opts: { vision?: boolean } = {}): string[] {
    const own = META_TOOLS.filter((t) => opts.vision || !t.needsVision).map((t) => t.name);
    return [...deviceTools.filter((t) => this.table.has(t)), ...own];
  }
}

/** The product's registry. */
export const REGISTRY = new ToolRegistry(TOOLS);

/** An action's signature (blacklist, loop breaker) with the product's tools. */
export function actionSignature(a: Action): string {
  return signatureOf(a, REGISTRY.catalog);
}

/**
 * An action as the model would send it (history, bans, logs) with the product's tools; typed text
 * only as its length unless `typedShown` (a known field that is no password field).
 */
export function describeAction(a: Action, label?: string, typedShown = false): string {
  return describeOf(a, REGISTRY.catalog, label, typedShown);
}

/** Whether this action ends the run instead of acting on the phone. */
export function isTerminal(a: Pick<Action, 'tool'>): boolean {
  return !!REGISTRY.get(a.tool)?.terminal;
}

/**
 * The text an action types into a field (type; control_action's set_text), by the tool's own
 * `typed` rule — how the report and the audit tell typing from other text (an answer, a question).
 */
export function typedTextOf(a: Action): string | undefined {
  const f = actFields(a, REGISTRY.catalog);
  return typeof f.text === 'string' && REGISTRY.get(a.tool)?.typed?.(f) ? f.text : undefined;
}
