import { z } from 'zod';
import { type Decision, DecisionSchema } from '../../core/types.js';
import { type PendingBurst, PendingBurstSchema } from './burst-rest.js';

/**
 * Page memory as a verified replay cache: (goal, subgoal, page hash) → the action that worked there.
 * A hit is replayed without the LLM; the loop validates its `expect` as usual and calls `evict` the
 * moment it fails, so a stale entry costs one step, never a wrong run.
 */

export const PageMemoryEntrySchema = z.object({
  decision: DecisionSchema,
  subgoalDone: z.boolean(),
  hits: z.number().int().nonnegative(),
  /** Successful replays; entries are only written after a validated success. */
  verified: z.number().int().nonnegative(),
  /**
   * The `plan=[…]` the model sent with this action (a Flash first decision's, a burst's): replayed
   * with it, so a warm Flash run needs no call for its plan and a burst closes what it covered.
   */
  plan: z.array(z.string()).optional(),
  /**
   * The rest of the burst this action was the first part of (members by label, grounded on the
   * screens after it): replayed with it, so the parts after need neither a call nor an entry.
   */
  burst: PendingBurstSchema.optional(),
  /** With `subgoalDone`: how many subgoals after the [>] one it also ticked (`subgoal_done=N`, a burst's). */
  alsoDone: z.number().int().positive().optional(),
});
export type PageMemoryEntry = z.infer<typeof PageMemoryEntrySchema>;

/** What the memory holds; the file around it (version, where it lives) is the store's business. */
export const PageMemoryDataSchema = z.object({
  entries: z.record(z.string(), PageMemoryEntrySchema),
  plans: z.record(z.string(), z.array(z.string())),
});
export type PageMemoryData = z.infer<typeof PageMemoryDataSchema>;

/** One action that worked: where (goal, subgoal, page), what, and the plan it came with. */
export interface RememberedAction {
  goal: string;
  subgoal: string;
  pageHash: string;
  decision: Decision;
  subgoalDone: boolean;
  /** The `plan=[…]` it was sent with, if any. */
  plan?: readonly string[];
  /** With `subgoalDone`: how many subgoals after the [>] one it also ticked (`subgoal_done=N`). */
  alsoDone?: number;
  /** What was left of its burst after it. */
  burst?: PendingBurst;
}

export class PageMemory {
  private readonly entries: Map<string, PageMemoryEntry>;
  private readonly plans: Map<string, string[]>;

  constructor(data: PageMemoryData = { entries: {}, plans: {} }) {
    this.entries = new Map(Object.entries(data.entries));
    this.plans = new Map(Object.entries(data.plans));
  }

  static key(goal: string, subgoal: string, pageHash: string): string {
    return `${goal}\u241f${subgoal}\u241f${pageHash}`;
  }

  lookup(goal: string, subgoal: string, pageHash: string): PageMemoryEntry | undefined {
    const e = this.entries.get(PageMemory.key(goal, subgoal, pageHash));
    if (e) e.hits++;
    return e;
  }

  /** Record an action whose expectation was validated on this page. Terminal actions are never cached. */
  remember(e: RememberedAction): void {
    const k = PageMemory.key(e.goal, e.subgoal, e.pageHash);
    const prev = this.entries.get(k);
    const verified = (prev?.verified ?? 0) + 1;
    this.entries.set(k, {
      decision: e.decision,
      subgoalDone: e.subgoalDone,
      hits: prev?.hits ?? 0,
      verified,
      ...(e.plan ? { plan: [...e.plan] } : {}),
      ...(e.burst ? { burst: structuredClone(e.burst) } : {}),
      ...(e.alsoDone ? { alsoDone: e.alsoDone } : {}),
    });
  }

  evict(goal: string, subgoal: string, pageHash: string): void {
    this.entries.delete(PageMemory.key(goal, subgoal, pageHash));
  }

  plan(goal: string): string[] | undefined {
    return this.plans.get(goal);
  }

  rememberPlan(goal: string, subgoals: string[]): void {
    this.plans.set(goal, subgoals);
  }

  size(): number {
    return this.entries.size;
  }

  toJSON(): PageMemoryData {
    return { entries: Object.fromEntries(this.entries), plans: Object.fromEntries(this.plans) };
  }
}
