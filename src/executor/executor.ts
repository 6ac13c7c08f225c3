import type { Approval } from '../core/approval.js';
import type { Clock } from '../core/clock.js';
import { CancelledError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { Progress } from '../core/progress.js';
import { seededRandom } from '../core/random.js';
import type { Decision, Element, Observation, Receipt } from '../core/types.js';
import type { Device } from '../device/device.js';
import type { Consent, ConsentScope } from './consent.js';
import type { FieldHints } from './field-hints.js';
import type { ConfirmationChannel, ConfirmationRequest } from './guardrails/confirm.js';
import type { GuardPolicy } from './guardrails/explore-policy.js';
import type { GuardConfig, GuardVerdict } from './guardrails/guard.js';
import { PostMemory, type StageEnv } from './job.js';
import { observeDevice, type Perceiver, SnapshotPerceiver } from './observe.js';
import { ActionGap, Pacer } from './pacing.js';
import type { StateChange } from './side-effects.js';
import { act } from './stage-act.js';
import { guard } from './stage-guard.js';
import { prepare } from './stage-prepare.js';
import { verify } from './stage-verify.js';
import type { ToolTable } from './tool-spec.js';
import type { Outcome } from './validator.js';
import type { PollMode, VerificationMode } from './verify.js';

export type { PollMode, VerificationMode } from './verify.js';

/**
 * The one action pipeline (DESIGN §1, §5), as stages over one Progress (./job.ts):
 * prepare (./stage-prepare.ts: parse, ground, validate) → guard (./stage-guard.ts: guard, consent
 * through the caller's port, dry run stops here, the `intent` event) → act (./stage-act.ts: pace,
 * re-check, dispatch with its retry ladder; a skill is the dispatch of its tool) → verify
 * (./stage-verify.ts: `expect`, then the audit of what else changed). It returns the receipt, the
 * verdict and the post-action observation, which is the next step's perception. Verification
 * (interaction-latency RFC §6.1, ./verify.ts) is the executor's default mode — light in the
 * product — and full for guarded actions, whose outcome must be beyond doubt. The Progress's log
 * ends up in the error when time runs out or the run is cancelled.
 */

export interface ExecutorDeps {
  device: Device;
  /** The tools it can run (the tool registry's, src/tools/): aim, request, dispatch. */
  tools: ToolTable;
  clock: Clock;
  logger: Logger;
  /** The channel used when a call brings none (direct tools, tests). */
  confirm: ConfirmationChannel;
  guard?: GuardConfig;
  /** Dispatch nothing that mutates; report what would have been done. */
  dryRun?: boolean;
  /** Default verification; guarded actions are always verified in full. */
  verification?: PollMode;
  /** Capture a screenshot with every post-action read (run archive, vision models, frame hash). */
  screenshots?: boolean;
  /** Seed of the pacing jitter (tests replay exactly). */
  seed?: number;
  perceive?: Perceiver;
  /** Where typing records what a field showed before (the injected perceiver's; field-hints.ts). */
  fields?: FieldHints;
  /** Light mode: how old (ms) the executor's own post-action read may be to stand in for the re-check. */
  freshForMs?: number;
  /** How long a confirmation may take (ms, default 10 min); not part of the action's deadline. */
  confirmTimeoutMs?: number;
  /** One deadline per action, covering re-check, dispatch and validation (ms). */
  actionTimeoutMs?: number;
  /** Post-action polling budget (ms, default 6 s) and period (~120 ms). */
  poll?: { timeoutMs?: number; intervalMs?: number };
}

/** Per call: the caller's consent port, what the run knows about consent, its events, and whether this run is a dry run. */
export interface RunHooks {
  confirm?: ConfirmationChannel;
  /** The run's approvals and done acts, as data the guard stage judges by (./consent.ts). */
  consent?: ConsentScope;
  /** The executor's events (the journal listens for `intent`); each is awaited before the next stage. */
  events?: (e: ExecutorEvent) => Promise<void>;
  dryRun?: boolean;
  /**
   * The caller acts on `obs` without deciding in between (a scripted journey, a rule): in light
   * mode this executor's own settled post-action read then stands in for the re-check. Anything a
   * model thought about is re-checked, however fast the model was.
   */
  fresh?: boolean;
  /** Explore's policy refuses what a task's would ask a person about, and more (./guardrails/explore-policy.ts). */
  policy?: GuardPolicy;
  /** This call's verification (guarded actions are still verified in full). */
  verification?: VerificationMode;
  /** Budget of pacing, re-check and dispatch (ms): with it, the call's one deadline is this plus `verifyTimeoutMs`. */
  dispatchTimeoutMs?: number;
  /** Budget of the post-action verification (ms). */
  verifyTimeoutMs?: number;
  /**
   * The run's Progress (its deadline and cancel signal): the action's own Progress is its child, so
   * a cancelled run ends the action in flight and the action never outlives the run.
   */
  progress?: Progress;
}

export interface StepResult {
  /** Delivered and validated. */
  ok: boolean;
  receipt: Receipt;
  outcome?: Outcome;
  /** The element acted on (the id's element, or what a point hit). */
  target?: Element;
  /** The newest observation after the action: the next step's perception. */
  post?: Observation;
  /** The PNG of `post`, when captured. */
  postPng?: Buffer;
  guard?: GuardVerdict;
  /** How the guard was answered (absent when the action never reached the guard). */
  consent?: Consent;
  pendingConfirmation?: ConfirmationRequest;
  /** What else the action changed on the page (for the completion check), with undo hints. */
  changes: StateChange[];
  /** Why it failed, for the model: the receipt's error or the verdict's reason, with undo hints. */
  error?: string;
  /**
   * The verification the verify stage applied (the call's, the executor's default, or full for an
   * approved guarded action); absent when the action stopped before it.
   */
  verification?: VerificationMode;
  /** read_control info, sequence member receipts, scroll log. */
  value?: unknown;
  /** Device reads (tree snapshots) this step made, for the benchmark and the run log. */
  reads: number;
  /** How long the call waited for the pacing gap since the previous dispatch (ms). */
  pacedMs?: number;
  /** The touch's own duration (ms): the tap's hold, a swipe's motion — chosen here, the same in every mode. */
  gestureMs?: number;
  dryRun?: boolean;
}

/**
 * What the executor tells its caller as an action moves through the stages; it awaits each, so a
 * listener (the run's journal) has written it before the next stage starts.
 * - `intent`: a mutating action is about to be sent, consent given; `guarded` when a person or
 *   policy approved it (an irreversible intent), `covered` when an earlier approval did.
 */
export type ExecutorEvent = { kind: 'intent'; request: ConfirmationRequest; guarded: boolean; covered?: Approval };

export class Executor {
  readonly perceiver: SnapshotPerceiver | undefined;
  readonly mode: PollMode;
  private readonly env: StageEnv;

  constructor(deps: ExecutorDeps) {
    const pacer = new Pacer(seededRandom(deps.seed ?? 1));
    this.perceiver = deps.perceive ? undefined : new SnapshotPerceiver();
    this.mode = deps.verification ?? 'full';
    this.env = {
      deps,
      pacer,
      // The 150–400 ms gap between dispatches (DESIGN §5).
      gap: new ActionGap(pacer, deps.clock),
      perceive: deps.perceive ?? (this.perceiver as SnapshotPerceiver).perceive,
      memory: new PostMemory(deps.clock),
      mode: this.mode,
      fields: deps.fields ?? this.perceiver?.fields,
    };
  }

  /** A fresh observation (the loop's perception step when no post-action read is at hand). */
  async observe(previous?: Observation, opts: { screenshot?: boolean; timeoutMs?: number; progress?: Progress } = {}) {
    const ms = opts.timeoutMs ?? 10_000;
    const { clock, device } = this.env.deps;
    const d = opts.progress ? opts.progress.child(ms) : Progress.start(clock, { timeoutMs: ms });
    const r = await observeDevice(device, this.env.perceive, previous, d, opts);
    if (r.ok) this.env.memory.remember(r.obs);
    return r;
  }

  /**
   * The stages, in order, over the action's one Progress. A cancel of the run's Progress ends the
   * action at the stage it is in (a CancelledError carrying the log); a timeout is a value in the
   * result, as every expected failure.
   */
  async run(decision: Decision, obs: Observation, hooks: RunHooks = {}): Promise<StepResult> {
    const env = this.env;
    const run = hooks.progress;
    let stage = 'prepare';
    // Between stages: a cancelled run stops (what was sent is in the journal and the log).
    const next = <T>(s: T, name: string): T => {
      stage = name;
      if (run?.aborted) throw run.cancelled(stage);
      return s;
    };
    try {
      const prepared = prepare(env, decision, obs, hooks);
      if ('end' in prepared) return prepared.end;
      const consented = await guard(env, next(prepared.next, 'guard'));
      if ('end' in consented) return consented.end;
      const acted = await act(env, next(consented.next, 'act'));
      if ('end' in acted) return next(acted.end, 'act');
      return next(await verify(env, next(acted.next, 'verify')), 'verify');
    } catch (e) {
      // A wait the cancel cut short rejects with the signal's reason: the run's CancelledError says where.
      if (run?.aborted && !(e instanceof CancelledError)) throw run.cancelled(stage);
      throw e;
    }
  }
}
