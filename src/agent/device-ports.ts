import type { Clock } from '../core/clock.js';
import { Deadline } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Action, Decision, Element, Expect, Observation, Selector } from '../core/types.js';
import type { Device } from '../device/device.js';
import { applyAudit, auditAction } from '../executor/action-audit.js';
import { CompletionTracker } from '../executor/completion.js';
import { Executor } from '../executor/executor.js';
import { PolicyConfirmation } from '../executor/guardrails/confirm.js';
import { checkGuard, type GuardConfig } from '../executor/guardrails/guard.js';
import { isNativeTool } from '../executor/native-validate.js';
import { observeDevice } from '../executor/observe.js';
import { type FrameEvidence, frameEvidence, withFrameEvidence } from '../executor/pinch.js';
import { aimAt } from '../executor/targets.js';
import { offeredTools } from '../executor/tools.js';
import { validate } from '../executor/validator.js';
import { compactView, perceive, VisualFirstRegistry } from '../perception/index.js';
import type { AgentPorts, ConfirmVerdict, GuardCheck, Perceived, Validated } from './ports.js';

/**
 * AgentPorts over a real Device: perception turns snapshots into observations, the executor aims,
 * guards, dispatches and validates. The loop only ever sees these ports.
 */

export interface DevicePortsDeps {
  device: Device;
  clock: Clock;
  logger: Logger;
  /** Decides guarded actions: a person, a policy (--yes / --deny) or pause-and-checkpoint. */
  confirm: (check: GuardCheck) => Promise<ConfirmVerdict>;
  guardConfig?: GuardConfig;
  /** Capture screenshots every observation (archive, frame hash); off makes benchmarks cheaper. */
  screenshots?: boolean;
  seed?: number;
  /** Per-call device deadline (ms). */
  callTimeoutMs?: number;
}

const LABEL = (e: Element) => e.label ?? (e.text || e.desc);

/** Native tools name their target by element id; the protocol wants a selector. */
function selectorFor(e: Element): Selector {
  if (e.resourceId) return { resource_id: e.resourceId };
  if (e.text) return { text: e.text, class_name: e.className };
  if (e.desc) return { content_desc: e.desc };
  return { class_name: e.className };
}

export function withNativeSelector(action: Action, obs: Observation): Action {
  if (!isNativeTool(action.tool) || !action.target_id || action.args?.selector) return action;
  const el = obs.elements.find((e) => e.id === action.target_id);
  if (!el) return action;
  const args: Record<string, unknown> = { ...(action.args ?? {}), selector: selectorFor(el) };
  if (action.tool === 'scroll_to' && action.text !== undefined && args.text === undefined) args.text = action.text;
  return { ...action, args };
}

function summarize(action: Action, obs: Observation, target?: Element): string {
  const what = target ? ` "${LABEL(target)}"` : action.point ? ` at ${action.point.x},${action.point.y}` : '';
  return `${action.tool}${what} in ${obs.app.package || 'the current app'}`;
}

/** The validator's verdict on `expect`, where "gone" must mean gone and not merely moved. */
function expectationCheck(
  expect: Expect,
  pre: Observation,
  post: Observation,
  decision: Decision,
  target: Element | undefined,
): Validated {
  const out = validate(expect, pre, post, decision.action, target);
  // Ids include bounds, so a control pushed up by the keyboard gets a new id: "gone" must mean
  // gone, not moved. Same actionable label, class and resource id still on screen → not gone.
  if (out.ok && expect.kind === 'element_gone') {
    const was = pre.elements.find((e) => e.id === expect.target_id);
    const moved =
      was &&
      LABEL(was) &&
      post.elements.find(
        (e) => e.actionable && LABEL(e) === LABEL(was) && e.role === was.role && e.resourceId === was.resourceId,
      );
    if (moved)
      return { ok: false, signals: out.signals, reason: `"${LABEL(was)}" is still on the page (it only moved)` };
  }
  return { ok: out.ok, signals: out.signals, reason: out.reason };
}

