import type { RunResult } from '../src/agent/types.js';
import { seededRandom } from '../src/core/random.js';
import type { VirtualPhone } from '../src/testbed/sim/phone.js';
import type { World } from '../src/testbed/sim/world.js';
import type { ReplayTaskSpec } from './real-apps/spec.js';

/**
 * One regression task (REGRESSION-SUITE.md): an instruction template with seeded parameters, a
 * setup on the virtual phone, a check on its world state, the expected guardrail, the optimal step
 * count, tags, and the reference intents the reference model follows.
 */

export type GuardCode = 'SEND' | 'DEL' | 'PAY' | 'PAY_STOP' | 'SECRET';

export type Params = Record<string, string>;

export interface CheckResult {
  ok: boolean;
  reason?: string;
  /** Sub-goal credit 0..1 for composite tasks (AndroidLab-style); default 1 when ok, else 0. */
  score?: number;
}

export interface TaskDef {
  id: string;
  category:
    | 'settings'
    | 'launcher'
    | 'contacts'
    | 'messages'
    | 'shop'
    | 'login'
    | 'web'
    | 'clock'
    | 'calendar'
    | 'files'
    | 'notes'
    | 'cross-app'
    | 'maps'
    | 'recordings'
    | 'real-apps';
  tags: string[];
  /** `{name}` placeholders are filled from `params(random)`. */
  instruction: string;
  params?: (random: () => number) => Params;
  locale?: 'en' | 'zh';
  setup?: (phone: VirtualPhone, params: Params) => void | Promise<void>;
  /**
   * Reads world state (and, for "which screen", the phone's foreground) — never what the agent saw.
   * A real-app task (`replay`) is judged on its recorded graph instead (real-apps/run.ts).
   */
  check: (world: World, run: RunResult, params: Params, phone: VirtualPhone) => CheckResult | Promise<CheckResult>;
  /** A real-app task: it runs on a recorded DroidBot graph served by the replay phone (real-apps/). */
  replay?: ReplayTaskSpec;
  guard?: GuardCode;
  /** How the harness answers a confirmation request, by its summary (default: approve all). */
  confirm?: 'approve' | 'deny' | 'defer' | ((summary: string) => 'approve' | 'deny' | 'defer');
  optimalSteps: number;
  /**
   * Top-level World keys this task may change (AndroidWorld-style integrity check). When given, the
   * suite fails a run that changes any other key (`launched`, `toggles`, `events` are always allowed).
   */
  mayChange?: string[];
  /** Reference intents (templates with the same placeholders). */
  intents: string[];
}

export function fill(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? `{${k}}`);
}

/** Step budget of the suite: 2×optimal + 5. */
export function stepBudget(t: TaskDef): number {
  return 2 * t.optimalSteps + 5;
}

/** A task's goal for one seed: its parameters drawn from the seed, filled into the instruction. */
export function instantiate(task: TaskDef, seed: number): { params: Params; goal: string } {
  const params = task.params?.(seededRandom(seed * 7919 + 17)) ?? {};
  return { params, goal: fill(task.instruction, params) };
}
