import { type Clock, Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { seededRandom } from '../core/random.js';
import { type Decision, DecisionSchema, type ErrorCode, type Observation, type Receipt } from '../core/types.js';
import type { Device, DeviceCall } from '../device/device.js';
import type { ActionRequest, WireSnapshot } from '../device/protocol/index.js';
import { prepareNative, refuse } from './dispatch.js';
import type { ConfirmationChannel, ConfirmationRequest } from './guardrails/confirm.js';
import { checkGuard, type GuardConfig, type GuardVerdict } from './guardrails/guard.js';
import { redactTyped } from './guardrails/pii.js';
import { injectChecked } from './inject.js';
import { isNativeTool } from './native-validate.js';
import { defaultPerceiver, observeDevice, type Perceiver } from './observe.js';
import { Pacer, pollUntil } from './pacing.js';
import { needsFrames } from './pinch.js';
import { aimAt, withNativeSelector } from './targets.js';
import { isOffered } from './tools.js';
import { type Outcome, pageSignature, snapshotLoading, validate } from './validator.js';

/**
 * The executor (DESIGN §1, §5): decision + the observation it was made on → ground → guard →
 * (dry run stops here) → pace → re-check the target → dispatch under one deadline → observe and
 * validate `expect`. Verification modes (interaction-latency RFC §6.1):
 * - `full`: a fresh read before the action (pre evidence), a re-check read right before injecting,
 *   and post reads until the expectation holds on two identical consecutive reads;
 * - `light`: no pre read when the observation is this executor's own last post-action read (the
 *   re-check is then that read), and post reads only until the first one that satisfies `expect`.
 *   That post observation is returned to serve as the next step's perception;
 * - `none`: no pre read, no post read — `ok` means the device accepted the action (the MCP server's
 *   direct tools; their `light` is `none` plus one fresh observation of its own).
 */

export type VerificationMode = 'full' | 'light' | 'none';

/** Per-call overrides (the MCP server's interaction controls, RFC §6). */
export interface RunControls {
  verification?: VerificationMode;
  /** Budget of everything up to and including the dispatch (ms). */
  dispatchTimeoutMs?: number;
  /** Budget of the post-action verification (ms); the call's one deadline is the sum of both. */
  verifyTimeoutMs?: number;
}

export interface ExecutorDeps {
  device: Device;
  clock: Clock;
  logger: Logger;
  confirm: ConfirmationChannel;
  guard?: GuardConfig;
  /** Dispatch nothing that mutates; report what would have been done. */
  dryRun?: boolean;
  verification?: VerificationMode;
  /** Seed of the pacing jitter (tests replay exactly). */
  seed?: number;
  perceive?: Perceiver;
  /** Light mode: how old (ms) the executor's own post-action read may be to stand in for the re-check. */
  freshForMs?: number;
  /** How long a confirmation may take (ms, default 10 min); not part of the action's deadline. */
  confirmTimeoutMs?: number;
  /** One deadline per action, covering re-check, dispatch and validation (ms). */
  actionTimeoutMs?: number;
  /** Post-action polling budget (ms, default 6 s) and period (~120 ms). */
  poll?: { timeoutMs?: number; intervalMs?: number };
}

export interface StepResult {
  /** Delivered and validated. */
  ok: boolean;
  receipt: Receipt;
  outcome?: Outcome;
  /** The newest observation after the action (light mode: the next step's perception). */
  post?: Observation;
  guard?: GuardVerdict;
  pendingConfirmation?: ConfirmationRequest;
  /** read_control info, sequence member receipts, scroll log. */
  value?: unknown;
  /** Device reads (tree snapshots) this step made, for the benchmark and the run log. */
  reads: number;
  dryRun?: boolean;
}

const TERMINAL = new Set(['done', 'ask_user', 'infeasible']);

export class Executor {
  private readonly pacer: Pacer;
  private readonly perceive: Perceiver;
  private lastPost?: Observation;
  /** When `lastPost` was read (this executor's clock). */
  private lastPostAt = 0;
  private lastDispatchAt?: number;
  readonly mode: VerificationMode;

  constructor(private readonly deps: ExecutorDeps) {
    this.pacer = new Pacer(seededRandom(deps.seed ?? 1));
    this.perceive = deps.perceive ?? defaultPerceiver;
    this.mode = deps.verification ?? 'full';
  }

  /** A fresh observation (the loop's perception step when no post-action read is at hand). */
  async observe(previous?: Observation, opts: { screenshot?: boolean; timeoutMs?: number } = {}) {
    const d = Deadline.after(this.deps.clock, opts.timeoutMs ?? 10_000);
    const r = await observeDevice(this.deps.device, this.perceive, previous, d, opts);
    if (r.ok) {
      this.lastPost = r.obs;
      this.lastPostAt = this.deps.clock.now();
    }
    return r;
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

  async run(decision: Decision, obs: Observation, controls: RunControls = {}): Promise<StepResult> {
    const { clock, logger, device } = this.deps;
    const mode = controls.verification ?? this.mode;
    const parsed = DecisionSchema.safeParse(decision);
    if (!parsed.success)
      return {
        ok: false,
        reads: 0,
        receipt: this.none(
          'not_started',
          'INVALID_ARGUMENT',
          `invalid decision: ${parsed.error.issues[0]?.message}; an action needs a tool and an expect`,
        ),
      };
    const a = withNativeSelector(parsed.data.action, obs);
    if (TERMINAL.has(a.tool)) return { ok: true, reads: 0, receipt: this.none('completed', undefined, undefined) };
    if (!isOffered(a.tool, device.capabilities()))
      return {
        ok: false,
        reads: 0,
        receipt: this.none(
          'not_started',
          'UNSUPPORTED',
          `${a.tool} is not supported by the connected device (${device.capabilities().detail ?? device.name}); pick an offered tool`,
        ),
      };

    // Waits and scrolls carry their own budget (≤ 30 s); the action's deadline must cover it.
    const own = typeof a.args?.timeout_ms === 'number' ? a.args.timeout_ms + 5_000 : 0;
    const dispatchBudget = controls.dispatchTimeoutMs;
    const budget =
      dispatchBudget !== undefined
        ? Math.max(dispatchBudget, Math.min(own, 35_000)) + (controls.verifyTimeoutMs ?? 0)
        : Math.max(this.deps.actionTimeoutMs ?? 15_000, Math.min(own, 35_000));
    let d = Deadline.after(clock, budget);
    let reads = 0;
    const fail = (call: DeviceCall, extra: Partial<StepResult> = {}): StepResult => ({
      ok: false,
      receipt: call.receipt,
      reads,
      ...extra,
    });

    // 1. Aim and validate everything before anything is sent.
    const aim = aimAt(a, obs);
    if (!aim.ok) return fail(refuse(d, aim.code, aim.message));
    let native: ActionRequest | undefined;
    if (isNativeTool(a.tool)) {
      const n = prepareNative(a, obs);
      if (!n.ok) return fail(n.call(d));
      native = n.req;
    }

    // 2. Guardrails: only a confirmation channel can let a guarded action through.
    const guard = checkGuard(a, obs, aim.element, this.deps.guard, aim.needsConfirmation);
    if (guard.pii.length)
      logger.child('guardrail').info('typed text contains personal data', {
        kinds: guard.pii.join(','),
        text: redactTyped(a.text ?? '', !!aim.element?.flags.password),
      });
    // A dry run reports what would be guarded, asks nobody and sends nothing that mutates.
    if (this.deps.dryRun && guard.mutating)
      return { ok: true, reads, guard, dryRun: true, receipt: this.none('not_started', undefined, undefined) };
    if (guard.needsConfirmation) {
      const label = aim.element
        ? `"${aim.element.label || aim.element.text || aim.element.desc || aim.element.role}"`
        : a.point
          ? `(${a.point.x},${a.point.y})`
          : '';
      const req: ConfirmationRequest = {
        categories: guard.categories,
        summary: `${a.tool} ${label} in ${obs.app.package}`.trim(),
        reasons: guard.reasons,
        package: obs.app.package,
        pageHash: obs.pageHash,
      };
      // A person may take a while: the confirmation has its own deadline, the action a fresh one after it.
      const answer = await this.deps.confirm.confirm(req, Deadline.after(clock, this.deps.confirmTimeoutMs ?? 600_000));
      d = Deadline.after(clock, budget);
      logger
        .child('guardrail')
        .warn(`guarded ${req.categories.join('/')} action: ${answer.verdict}`, { by: answer.by, summary: req.summary });
      if (answer.verdict === 'denied')
        return {
          ok: false,
          reads,
          guard,
          receipt: this.none('cancelled', 'CANCELLED', `not confirmed (${answer.reason ?? answer.by}): ${req.summary}`),
        };
      if (answer.verdict === 'deferred')
        return {
          ok: false,
          reads,
          guard,
          pendingConfirmation: answer.pending,
          receipt: this.none(
            'not_started',
            'CANCELLED',
            `waiting for confirmation: ${req.summary}; checkpoint and resume after a person confirms`,
          ),
        };
    }

    // 3. Pace, then one fresh read right before injecting (pre evidence + re-check), then dispatch.
    // Light mode skips the re-check only for this executor's own settled read, made moments ago (no
    // decision time in between); an older observation — a model thought about it — is re-checked.
    const ownFresh =
      this.lastPost === obs && !obs.unstable && clock.now() - this.lastPostAt <= (this.deps.freshForMs ?? 1_000);
    // With a dispatch budget, pacing, the re-check and the dispatch share it inside the call's deadline.
    const dd = dispatchBudget !== undefined ? d.child(Math.max(dispatchBudget, Math.min(own, 35_000))) : d;
    await this.pace(dd);
    const ctx = { device, logger, pacer: this.pacer, perceive: this.perceive };
    let inj: Awaited<ReturnType<typeof injectChecked>>;
    try {
      inj = await injectChecked(ctx, a, obs, aim, native, dd, {
        preRead: mode === 'full' || (mode === 'light' && needsFrames(parsed.data.expect.kind)),
        recheck: mode === 'full' || !ownFresh,
        frames: needsFrames(parsed.data.expect.kind),
      });
    } finally {
      this.lastDispatchAt = clock.now();
    }
    reads += inj.reads;
    if (!inj.ok) return fail(inj.call);
    const out = inj.out;
    const pre = inj.pre;
    if (!out.call.ok) {
      if (out.call.receipt.delivery === 'unknown') await this.afterUnknown(obs);
      return { ok: false, receipt: out.call.receipt, reads, guard, value: out.value };
    }

    // `none`: delivered is all it claims; the caller observes when it needs to.
    // The text ladder's read-back is a fresh post-dispatch tree: it is handed on (parsed, no new read).
    if (mode === 'none') {
      this.lastPost = undefined;
      const post = out.text?.snap ? await this.parse(out.text.snap, pre) : undefined;
      if (post) {
        this.lastPost = post;
        this.lastPostAt = clock.now();
      }
      return { ok: true, receipt: out.call.receipt, reads, guard, value: out.value, post };
    }
    // 5. Observe and validate. In light mode the text ladder's read-back is that one observation.
    const reuse =
      mode === 'light' && out.text?.snap
        ? await this.reuseRead(out.text.snap, parsed.data, pre, aim.element)
        : undefined;
    const poll = controls.verifyTimeoutMs !== undefined ? { timeoutMs: controls.verifyTimeoutMs } : {};
    const v = reuse ?? (await this.verify(parsed.data, pre, aim.element, d, mode, poll));
    reads += v.reads;
    const receipt: Receipt = {
      ...out.call.receipt,
      pre: { pageHash: pre.pageHash, seq: pre.seq, frameHash: pre.frameHash },
      post: v.post ? { pageHash: v.post.pageHash, seq: v.post.seq, frameHash: v.post.frameHash } : undefined,
    };
    if (!v.outcome) {
      return {
        ok: false,
        receipt: {
          ...receipt,
          error: {
            code: 'READ_FAILED',
            message: `the action was delivered but the screen could not be read to verify it (${v.lastError ?? 'no read in time'}); observe before retrying`,
          },
        },
        reads,
        guard,
        value: out.value,
      };
    }
    if (v.post) {
      this.lastPost = v.post;
      this.lastPostAt = clock.now();
    }
    return { ok: v.outcome.ok, receipt, outcome: v.outcome, post: v.post, reads, guard, value: out.value };
  }

  /** The 150–400 ms gap between actions, counted from the previous dispatch (reads happen inside it). */
  private async pace(d: Deadline): Promise<void> {
    if (this.lastDispatchAt === undefined) return;
    const wait = this.lastDispatchAt + this.pacer.jitterMs() - this.deps.clock.now();
    if (wait > 0) await d.sleep(wait);
  }

  private async afterUnknown(obs: Observation): Promise<void> {
    this.deps.logger.warn('delivery unknown: the next step must observe before any retry', { page: obs.pageHash });
    this.lastPost = undefined;
  }

  private async parse(snap: WireSnapshot, pre: Observation): Promise<Observation | undefined> {
    try {
      const o = await this.perceive(snap, undefined, pre);
      return o.unstable ? undefined : o;
    } catch {
      return undefined;
    }
  }

  /** A read already made after the action, accepted when it settles and satisfies the expectation. */
  private async reuseRead(
    snap: WireSnapshot,
    decision: Decision,
    pre: Observation,
    target: Observation['elements'][number] | undefined,
  ): Promise<{ outcome: Outcome; post: Observation; reads: number; lastError?: string } | undefined> {
    if (snapshotLoading(snap)) return undefined;
    try {
      const post = await this.perceive(snap, undefined, pre);
      if (post.unstable) return undefined;
      const outcome = validate(decision.expect, pre, post, decision.action, target);
      return outcome.ok ? { outcome, post, reads: 0 } : undefined;
    } catch {
      return undefined;
    }
  }

  private async verify(
    decision: Decision,
    pre: Observation,
    target: Observation['elements'][number] | undefined,
    d: Deadline,
    mode: VerificationMode,
    poll: { timeoutMs?: number },
  ): Promise<{ outcome?: Outcome; post?: Observation; reads: number; lastError?: string }> {
    let reads = 0;
    let post: Observation | undefined;
    let outcome: Outcome | undefined;
    let prevSig: string | undefined;
    const r = await pollUntil<true>(
      async () => {
        reads++;
        const o = await observeDevice(this.deps.device, this.perceive, post ?? pre, d, {
          screenshot: needsFrames(decision.expect.kind),
        });
        if (!o.ok) return { done: false, error: o.message };
        post = o.obs;
        outcome = validate(decision.expect, pre, o.obs, decision.action, target);
        // A transition or a spinner is not a page to decide on yet: keep polling (early exit after).
        if (o.obs.unstable || snapshotLoading(o.snap)) {
          if (!outcome.signals.includes('loading')) outcome.signals.push('loading');
          return { done: false };
        }
        const sig = pageSignature(o.obs);
        const stable = prevSig === sig;
        prevSig = sig;
        if (!outcome.ok) return { done: false };
        return { done: mode === 'light' || stable };
      },
      d,
      { timeoutMs: poll.timeoutMs ?? this.deps.poll?.timeoutMs, intervalMs: this.deps.poll?.intervalMs },
    );
    return { outcome, post, reads, lastError: r.lastError };
  }
}
