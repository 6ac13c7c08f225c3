import { z } from 'zod';

/** Fields several tools' MCP exposures share: how an MCP client names the element a tool acts on. */

/** The helper protocol's exact selector. */
export const McpSelector = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('exact selector: resource_id (as listed or in full), text, content_desc, class_name (AND)');

/** An element id from observe, standing in for a selector (the only reference the server resolves). */
export const McpElementId = z.string().optional().describe('an element id from observe, instead of selector');
