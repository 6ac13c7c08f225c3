import { z } from 'zod';
import { ExpectSchema } from '../../core/types.js';

/**
 * The rest of a burst that crosses a page (agent/flash-burst.ts): its members still to run, each
 * named by label and grounded on the screen its turn comes on, and what the whole burst came with
 * (applied with its last member). Only what was not dispatched is kept: a resume goes on from it,
 * and page memory keeps it with the part it came after, so a replay goes on the same way.
 */
export const PendingBurstSchema = z.object({
  members: z.array(
    z.object({
      tool: z.string(),
      label: z.string().optional(),
      state: z.enum(['on', 'off']).optional(),
      args: z.record(z.string(), z.unknown()),
    }),
  ),
  /** The model's number (1-based) of the first member here. */
  next: z.number().int().min(1),
  /** The members that ran, as the model is told ('click "Network & internet"'). */
  ran: z.array(z.string()),
  expect: ExpectSchema,
  subgoalDone: z.boolean(),
  plan: z.array(z.string()).optional(),
  thought: z.string(),
});
export type PendingBurst = z.infer<typeof PendingBurstSchema>;