export function createDevicePorts(deps: DevicePortsDeps): AgentPorts {
  const { device, clock, logger } = deps;
  const registry = new VisualFirstRegistry();
  const timeout = deps.callTimeoutMs ?? 15_000;
  let lastShot: { png: Buffer; obs: Observation } | undefined;
  let lastFrames: FrameEvidence | undefined;
  // What the run has seen and what its actions changed unasked: evidence for the completion check.
  const completion = new CompletionTracker();
  // The loop has already asked the person (or the policy) about guarded actions before execute().
  const executor = new Executor({
    device,
    clock,
    logger,
    seed: deps.seed,
    guard: deps.guardConfig,
    confirm: new PolicyConfirmation({
      payment: 'allow',
      send: 'allow',
      delete: 'allow',
      account: 'allow',
      ambiguous_target: 'allow',
      personal_data: 'allow',
    }),
    perceive: (snap, shot, prev) => perceiveSnap(snap, shot?.png, prev),
  });

  const perceiveSnap = async (
    snap: Parameters<typeof perceive>[0] extends infer T ? (T extends { wire: infer W } ? W : never) : never,
    png: Buffer | undefined,
    previous: Observation | undefined,
  ): Promise<Observation> => {
    const r = await perceive({ wire: snap, screenshot: png }, { previous, registry });
    if (!r.ok) throw new Error(`perception failed: ${r.message}`);
    return r.observation;
  };

  return {
    tools: [...offeredTools(device.capabilities())],

    async observe(previous, opts): Promise<Perceived> {
      const t = clock.now();
      const r = await observeDevice(
        device,
        (snap, shot, prev) => perceiveSnap(snap, shot?.png, prev),
        previous,
        Deadline.after(clock, timeout),
        { screenshot: (opts?.screenshot ?? true) && deps.screenshots !== false },
      );
      if (!r.ok) throw new Error(`could not observe the phone (${r.code}): ${r.message}`);
      if (r.screenshot) lastShot = { png: r.screenshot.png, obs: r.obs };
      completion.observe(r.obs);
      return { obs: r.obs, png: r.screenshot?.png, deviceMs: clock.now() - t };
    },

    // The navigation bar is reachable through back/home; listing it costs tokens on every step.
    compact: (obs) => {
      const bars = new Set(obs.windows.filter((w) => w.type === 'navigation_bar').map((w) => w.id));
      return compactView({ ...obs, elements: obs.elements.filter((e) => !bars.has(e.window)) });
    },

    guard(decision: Decision, obs: Observation): GuardCheck {
      const action = withNativeSelector(decision.action, obs);
      const aim = aimAt(action, obs);
      const target = aim.ok ? aim.element : undefined;
      const v = checkGuard(action, obs, target, deps.guardConfig, aim.ok ? aim.needsConfirmation : undefined);
      return {
        needsConfirmation: v.needsConfirmation,
        mutating: v.mutating,
        categories: v.categories,
        reasons: v.reasons,
        summary: summarize(action, obs, target),
      };
    },

    confirm: (check) => deps.confirm(check),

    async execute(decision, obs) {
      const t = clock.now();
      const r = await executor.run(decision, obs);
      lastFrames = frameEvidence(r.receipt, r.post);
      // The element really acted on: the id's element, or what a point hit.
      const aim = aimAt(withNativeSelector(decision.action, obs), obs);
      const target = aim.ok ? aim.element : undefined;
      let error = r.receipt.error ? `${r.receipt.error.code}: ${r.receipt.error.message}` : r.outcome?.reason;
      if (!r.ok) {
        // Delivered but not validated: whatever it changed on the page is reported with its undo.
        const audit =
          r.outcome && r.post
            ? auditAction({
                expect: decision.expect,
                pre: obs,
                post: r.post,
                action: decision.action,
                acted: target,
                expectationHeld: false,
              })
            : undefined;
        if (audit?.addendum) error = `${error ?? 'not validated'}; ${audit.addendum}`;
        completion.record({ ok: false, reason: error }, r.post, audit?.changes ?? []);
      }
      return {
        ok: r.ok,
        error: r.ok ? undefined : (error ?? 'not validated'),
        receipt: r.receipt,
        target,
        deviceMs: clock.now() - t,
      };
    },

    validate(expect, pre0, post0, decision, target) {
      // A frame expectation (a pinched map) is checked on the frames the executor captured.
      const { pre, post } = withFrameEvidence(expect, pre0, post0, lastFrames);
      const checked = expectationCheck(expect, pre, post, decision, target);
      // The expectation can hold by accident (the wrong page also removes the intended element) and
      // a failed action can still have changed things: the audit decides both.
      const audit = auditAction({
        expect,
        pre,
        post,
        action: decision.action,
        acted: target,
        expectationHeld: checked.ok,
      });
      const out = applyAudit(checked, audit);
      completion.record(out, post, audit.changes);
      return out;
    },

    checkFinish(decision, obs) {
      const v = completion.check(decision.action, obs);
      if (v.ok) return { ok: true, signals: [] };
      return v.handOver
        ? { ok: false, signals: ['finish_handover'], reason: v.reason, handOver: true }
        : { ok: false, signals: ['finish_rejected'], reason: v.reason };
    },
    async image(obs, req) {
      // Screenshots go to the model downscaled (and cropped around a target when it asks to zoom).
      const shot = lastShot && lastShot.obs.seq === obs.seq ? lastShot.png : undefined;
      if (!shot) return undefined;
      const sharp = (await import('sharp')).default;
      let img = sharp(shot);
      const el = req.target_id ? obs.elements.find((e) => e.id === req.target_id) : undefined;
      const centre = el
        ? { x: (el.boundsPx.left + el.boundsPx.right) / 2, y: (el.boundsPx.top + el.boundsPx.bottom) / 2 }
        : req.point
          ? { x: (req.point.x / 1000) * obs.screen.w, y: (req.point.y / 1000) * obs.screen.h }
          : undefined;
      if (centre) {
        const w = Math.round(obs.screen.w / 2);
        const h = Math.round(obs.screen.h / 4);
        const left = Math.max(0, Math.min(obs.screen.w - w, Math.round(centre.x - w / 2)));
        const top = Math.max(0, Math.min(obs.screen.h - h, Math.round(centre.y - h / 2)));
        img = img.extract({ left, top, width: w, height: h });
      } else img = img.resize({ width: 512, height: 512, fit: 'inside' });
      const jpeg = await img.jpeg({ quality: 70 }).toBuffer();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    },
  };
}
