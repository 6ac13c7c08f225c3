/** Inputs of the prompt builders: plain data, so the builders are pure and snapshot-testable. */

export interface Subgoal {
  text: string;
  done: boolean;
}

export interface HistoryEntry {
  step: number;
  /** e.g. `tap [1a2b3c4d] "Wi-Fi"`. */
  action: string;
  expect: string;
  ok: boolean;
  /** It worked, but nothing checked its expectation (shown `ok, not checked`, never `met`). */
  unchecked?: boolean;
  /**
   * A step taken from a recording and given as done (a benchmark's gold history): nothing ran it on
   * this screen and nothing checked it, so it is shown `recorded`, never `met`.
   */
  recorded?: boolean;
  /** Why it failed, or a short note (guardrail denied, replayed from memory…). */
  note?: string;
  /** Who chose it when not the model: an interrupt rule, a replay from page memory, the wait gate. */
  by?: 'rule' | 'replay' | 'gate';
  /** Full id → how the screen the step was decided on listed it: the line keeps that form (core/element-ref asListedIds). */
  ids?: Record<string, string>;
}

export interface DecideInput {
  goal: string;
  plan: Subgoal[];
  /** Index into plan of the subgoal being worked on (plan.length when all are done). */
  current: number;
  /** The compact observation (perception) or its delta against the previous page. */
  screen: string;
  screenIsDelta: boolean;
  /** Controls on the screen whose tap the guard would hold for the user: id → categories (marked on their lines). */
  held?: Readonly<Record<string, readonly string[]>>;
  /** Screen width / height. */
  aspect: number;
  history: HistoryEntry[];
  /** Working memory: the model's `note`s, oldest first, shown in every prompt. */
  notes?: string[];
  /** What exploring the app taught about this page and its controls (agent/knowledge.ts), its lines only. */
  knowledge?: readonly string[];
  /** Actions that failed on this page and must not be repeated. */
  banned: string[];
  /** Tools the connected device supports (plus `look`). */
  tools: string[];
  /** Set by the loop breaker: the last strategy did not work, try something different. */
  hint?: string;
  /** Set when a screenshot is attached to this request. */
  imageNote?: string;
  /** The launcher's app names (`launch_app` takes them); the agent gives them only on the home screen. */
  apps?: readonly string[];
  /** The title of a dialog open on the screen ('' when it has none): the all-done line says so. */
  dialog?: string;
  /** No plan yet (Flash): this decision carries it (`plan=[…]`), and the Plan line says so. */
  planPending?: boolean;
  /** Bursts of certain steps are asked for (Flash; given only where the sequence tool is offered), of at most this many members (the Burst line). */
  burstLimit?: number;
}

export interface PlanInput {
  goal: string;
  screen: string;
  aspect: number;
  /** The launcher's app names, when the device could list them. */
  apps?: readonly string[];
  /** Previous plan, why it is being revised (replan), and the steps that led there. */
  previous?: { plan: Subgoal[]; reason: string; history?: HistoryEntry[] };
}
