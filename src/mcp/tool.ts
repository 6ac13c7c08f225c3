import type { z } from 'zod';
import type { CallConsent } from './act.js';
import type { DeviceSession } from './session.js';

/**
 * A tool as the server defines it: its schema, MCP annotations and a `run` that the server wraps
 * (device lock, error answer) and that `action_sequence` calls directly for its members.
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
  /** Text a model reads first (the compact view); the JSON follows it. */
  text?: string;
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
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolOutput>;
}

/** An error answer: the code, what happened and what to do next, as a value. */
export function toolError(code: string, message: string, extra: Record<string, unknown> = {}): ToolOutput {
  return { result: { success: false, failure_code: code, message, ...extra }, isError: true };
}
