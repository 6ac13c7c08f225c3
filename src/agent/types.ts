import type { RunMode } from '../core/run-mode.js';
import type { Decision, Receipt } from '../core/types.js';
import type { LlmUsage } from '../planner/llm/client.js';

export type RunStatus = 'done' | 'failed' | 'infeasible' | 'ask_user' | 'needs_confirmation' | 'budget' | 'dry_run';

/** Where a step's decision came from. */
export type DecisionSource = 'llm' | 'cache' | 'rule' | 'gate';

export interface StepTimings {
  /** Whole step, real time (ms). */
  totalMs: number;
  /** Waiting on the model (real ms). */
  llmMs: number;
  /** Observing and dispatching on the device (real ms). */
  deviceMs: number;
  /** total − llm − device: what the agent itself costs per step. */
  overheadMs: number;
}

export interface StepSummary {
  step: number;
  subgoal: string;
  source: DecisionSource;
  action: string;
  ok: boolean;
  note?: string;
  llm: LlmUsage;
  timings: StepTimings;
}

export interface StepRecord extends StepSummary {
  pageHash: string;
  observation: string;
  /** The screen's size in pixels (the listing the model reads leaves it out). */
  screen?: { w: number; h: number };
  decision?: Decision;
  expect?: string;
  receipt?: Receipt;
  signals?: string[];
  guard?: { categories: string[]; reasons: string[]; verdict?: string; by?: string };
  /** The element the step acted on, its box in 0..1000 screen space (for the report). */
  target?: { id: string; bounds: { left: number; top: number; right: number; bottom: number } };
}

export interface RunResult {
  runId: string;
  runDir: string;
  goal: string;
  status: RunStatus;
  answer?: string;
  reason?: string;
  steps: number;
  /** The mode the run ended in (a Flash run that handed over ends in pro). */
  mode: RunMode;
  /** When and why a Flash run handed over to Pro. */
  handover?: { step: number; reason: string };
  llm: LlmUsage;
  cacheHits: number;
  ruleActions: number;
  denials: number;
  confirmations: number;
  stepLog: StepSummary[];
}

export type AgentEvent =
  | { kind: 'plan'; subgoals: string[]; cached: boolean }
  | { kind: 'resume'; fromStep: number; notes: string[]; subgoals: string[] }
  /** A Flash run handed over to Pro after `step`, with Pro's plan. */
  | { kind: 'handover'; step: number; reason: string; subgoals: string[] }
  | { kind: 'step'; max: number; summary: StepSummary }
  | { kind: 'finish'; result: RunResult };
