import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { z } from 'zod';
import { ApprovalSchema } from '../core/approval.js';
import { RUN_MODES } from '../core/run-mode.js';
import { DecisionSchema } from '../core/types.js';
import { PendingBurstSchema } from '../planner/memory/burst-rest.js';

/**
 * The run's `checkpoint.json` (DESIGN §6), through lowdb (steno's atomic rename: a kill mid-write
 * leaves the previous checkpoint intact). Validated on load so a hand-edited or truncated file
 * gives a clear error instead of a confused resume.
 */

export const HistoryEntrySchema = z.object({
  step: z.number(),
  action: z.string(),
  expect: z.string(),
  ok: z.boolean(),
  unchecked: z.boolean().optional(),
  recorded: z.boolean().optional(),
  note: z.string().optional(),
  by: z.enum(['rule', 'replay', 'gate']).optional(),
  ids: z.record(z.string(), z.string()).optional(),
});

const UsageSchema = z.object({
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  reasks: z.number(),
  retries: z.number(),
  ms: z.number(),
});

/**
 * The checkpoint's format version. Version 1 files from before the run state was one value lack
 * the newer optional fields (the loop's counters, the breaker, replays) and still load; a file from
 * a newer version is refused with a clear error rather than half understood.
 */
export const CHECKPOINT_VERSION = 1;

export type { PendingBurst } from '../planner/memory/burst-rest.js';

export const RunModeSchema = z.enum(RUN_MODES);
/** The task settings a run started with (agent/task-settings.ts), as its records keep them. */
export const SettingsRecordSchema = z.object({ maxBurstActions: z.number().int().min(1) });

