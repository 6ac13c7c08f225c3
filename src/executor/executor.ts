import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { Progress } from '../core/progress.js';
import { seededRandom } from '../core/random.js';
import {
  type Decision,
  DecisionSchema,
  type Element,
  type ErrorCode,
  type Observation,
  type Receipt,
} from '../core/types.js';
import type { Device } from '../device/device.js';
import type { ActionRequest } from '../device/protocol/index.js';
import { applyAudit, auditAction } from './action-audit.js';
import { askConsent, type Consent, guardOf } from './consent.js';
import { prepareRequest, refuse } from './dispatch.js';
import type { FieldHints } from './field-hints.js';
import { needsFrames } from './frames.js';
import type { ConfirmationChannel, ConfirmationRequest } from './guardrails/confirm.js';
import type { GuardConfig, GuardVerdict } from './guardrails/guard.js';
import { injectChecked } from './inject.js';
import { withFullSelectors } from './native-args.js';
import { observeDevice, type Perceiver, perceiveSettled, SnapshotPerceiver } from './observe.js';
import { ActionGap, Pacer } from './pacing.js';
import type { StateChange } from './side-effects.js';
import { aimAt } from './targets.js';
import { canRun, type ToolTable } from './tool-spec.js';
import type { Outcome } from './validator.js';
import { reuseRead, type VerificationMode, type Verified, verifyAction } from './verify.js';

export type { VerificationMode } from './verify.js';

/**
 * Per call, beside the executor's default: `none` sends and reads nothing after (`ok` = the device
 * accepted it; the MCP server's `none`, and its `light` = `none` + one fresh tree of its own).
 */
export type RunMode = VerificationMode | 'none';

/**
 * The one action pipeline (DESIGN §1, §5): decision + the observation it was made on → ground →
 * guard → consent through the caller's confirmation port (dry run stops here) → journal the intent
 * → pace → re-check the target → dispatch under one deadline → verify `expect` → audit what else
 * changed. It returns the receipt, the verdict and the post-action observation, which is the next
 * step's perception. Verification (interaction-latency RFC §6.1, ./verify.ts) is the executor's
 * default mode — light in the product — and full for guarded actions, whose outcome must be beyond
 * doubt. The deadline's progress log ends up in the receipt's error when time runs out.
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
  verification?: VerificationMode;
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

/** Per call: the caller's consent port and journal, and whether this run is a dry run. */
export interface RunHooks {
  confirm?: ConfirmationChannel;
  /**
   * Called right before a mutating action is sent, once consent is given (the action journal);
   * `guarded` when a person or policy approved it (an irreversible intent).
   */
  journal?: (req: ConfirmationRequest, guarded: boolean) => Promise<void>;
  dryRun?: boolean;
  /**
   * The caller acts on `obs` without deciding in between (a scripted journey, a rule): in light
   * mode this executor's own settled post-action read then stands in for the re-check. Anything a
   * model thought about is re-checked, however fast the model was.
   */
  fresh?: boolean;
  /** This call's verification (guarded actions are still verified in full). */
  verification?: RunMode;
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
 * A delivered input after which the page stayed the same, where the device said why (a replay
 * phone: `off-graph: no recorded tap at … ; nothing changed`): its word goes first, ahead of the
 * validator's guess (dropped input, overlay, wrong element), so the model does not just try again.
 */
function deviceSaid(reason: string, receipt: Receipt, post: Observation): string {
  const said = receipt.detail?.trim();
  return said && receipt.pre?.pageHash === post.pageHash ? `the device said: ${said}; ${reason}` : reason;
}

function errorOf(receipt: Receipt, outcome: Outcome | undefined): string | undefined {
  return receipt.error ? `${receipt.error.code}: ${receipt.error.message}` : outcome?.reason;
}

export class Executor {
  private readonly pacer: Pacer;
  readonly perceiver: SnapshotPerceiver | undefined;
  private readonly perceive: Perceiver;
  private lastPost?: Observation;
  /** When `lastPost` was read (this executor's clock). */
  private lastPostAt = 0;
  /** The 150–400 ms gap between dispatches (DESIGN §5). */
  private readonly gap: ActionGap;
  readonly mode: VerificationMode;
  private readonly fields: FieldHints | undefined;

