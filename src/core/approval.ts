import { z } from 'zod';

/**
 * A user's approval of a guarded action, as the run remembers it while it may still cover the
 * confirmation dialog that action opened (executor/consent-scope.ts). In core because the
 * checkpoint (store) keeps it and the executor judges by it.
 */
export const ApprovalSchema = z.object({
  /** The step the user approved. */
  step: z.number(),
  /** The action as the user was asked (`tap "Delete" in com.android.documentsui`). */
  summary: z.string(),
  categories: z.array(z.string()),
  package: z.string(),
  activity: z.string(),
  /** The dialogs on screen when it was approved: none of them was opened by it. */
  dialogs: z.array(z.string()),
});
export type Approval = z.infer<typeof ApprovalSchema>;
