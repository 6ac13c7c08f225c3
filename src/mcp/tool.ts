import type { z } from 'zod';
import type { ToolName } from '../core/types.js';
import type { DeviceCapabilities, DeviceOp } from '../device/device.js';
import { REGISTRY } from '../tools/index.js';
import type { CallConsent } from './act.js';
import type { DeviceSession } from './session.js';

/**
 * A tool as the server defines it: its schema, MCP annotations and a `run` that the server wraps
 * (device lock, error answer) and that `run_journey` calls directly for its members.
 */

export interface ToolCall {
  session: DeviceSession;
  consent: CallConsent;
  /** Progress to the client (task runs). */
  progress?: (message: string, progress: number, total?: number) => Promise<void>;
  signal?: AbortSignal;
}

export interface ToolOutput {
  /** The structured result (also sent as JSON text). */
  result: Record<string, unknown>;
  /** Text a model reads first (the compact view); without it the content is the result as JSON. */
  text?: string;
  /** The result goes into the content as JSON after `text` too (responseMode debug: clients that show only the content). */
  withJson?: boolean;
  image?: { data: string; mimeType: string };
  isError?: boolean;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  shape: z.ZodRawShape;
  readOnly: boolean;
  destructive: boolean;
  /** Holds the device for the call (every tool touching the phone). */
  usesDevice: boolean;
  /** Fields beyond `shape` are kept (native tools: the helper protocol validates them). */
  passthrough?: boolean;
  /**
   * Whether the connected device can run it (default: always). Only those are listed; the list
   * follows the device (a helper failing over to adb) with `notifications/tools/list_changed`.
   */
  offered?: (caps: DeviceCapabilities) => boolean;
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolOutput>;
}

/** An error answer: the code, what happened and what to do next, as a value. */
export function toolError(code: string, message: string, extra: Record<string, unknown> = {}): ToolOutput {
  return { result: { success: false, failure_code: code, message, ...extra }, isError: true };
}

/** Offered where the executor can run this planner tool on the device (executor/tools.ts, the one rule). */
export const runs =
  (tool: ToolName) =>
  (caps: DeviceCapabilities): boolean =>
    REGISTRY.offered(caps).includes(tool);

/** Offered where the device has this operation. */
export const has =
  (op: DeviceOp) =>
  (caps: DeviceCapabilities): boolean =>
    caps.ops.has(op);
