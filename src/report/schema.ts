import { z } from 'zod';
import type { StepRecord } from '../agent/types.js';
import { DecisionSchema, ReceiptSchema, RectSchema } from '../core/types.js';
import type { Checkpoint } from '../store/checkpoint.js';

/**
 * What the report reads from a run folder, validated: a step file is written by the agent, but it
 * may be truncated by a kill, hand-edited or from an older version — the report shows such a file
 * as a broken step instead of guessing.
 */

const UsageSchema = z.object({
  calls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  reasks: z.number().default(0),
  retries: z.number().default(0),
  ms: z.number().default(0),
});

export const StepFileSchema = z.object({
  step: z.number().int().positive(),
  subgoal: z.string(),
  source: z.enum(['llm', 'cache', 'rule', 'gate']),
  action: z.string(),
  ok: z.boolean(),
  note: z.string().optional(),
  llm: UsageSchema,
  timings: z.object({ totalMs: z.number(), llmMs: z.number(), deviceMs: z.number(), overheadMs: z.number() }),
  pageHash: z.string(),
  observation: z.string(),
  /** The screen's size in pixels; older runs have it only in the observation's header. */
  screen: z.object({ w: z.number(), h: z.number() }).optional(),
  decision: DecisionSchema.optional(),
  expect: z.string().optional(),
  receipt: ReceiptSchema.optional(),
  signals: z.array(z.string()).optional(),
  guard: z
    .object({ categories: z.array(z.string()), reasons: z.array(z.string()), verdict: z.string().optional() })
    .optional(),
  /** The element the step acted on, with its box in 0..1000 screen space (drawn on the screenshot). */
  target: z.object({ id: z.string(), bounds: RectSchema }).optional(),
});
export type StepFile = z.infer<typeof StepFileSchema>;

// Every record the agent writes must be readable here: this fails to typecheck when StepRecord
// changes in a way the schema does not accept.
type Readable<T extends z.input<typeof StepFileSchema>> = T;
export type AgentRecordIsReadable = Readable<StepRecord>;

/** A screenshot next to a step file, as a path relative to the run folder. */
export interface Shot {
  /** `steps/NNN.png` */
  rel: string;
  /** Pixel size from the PNG header, when it could be read. */
  width?: number;
  height?: number;
}

/** One line of `steps/NNN.calls.jsonl` (src/store/run-archive.ts), read leniently: it is a log. */
export const CallSchema = z.union([
  z.object({
    kind: z.literal('llm'),
    at: z.number().optional(),
    request: z.unknown(),
    response: z.unknown().optional(),
    error: z.string().optional(),
    ms: z.number().optional(),
  }),
  z.object({
    kind: z.literal('device'),
    at: z.number().optional(),
    command: z.string(),
    output: z.unknown().optional(),
    ok: z.boolean().optional(),
    ms: z.number().optional(),
  }),
]);
export type Call = z.infer<typeof CallSchema>;

interface StepShots {
  /** The screen the step was decided on (`steps/NNN.png`). */
  shot?: Shot;
  /** The screen after it: the next step's picture, or `steps/final.png` after the last step. */
  after?: Shot;
  /** The model's and the device's calls of this step, when the run recorded them. */
  calls: Call[];
}

export type ReportStep =
  | ({ n: number; kind: 'ok'; file: string; record: StepFile } & StepShots)
  | ({ n: number; kind: 'broken'; file: string; error: string } & StepShots);

export interface RunModel {
  /** Absolute path of the run folder. */
  dir: string;
  /** The checkpoint, or why it could not be read (the steps are still shown). */
  checkpoint?: Checkpoint;
  checkpointError?: string;
  steps: ReportStep[];
  /** `steps/final.png`: the screen the run ended on, when it was captured. */
  final?: Shot;
  /** Calls made before the first step (planning), from `steps/000.calls.jsonl`. */
  planningCalls: Call[];
}
