import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** Types of ./mcp-tasks-client.mjs (plain JavaScript so each command starts fast). */

export declare function consentDir(taskDir: string): string;

export declare function currentFile(workDir: string): string;

export declare function overFile(workDir: string): string;

export declare function writeAtomic(file: string, text: string): Promise<void>;

/** The running task the bench's work folder names, or undefined between tasks. */
export declare function readCurrent(
  workDir: string,
): Promise<{ n: number; of: number; instruction: string; url: string; token: string; taskDir: string } | undefined>;

export declare function openClient(opts: {
  url?: string;
  token?: string;
  taskDir?: string;
}): Promise<{ client: Client; close(): Promise<void> }>;

export declare function renderTools(tools: Tool[], instructions?: string): string;

export declare function renderResult(
  result: CallToolResult,
  opts: { imagesDir: string; name: string },
): Promise<string>;

export declare function writeFinished(
  taskDir: string,
  status: 'done' | 'infeasible' | 'ask_user',
  answer?: string,
): Promise<void>;
