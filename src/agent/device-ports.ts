import type { Clock } from '../core/clock.js';
import { Deadline } from '../core/clock.js';
import { errorMessage, TimeoutError } from '../core/errors.js';
import type { ImageFormat } from '../core/image-format.js';
import type { Logger } from '../core/logger.js';
import type { Observation } from '../core/types.js';
import type { Device } from '../device/device.js';
import { HELPER_PACKAGE } from '../device/protocol/transport.js';
import { Executor, type PollMode } from '../executor/executor.js';
import { PauseForConfirmation } from '../executor/guardrails/confirm.js';
import type { GuardConfig } from '../executor/guardrails/guard.js';
import { AGENT_COMPACT, observeDevice, SnapshotPerceiver } from '../executor/observe.js';
import { VisualFirstRegistry } from '../perception/index.js';
import { encodeModelImage, type ModelImageRequest } from '../perception/model-image.js';
import { REGISTRY } from '../tools/index.js';
import { DeviceUnavailableError } from './errors.js';
import { heldTaps } from './held-taps.js';
import type { AgentPorts, Executed, Perceived } from './ports.js';

/** The ports, and the one executor they act through: MCP's direct tools use the same one. */
export interface DevicePorts extends AgentPorts {
  readonly executor: Executor;
}

/**
 * AgentPorts over a real Device: perception turns snapshots into observations, and every action
 * goes through the executor's one pipeline (ground → guard → consent → journal → dispatch → verify
 * → audit), whose post-action read is the next step's perception.
 */

export interface DevicePortsDeps {
  device: Device;
  clock: Clock;
  logger: Logger;
  guardConfig?: GuardConfig;
  /** Capture screenshots every observation (archive, frame hash, vision); off makes benchmarks cheaper. */
  screenshots?: boolean;
  /** Verification of unguarded actions; guarded ones are always verified in full. Default light. */
  verification?: PollMode;
  seed?: number;
  /** Per-call device deadline (ms). */
  callTimeoutMs?: number;
  /** The model reads images: screenshots are offered to it (visual-first screens, `look`). */
  vision?: boolean;
  /** How those screenshots are encoded (LlmConfig.imageFormat); default jpeg. */
  imageFormat?: ImageFormat;
}

/** Errors that say the device, not the action, is in trouble: the next read tells whether it is gone. */
const DEVICE_TROUBLE: ReadonlySet<string> = new Set(['UNAVAILABLE', 'READ_FAILED', 'TIMEOUT']);

/**
 * The Apps line's first entry when some names are package words (adb reads no labels, and no
 * launcher screen showed those apps' icons): a model must not take "Deskclock" for the icon's name.
 */
export const PACKAGE_WORDS_NOTE =
  "(names not seen on the launcher are package words, not the icons' labels; launch_app takes a label the launcher shows too)";

const SETTLE_MS = 150;
const APPS_TIMEOUT_MS = 5_000;
const MAX_SETTLE = 6;