  constructor(private readonly deps: ExecutorDeps) {
    this.pacer = new Pacer(seededRandom(deps.seed ?? 1));
    this.gap = new ActionGap(this.pacer, deps.clock);
    this.perceiver = deps.perceive ? undefined : new SnapshotPerceiver();
    this.perceive = deps.perceive ?? (this.perceiver as SnapshotPerceiver).perceive;
    this.mode = deps.verification ?? 'full';
    this.fields = deps.fields ?? this.perceiver?.fields;
  }

  /** A fresh observation (the loop's perception step when no post-action read is at hand). */
  async observe(previous?: Observation, opts: { screenshot?: boolean; timeoutMs?: number; progress?: Progress } = {}) {
    const ms = opts.timeoutMs ?? 10_000;
    const d = opts.progress ? opts.progress.child(ms) : Progress.start(this.deps.clock, { timeoutMs: ms });
    const r = await observeDevice(this.deps.device, this.perceive, previous, d, opts);
    if (r.ok) this.remember(r.obs);
    return r;
  }

  private remember(obs: Observation): void {
    this.lastPost = obs;
    this.lastPostAt = this.deps.clock.now();
  }

  private none(status: Receipt['status'], code: ErrorCode | undefined, message: string | undefined): Receipt {
    const now = this.deps.clock.now();
    return {
      status,
      delivery: 'not_delivered',
      method: 'none',
      timings: { startedAt: now, endedAt: now },
      ...(code && message ? { error: { code, message } } : {}),
    };
  }

  private refused(receipt: Receipt, extra: Partial<StepResult> = {}): StepResult {
    return { ok: false, reads: 0, changes: [], receipt, error: errorOf(receipt, undefined), ...extra };
  }