export const CheckpointSchema = z.object({
  version: z.number().int(),
  runId: z.string(),
  /** The goal with credentials masked (`⟨secret1⟩`): a resume needs the original task text for them. */
  goal: z.string(),
  dryRun: z.boolean().optional(),
  /** How the run was started (device, model; never keys or tokens), so `resume` can reconnect. */
  launch: z.record(z.string(), z.string()).optional(),
  /** How the run is driven now (issue 25); a checkpoint without it is a Pro run. */
  mode: RunModeSchema.optional(),
  settings: SettingsRecordSchema.optional(),
  /** Expectations failed in Flash so far, and the hand-over to Pro once it happened. */
  flashMisses: z.number().int().min(0).optional(),
  planPending: z.boolean().optional(),
  handover: z.object({ step: z.number(), reason: z.string() }).optional(),
  burst: PendingBurstSchema.optional(),
  status: z.enum([
    'running',
    'interrupted',
    'done',
    'failed',
    'infeasible',
    'ask_user',
    'needs_confirmation',
    'budget',
    'dry_run',
  ]),
  subgoals: z.array(z.object({ text: z.string(), done: z.boolean() })),
  current: z.number(),
  step: z.number(),
  maxSteps: z.number(),
  lastPageHash: z.string().optional(),
  lastScreenshot: z.string().optional(),
  history: z.array(HistoryEntrySchema),
  blacklist: z.record(z.string(), z.array(z.string())),
  /** A banned signature → the action as it was sent (how the prompt names the ban). */
  bannedAs: z.record(z.string(), z.string()).optional(),
  /** An irreversible dispatch journaled before it happens; cleared by its validated result. */
  intent: z
    .object({
      step: z.number(),
      decision: DecisionSchema,
      pageHash: z.string(),
      /** Content of the screen it was aimed at (page hash + texts and states), to judge it on resume. */
      state: z.string().optional(),
      summary: z.string().optional(),
      /** The subgoal it served, and whether it completes that subgoal. */
      subgoal: z.number().optional(),
      subgoalDone: z.boolean().optional(),
    })
    .optional(),
  pendingConfirmation: z
    .object({
      step: z.number(),
      decision: DecisionSchema,
      summary: z.string(),
      categories: z.array(z.string()),
      pageHash: z.string().optional(),
    })
    .optional(),
  /** Totals so far, carried across resumes. */
  usage: UsageSchema.optional(),
  counters: z
    .object({ cacheHits: z.number(), ruleActions: z.number(), denials: z.number(), confirmations: z.number() })
    .optional(),
  /** Guarded actions (by summary) that took effect without a recorded result: never repeated in this run. */
  irreversibleDone: z.array(z.string()).optional(),
  /** The model's working memory (`note`). */
  notes: z.array(z.string()).optional(),
  /** The user's last approval while it may cover the confirmation dialog its action opened (issue 21). */
  approval: ApprovalSchema.optional(),
  /** Packages the run has worked in: an interrupt rule grants a permission only to these. */
  taskApps: z.array(z.string()).optional(),
  /** The completion check's evidence (CompletionTracker.toJSON): mistakes not undone survive a resume. */
  completion: z.unknown().optional(),
  /** Failures below the ban threshold (page → signature → count). */
  failures: z.record(z.string(), z.record(z.string(), z.number())).optional(),
  /** The loop breaker's counts (planner/memory/loop-breaker.ts). */
  breaker: z
    .object({
      counts: z.record(z.string(), z.number()),
      interventions: z.number(),
      last: z.object({ key: z.string(), page: z.string() }).optional(),
    })
    .optional(),
  /** Interrupt rule tries by dialog. */
  interrupts: z.record(z.string(), z.number()).optional(),
  /** Page-memory entries replayed / learned in this run (subgoal|page). */
  replayed: z.array(z.string()).optional(),
  learned: z.array(z.string()).optional(),
  /** The loop's counters and the note for the next model call. */
  loop: z
    .object({ invalidRun: z.number(), failRun: z.number(), replans: z.number(), hint: z.string().optional() })
    .optional(),
  /** When the run was resumed (clock ms), in order. */
  resumes: z.array(z.number()).optional(),
  answer: z.string().optional(),
  reason: z.string().optional(),
  updatedAt: z.number(),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/**
 * Where a run's checkpoint lives. It is written whole, from the run's state (agent/run-state.ts
 * `serialize`), by one writer (agent/run.ts); nothing patches it field by field.
 */
export class CheckpointStore {
  private constructor(private readonly db: Low<Checkpoint | null>) {}

  /** A new run's store; nothing is on disk until the first write. */
  static async create(runDir: string): Promise<CheckpointStore> {
    await mkdir(runDir, { recursive: true });
    return new CheckpointStore(new Low<Checkpoint | null>(new JSONFile(path.join(runDir, 'checkpoint.json')), null));
  }

  static async load(runDir: string): Promise<CheckpointStore> {
    const file = path.join(runDir, 'checkpoint.json');
    const db = new Low<Checkpoint | null>(new JSONFile(file), null);
    await db.read();
    const parsed = CheckpointSchema.safeParse(db.data);
    if (parsed.success && parsed.data.version > CHECKPOINT_VERSION)
      throw new Error(
        `${file} was written by a newer phone-agent (checkpoint version ${parsed.data.version}, this one reads ${CHECKPOINT_VERSION}); resume it with that version, or start a new run`,
      );
    if (!parsed.success)
      throw new Error(
        `${file} is not a valid checkpoint (${parsed.error.issues[0]?.message}); start a new run instead`,
      );
    const typed = new Low<Checkpoint | null>(new JSONFile(file), parsed.data);
    typed.data = parsed.data;
    return new CheckpointStore(typed);
  }

  /** The checkpoint as loaded or last written. */
  get data(): Checkpoint {
    if (!this.db.data) throw new Error('no checkpoint has been written for this run yet');
    return this.db.data;
  }

  /** Replace the checkpoint (atomically: a kill mid-write leaves the previous one). */
  async write(c: Checkpoint): Promise<void> {
    this.db.data = c;
    await this.db.write();
  }
}