export function createDevicePorts(deps: DevicePortsDeps): DevicePorts {
  const { device, clock, logger } = deps;
  const timeout = deps.callTimeoutMs ?? 15_000;
  const perceiver = new SnapshotPerceiver({ registry: new VisualFirstRegistry(), compact: AGENT_COMPACT });
  const executor = new Executor({
    device,
    tools: REGISTRY.table,
    clock,
    logger,
    seed: deps.seed,
    guard: deps.guardConfig,
    verification: deps.verification ?? 'light',
    screenshots: deps.screenshots !== false,
    // Every call brings the run's own channel; this one only stands in for a caller that forgot.
    confirm: new PauseForConfirmation(),
    perceive: perceiver.perceive,
    fields: perceiver.fields,
  });

  const readOnce = async (previous: Observation | undefined, screenshot: boolean) => {
    const d = Deadline.after(clock, timeout);
    d.note(`snapshot from ${device.name}${screenshot ? ' with screenshot' : ''}`);
    const r = await observeDevice(device, perceiver.perceive, previous, d, { screenshot });
    if (r.ok) return r;
    if (r.code === 'TIMEOUT')
      throw new TimeoutError(`could not observe the phone in ${timeout} ms: ${r.message}`, d.log);
    throw new DeviceUnavailableError(device.name, r.code, r.message);
  };

  /** Observe until the screen is stable (transitions, loading): waiting here costs no LLM call. */
  const observe = async (previous?: Observation, opts?: { screenshot?: boolean }): Promise<Perceived> => {
    const t = clock.now();
    const shot = (opts?.screenshot ?? true) && deps.screenshots !== false;
    let r = await readOnce(previous, shot);
    for (let i = 0; r.obs.unstable && i < MAX_SETTLE; i++) {
      await clock.sleep(SETTLE_MS);
      r = await readOnce(previous, shot);
    }
    return { obs: r.obs, compact: perceiver.compact(r.obs), png: r.screenshot?.png, deviceMs: clock.now() - t };
  };

  // Screenshots go to the model downscaled (and cropped around a target when it asks to zoom).
  const image = async (seen: Perceived, req: ModelImageRequest) =>
    seen.png ? encodeModelImage(seen.png, seen.obs, req, deps.imageFormat ?? 'jpeg') : undefined;

  // The launcher's apps by the names launch_app takes (the helper's labels, adb's package words).
  // Never fatal: without a list the prompt just has no Apps line.
  const apps = async (): Promise<readonly string[] | undefined> => {
    try {
      const r = await device.listApps(Deadline.after(clock, Math.min(timeout, APPS_TIMEOUT_MS)));
      if (r.ok) {
        const names = r.apps.filter((a) => a.package !== HELPER_PACKAGE).map((a) => a.label);
        return r.labels === 'package' ? [PACKAGE_WORDS_NOTE, ...names] : names;
      }
      logger.info('no app list from the device: prompts go without an Apps line', { code: r.code, why: r.message });
    } catch (e) {
      logger.warn('listing the apps failed: prompts go without an Apps line', { why: errorMessage(e) });
    }
    return undefined;
  };

  return {
    executor,
    get tools() {
      return REGISTRY.offered(device.capabilities());
    },
    observe,
    apps,

    async execute(req): Promise<Executed> {
      const t = clock.now();
      const r = await executor.run(req.decision, req.obs, {
        confirm: req.confirm,
        consent: req.consent,
        events: req.events,
        dryRun: req.dryRun,
        fresh: req.fresh,
        policy: req.policy,
        progress: req.progress,
        verification: req.verification,
      });
      const executed: Executed = {
        ok: r.ok,
        // An expectation whose element went with its page was not checkable: delivered is all ok says.
        checked: r.outcome !== undefined && !r.outcome.notCheckable,
        receipt: r.receipt,
        error: r.error,
        signals: r.outcome?.signals ?? [],
        target: r.target,
        consent: r.consent,
        dryRun: r.dryRun,
        changes: r.changes,
        value: r.value,
        deviceMs: 0,
      };
      const captured = !!r.postPng || deps.screenshots === false;
      if (r.post && !r.post.unstable && captured)
        executed.post = { obs: r.post, compact: perceiver.compact(r.post), png: r.postPng, deviceMs: 0 };
      else if (r.post || r.receipt.delivery !== 'not_delivered' || DEVICE_TROUBLE.has(r.receipt.error?.code ?? ''))
        // The screen moved (a re-check saw it, or the action may have acted) or the device stopped
        // answering, and no settled, captured read is at hand: read again — a dead device throws here.
        executed.post = await observe(r.post ?? req.obs);
      executed.deviceMs = clock.now() - t;
      return executed;
    },
    held: (obs) => heldTaps(obs, deps.guardConfig),
    // A model that cannot read images (or a run without screenshots) is never offered them, nor `look`.
    image: deps.vision && deps.screenshots !== false ? image : undefined,
  };
}