  async run(decision: Decision, obs: Observation, hooks: RunHooks = {}): Promise<StepResult> {
    const { clock, device } = this.deps;
    const parsed = DecisionSchema.safeParse(decision);
    if (!parsed.success)
      return this.refused(
        this.none(
          'not_started',
          'INVALID_ARGUMENT',
          `invalid decision: ${parsed.error.issues[0]?.message}; an action needs a tool and an expect`,
        ),
      );
    const spec = this.deps.tools.get(parsed.data.action.tool);
    if (!spec)
      return this.refused(
        this.none(
          'not_started',
          'INVALID_ARGUMENT',
          `unknown tool ${parsed.data.action.tool}; use one of: ${[...this.deps.tools.keys()].join(', ')}`,
        ),
      );
    const full = withFullSelectors(parsed.data.action, obs);
    const a = spec.bind?.(full, obs, this.deps.tools) ?? full;
    if (spec.terminal)
      return { ok: true, reads: 0, changes: [], receipt: this.none('completed', undefined, undefined) };
    if (!canRun(spec, device.capabilities()))
      return this.refused(
        this.none(
          'not_started',
          'UNSUPPORTED',
          `${a.tool} is not supported by the connected device (${device.capabilities().detail ?? device.name}); pick an offered tool`,
        ),
      );

    // Waits and scrolls carry their own budget (≤ 30 s); the action's deadline must cover it.
    const own = typeof a.args?.timeout_ms === 'number' ? a.args.timeout_ms + 5_000 : 0;
    const dispatchBudget =
      hooks.dispatchTimeoutMs !== undefined ? Math.max(hooks.dispatchTimeoutMs, Math.min(own, 35_000)) : undefined;
    const budget =
      dispatchBudget !== undefined
        ? dispatchBudget + (hooks.verifyTimeoutMs ?? 0)
        : Math.max(this.deps.actionTimeoutMs ?? 15_000, Math.min(own, 35_000));
    const start = () => (hooks.progress ? hooks.progress.child(budget) : Progress.start(clock, { timeoutMs: budget }));
    let d = start();

    // 1. Aim and validate everything before anything is sent.
    const aim = aimAt(spec, a, obs);
    if (!aim.ok) return this.refused(refuse(d, aim.code, aim.message).receipt);
    const target = aim.element;
    const n = prepareRequest(spec, a, obs);
    if (n.ok) this.fields?.learn(a, obs, target);
    if (!n.ok) return this.refused(n.call(d).receipt, { target });
    const native: ActionRequest | undefined = n.req;

    // 2. Guard, then consent through the caller's port; a dry run asks nobody and sends nothing that mutates.
    const g = guardOf(a, obs, target, this.deps.guard, aim.needsConfirmation);
    if ((hooks.dryRun ?? this.deps.dryRun) && g.guard.mutating)
      return {
        ok: true,
        reads: 0,
        changes: [],
        target,
        guard: g.guard,
        consent: { kind: 'free', ...g },
        dryRun: true,
        receipt: this.none('not_started', undefined, undefined),
      };
    const consent = await askConsent(
      {
        clock,
        logger: this.deps.logger,
        channel: hooks.confirm ?? this.deps.confirm,
        timeoutMs: this.deps.confirmTimeoutMs,
      },
      a,
      target,
      g,
    );
    let guarded: Pick<StepResult, 'guard' | 'consent' | 'target' | 'pacedMs' | 'gestureMs'> = {
      guard: g.guard,
      consent,
      target,
    };
    if (consent.kind === 'denied')
      return this.refused(
        this.none('cancelled', 'CANCELLED', `not confirmed (${consent.reason ?? consent.by}): ${g.request.summary}`),
        guarded,
      );
    if (consent.kind === 'deferred')
      return this.refused(
        this.none(
          'not_started',
          'CANCELLED',
          `waiting for confirmation: ${g.request.summary}; checkpoint and resume after a person confirms`,
        ),
        { ...guarded, pendingConfirmation: g.request },
      );
    // Every action that can change the phone is journaled before it is sent (a resume judges the
    // one in flight on screen); the wait for a person's consent is not part of the action's time.
    if (g.guard.mutating) await hooks.journal?.(g.request, consent.kind === 'approved');
    if (consent.kind === 'approved') d = start();
    // Guarded actions are verified beyond doubt: two identical reads after the expectation holds.
    const mode: RunMode = consent.kind === 'approved' ? 'full' : (hooks.verification ?? this.mode);
    d.note(`${g.request.summary}: aimed${target ? ` at [${target.id}]` : ''}; ${mode} verification`);
    // A skill verifies itself: its closed loop reads the readout it acts on (executor/seek-timeline.ts).
    if (spec.skill && target) {
      const r = await spec.skill({ device, perceive: this.perceive, clock, gap: this.gap }, a, obs, target, d);
      if (r.post) this.remember(r.post);
      return { ...guarded, ...r };
    }

    // 3. Pace, then one fresh read right before injecting (pre evidence + re-check), then dispatch.
    // Light mode skips the re-check only for this executor's own settled read, made moments ago (no
    // decision time in between); an older observation — a model thought about it — is re-checked.
    const ownFresh =
      !!hooks.fresh &&
      this.lastPost === obs &&
      !obs.unstable &&
      clock.now() - this.lastPostAt <= (this.deps.freshForMs ?? 1_000);
    // With a dispatch budget, pacing, the re-check and the dispatch share it inside the call's deadline.
    const dd = dispatchBudget !== undefined ? d.child(dispatchBudget) : d;
    const pacedMs = await this.gap.wait(dd);
    guarded = { ...guarded, pacedMs };
    const ctx = {
      device,
      tools: this.deps.tools,
      logger: this.deps.logger,
      pacer: this.pacer,
      perceive: this.perceive,
      spec,
    };
    const frames = needsFrames(parsed.data.expect.kind, spec.gesture, obs);
    let inj: Awaited<ReturnType<typeof injectChecked>>;
    try {
      inj = await injectChecked(ctx, a, obs, aim, native, dd, {
        preRead: mode === 'full' || (mode === 'light' && frames),
        recheck: mode === 'full' || !ownFresh,
        frames,
        evidence: mode !== 'none',
      });
    } finally {
      this.gap.dispatched();
    }
    let reads = inj.reads;
    if (!inj.ok) return this.refused(inj.call.receipt, { ...guarded, reads, post: inj.seen });
    const { out, pre } = inj;
    if (out.gestureMs !== undefined) guarded = { ...guarded, gestureMs: out.gestureMs };
    d.note(`dispatched via ${out.call.receipt.backend ?? device.name}: ${out.call.receipt.status}`);
    if (!out.call.ok) {
      if (out.call.receipt.delivery === 'unknown') this.afterUnknown(obs);
      return this.refused(out.call.receipt, { ...guarded, reads, value: out.value });
    }

    // `none`: delivered is all it claims. The text ladder's read-back is a fresh post-dispatch tree:
    // it is handed on (parsed, no new read) for the caller's own observation.
    if (mode === 'none') {
      this.lastPost = undefined;
      const post = out.text?.snap ? await perceiveSettled(this.perceive, out.text.snap, pre) : undefined;
      if (post) this.remember(post);
      return { ok: true, ...guarded, reads, changes: [], receipt: out.call.receipt, value: out.value, post };
    }

    // 4. Verify, then audit. The text ladder's read-back serves when no frame is wanted.
    const reuse =
      mode === 'light' && out.text?.snap && !this.deps.screenshots
        ? await reuseRead(this.perceive, out.text.snap, parsed.data, pre, target)
        : undefined;
    const v: Verified =
      reuse ??
      (await verifyAction(
        {
          device,
          perceive: this.perceive,
          mode,
          screenshots: !!this.deps.screenshots,
          gesture: spec.gesture,
          poll:
            hooks.verifyTimeoutMs !== undefined
              ? { ...this.deps.poll, timeoutMs: hooks.verifyTimeoutMs }
              : this.deps.poll,
        },
        parsed.data,
        pre,
        target,
        d,
      ));
    reads += v.reads;
    const receipt: Receipt = {
      ...out.call.receipt,
      pre: { pageHash: pre.pageHash, seq: pre.seq, frameHash: pre.frameHash },
      post: v.post ? { pageHash: v.post.pageHash, seq: v.post.seq, frameHash: v.post.frameHash } : undefined,
    };
    const base = { ...guarded, reads, value: out.value, post: v.post, postPng: v.png };
    if (!v.outcome || !v.post) {
      const error = {
        code: 'READ_FAILED' as const,
        message: `the action was delivered but the screen could not be read to verify it (${v.lastError ?? 'no read in time'}); observe before retrying. Progress: ${d.log.join('; ')}`,
      };
      return {
        ...base,
        ok: false,
        changes: [],
        receipt: { ...receipt, error },
        error: `${error.code}: ${error.message}`,
      };
    }
    this.remember(v.post);
    // The expectation can hold by accident (the wrong page also removes the intended element) and a
    // failed action can still have changed things: the audit decides both.
    const audit = auditAction({
      expect: parsed.data.expect,
      pre,
      post: v.post,
      action: a,
      acted: target,
      expectationHeld: v.outcome.ok,
      approved: guarded.consent?.kind === 'approved',
    });
    const outcome = applyAudit(v.outcome, audit);
    return {
      ...base,
      ok: outcome.ok,
      receipt,
      outcome,
      changes: audit.changes,
      error: outcome.ok ? undefined : deviceSaid(outcome.reason ?? 'not validated', receipt, v.post),
    };
  }

  private afterUnknown(obs: Observation): void {
    this.deps.logger.warn('delivery unknown: the next step must observe before any retry', { page: obs.pageHash });
    this.lastPost = undefined;
  }
}
