import path from 'node:path';
import type { AgentDeps } from '../agent/session.js';
import type { AgentEvent } from '../agent/types.js';
import { type Clock, RealClock } from '../core/clock.js';
import { Logger } from '../core/logger.js';
import type { Device } from '../device/device.js';
import type { PollMode } from '../executor/executor.js';
import type { ConfirmationAnswer, ConfirmationChannel, ConfirmationRequest } from '../executor/guardrails/confirm.js';
import type { GuardConfig } from '../executor/guardrails/guard.js';
import type { LlmClient } from '../planner/llm/client.js';
import { PageMemory } from '../planner/memory/page-memory.js';
import { Planner } from '../planner/planner.js';
import { loadKnowledge } from '../store/app-map.js';
import { loadKnowledgeStore } from '../store/knowledge-store.js';
import { loadPageMemory, savePageMemory } from '../store/page-memory-file.js';
import { REGISTRY } from '../tools/index.js';
import { type DeviceSpec, openDevice } from './device.js';
import { type ModelSpec, openModel } from './model.js';
import { composePorts } from './ports.js';

/**
 * The one factory (DESIGN §2): device → ports (perception + the executor's pipeline) → model →
 * planner → the loop's dependencies. The CLI, the MCP server, the regression suite, the benchmarks
 * and the test rigs all compose an agent here, so the product path is the path under test.
 */

export interface ComposeSpec {
  device: DeviceSpec;
  model: ModelSpec;
  /** Who answers guarded actions. */
  confirm: ConfirmationChannel;
  /** Page memory: in memory, or a JSON file loaded now and saved by `saveMemory()`. */
  memory?: PageMemory | { file: string };
  clock?: Clock;
  logger?: Logger;
  /** Knowledge files Explore wrote (`knowledge.json`): each step's prompt gains its page's lines. */
  knowledge?: readonly string[];
  /**
   * A knowledge store folder (store/knowledge-store.ts): every app's entry is loaded, and each step
   * takes the lines of the front app's only, so the knowledge follows the app when the task moves on.
   */
  knowledgeStore?: string;
  /** Screenshots with every observation (archive, vision, frame hash); default on. */
  screenshots?: boolean;
  verification?: PollMode;
  guard?: GuardConfig;
  seed?: number;
  perf?: () => number;
  onEvent?: (e: AgentEvent) => void;
  env?: Record<string, string | undefined>;
  /**
   * Wrappers around the model client and the device (the CLI records each call into the run
   * folder and explains a dead endpoint); the agent sees only the wrapped ones.
   */
  decorate?: { llm?: (llm: LlmClient) => LlmClient; device?: (device: Device) => Device };
}

export interface Composed {
  deps: AgentDeps;
  device: Device;
  /** What was connected (sim, a URL, a serial): for the launch record and messages. */
  deviceLabel: string;
  /** Persist what the run learned (page memory) — call after the run. */
  saveMemory(): Promise<void>;
  close(): Promise<void>;
}

export async function composeAgent(spec: ComposeSpec): Promise<Composed> {
  const clock = spec.clock ?? new RealClock();
  const logger = spec.logger ?? new Logger('agent', { level: 'warn' });
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    // A bad knowledge file fails before anything is started: it names the file and what to pass.
    const knowledge = [
      ...(await Promise.all((spec.knowledge ?? []).map((f) => loadKnowledge(path.resolve(f))))),
      ...(spec.knowledgeStore ? (await loadKnowledgeStore(spec.knowledgeStore)).knowledge : []),
    ];
    // The model first: a missing configuration fails before a phone is touched.
    const model = await openModel(spec.model, { clock, logger, env: spec.env ?? process.env });
    closers.push(() => model.close());
    const opened = await openDevice(spec.device, { clock, logger });
    closers.push(() => opened.close());
    const file = spec.memory && !(spec.memory instanceof PageMemory) ? path.resolve(spec.memory.file) : undefined;
    const memory =
      spec.memory instanceof PageMemory
        ? spec.memory
        : new PageMemory(file ? await loadPageMemory(file, logger.child('store')) : undefined);
    const device = spec.decorate?.device?.(opened.device) ?? opened.device;
    const ports = composePorts({
      device,
      clock,
      logger,
      screenshots: spec.screenshots,
      verification: spec.verification,
      guardConfig: spec.guard,
      seed: spec.seed,
      vision: model.config.vision,
      imageFormat: model.config.imageFormat,
    });
    const planner = new Planner({
      llm: spec.decorate?.llm?.(model.llm) ?? model.llm,
      logger: logger.child('planner'),
      catalog: REGISTRY.catalog,
    });
    const deps: AgentDeps = {
      ports,
      planner,
      memory,
      clock,
      logger,
      confirm: spec.confirm,
      perf: spec.perf,
      onEvent: spec.onEvent,
      ...(knowledge.length ? { knowledge } : {}),
    };
    return {
      deps,
      device: opened.device,
      deviceLabel: opened.label,
      saveMemory: async () => {
        if (file) await savePageMemory(file, memory.toJSON());
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A confirmation channel from a callback (the suite's scripted answers, tests). */
export function callbackConfirmation(
  name: string,
  answer: (
    req: ConfirmationRequest,
  ) => 'approved' | 'denied' | 'deferred' | Promise<'approved' | 'denied' | 'deferred'>,
): ConfirmationChannel {
  return {
    name,
    async confirm(req): Promise<ConfirmationAnswer> {
      const v = await answer(req);
      if (v === 'approved') return { verdict: 'approved', by: name };
      if (v === 'denied') return { verdict: 'denied', by: name, reason: `${name} declined` };
      return { verdict: 'deferred', by: name, pending: req };
    },
  };
}
