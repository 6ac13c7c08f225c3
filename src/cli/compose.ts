import path from 'node:path';
import { createDevicePorts } from '../agent/device-ports.js';
import type { AgentDeps } from '../agent/loop.js';
import type { AgentEvent, RunStatus } from '../agent/types.js';
import { CallLog, recordingDevice, recordingLlm } from '../compose/call-log.js';
import { Deadline, RealClock } from '../core/clock.js';
import { ActionableError, errorMessage } from '../core/errors.js';
import { Logger } from '../core/logger.js';
import { AdbDevice } from '../device/adb/device.js';
import { BridgeDevice } from '../device/bridge/device.js';
import type { Device } from '../device/device.js';
import { createLlmClient, type LlmClient } from '../planner/llm/client.js';
import { resolveLlmConfig } from '../planner/llm/config.js';
import { PageMemory } from '../planner/memory/page-memory.js';
import { Planner } from '../planner/planner.js';
import { loadPageMemory, savePageMemory } from '../store/page-memory-file.js';
import { RunArchive } from '../store/run-archive.js';
import { startReferenceModel } from '../testbed/reference-model/server.js';
import { startBridgeServer } from '../testbed/sim/bridge/index.js';
import { VirtualPhone } from '../testbed/sim/phone.js';
import { confirmer, type YesFlag } from './consent.js';
import { modelWaitTicker, progress } from './print.js';
import { loadCatalog } from './reference-catalog.js';

/**
 * What `run` and `resume` share: connecting a device (the built-in virtual phone, a helper bridge
 * URL, or an adb serial), starting the model, and building the agent's dependencies.
 */

/** Exit codes: scripts can tell "done" from "needs a person" from "cannot be done". */
export const EXIT: Record<RunStatus, number> = {
  done: 0,
  dry_run: 0,
  failed: 1,
  budget: 1,
  needs_confirmation: 3,
  ask_user: 3,
  infeasible: 4,
};
export const EXIT_USAGE = 2;

export interface AgentFlags {
  device: string;
  /** Bridge token for `--device http://…` (else ANDROID_BRIDGE_TOKEN). */
  token?: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  /** `--yes` (every kind) or `--yes send,delete` (those kinds), see ./consent.ts. */
  yes?: YesFlag;
  deny?: boolean;
  json?: boolean;
  runsDir: string;
  memory: string;
  seed: string;
  locale: string;
  adbHost: string;
  adbPort: string;
  verbose?: boolean;
}

/** The flags worth keeping in the checkpoint so `resume` reconnects the same way (no secrets). */
export function launchRecord(f: AgentFlags): Record<string, string> {
  const out: Record<string, string> = { device: f.device, seed: f.seed, locale: f.locale };
  for (const k of ['model', 'baseUrl', 'preset', 'adbHost', 'adbPort'] as const) {
    const v = f[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

async function connectBridge(url: string, token: string, clock: RealClock, logger: Logger): Promise<BridgeDevice> {
  const bridge = new BridgeDevice({ url, token, clock, logger: logger.child('device') });
  const c = await bridge.connect(Deadline.after(clock, 10_000));
  if (!c.ok)
    throw new ActionableError(
      'DEVICE',
      `the helper bridge at ${url} did not answer: ${c.message}`,
      'check that the helper (or `phone-agent sim`) is running and the token is right',
    );
  return bridge;
}

async function connectDevice(flags: AgentFlags, clock: RealClock, logger: Logger) {
  const closers: (() => Promise<void>)[] = [];
  let device: Device;
  if (flags.device === 'sim') {
    const phone = new VirtualPhone({ clock, seed: Number(flags.seed), locale: flags.locale === 'zh' ? 'zh' : 'en' });
    const server = await startBridgeServer({ phone, logger: logger.child('bridge') });
    closers.push(() => server.close());
    device = await connectBridge(server.url, server.token, clock, logger);
  } else if (/^https?:\/\//.test(flags.device)) {
    const token = flags.token ?? process.env.ANDROID_BRIDGE_TOKEN;
    if (!token)
      throw new ActionableError(
        'USAGE',
        `--device ${flags.device} is a helper bridge, which needs its token`,
        'pass --token T or set ANDROID_BRIDGE_TOKEN',
      );
    device = await connectBridge(flags.device, token, clock, logger);
  } else {
    const adb = new AdbDevice({
      serial: flags.device,
      host: flags.adbHost,
      port: Number(flags.adbPort),
      clock,
      logger: logger.child('device'),
    });
    const c = await adb.connect(Deadline.after(clock, 15_000));
    if (!c.ok)
      throw new ActionableError(
        'DEVICE',
        `cannot reach ${flags.device} over adb: ${c.message}`,
        // The adb backend's message may already say to check `adb devices`: say it once.
        c.message.includes('adb devices')
          ? 'or use --device sim for the built-in virtual phone'
          : 'check `adb devices`, or use --device sim',
      );
    device = adb;
  }
  closers.push(() => device.close());
  return { device, close: async () => void (await Promise.all(closers.reverse().map((c) => c()))) };
}

export interface Composed {
  deps: AgentDeps;
  /** Persist what the run learned (page memory) — call after the run. */
  saveMemory: () => Promise<void>;
  close: () => Promise<void>;
}

export interface ComposeOptions {
  /** Record the model's and the device's calls into this run folder (`steps/NNN.calls.jsonl`). */
  runDir?: string;
  /** The step the first recorded call belongs to (0 = planning of a new run). */
  firstStep?: number;
}

/** Model + device + ports + planner, ready for runAgent / resumeAgent. */
export async function composeAgent(flags: AgentFlags, opts: ComposeOptions = {}): Promise<Composed> {
  const clock = new RealClock();
  const logger = new Logger('agent', { level: flags.verbose ? 'info' : 'warn' });
  const interactive = !!process.stdin.isTTY && !flags.json;
  const tty = !!process.stderr.isTTY;
  const say = (line: string) => {
    if (!flags.json) process.stderr.write(`${line}\n`);
  };
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    let baseUrl = flags.baseUrl;
    let model = flags.model;
    if (flags.model === 'reference') {
      const ref = await startReferenceModel({ catalog: await loadCatalog(), noise: 0 });
      closers.push(() => ref.close());
      baseUrl = ref.url;
      model = 'reference';
    }
    // Throws an ActionableError naming OPENAI_BASE_URL / PHONE_AGENT_MODEL when nothing is configured.
    const config = resolveLlmConfig({ baseUrl, model, preset: flags.preset }, process.env);
    const { device: connected, close: closeDevice } = await connectDevice(flags, clock, logger);
    closers.push(closeDevice);
    const secrets = [config.apiKey, flags.token, process.env.ANDROID_BRIDGE_TOKEN].filter((v): v is string => !!v);
    const calls = opts.runDir ? new CallLog(new RunArchive(opts.runDir, { secrets }), opts.firstStep) : undefined;
    if (calls) closers.push(() => calls.flush());
    const device = calls ? recordingDevice(connected, calls) : connected;
    const memoryFile = path.resolve(flags.memory);
    const memory = new PageMemory(await loadPageMemory(memoryFile));
    const ports = createDevicePorts({
      device,
      clock,
      logger: logger.child('executor'),
      screenshots: true,
      confirm: confirmer(flags, interactive, say),
    });
    const llm = explainFailures(
      createLlmClient({ config, clock, logger: logger.child('llm') }),
      modelWaitTicker(tty && !flags.json),
    );
    const planner = new Planner({
      llm: calls ? recordingLlm(llm, calls) : llm,
      logger: logger.child('planner'),
    });
    const deps: AgentDeps = {
      ports,
      planner,
      memory,
      clock,
      logger,
      onEvent: chain(calls, progress(!!flags.json, tty)),
    };
    return { deps, saveMemory: () => savePageMemory(memoryFile, memory.toJSON()), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * A model call that throws (after the client's retries) becomes an error that names the endpoint and
 * what to do; an error that already says what to do (ActionableError) passes unchanged.
 */
function explainFailures(llm: LlmClient, waiting: () => () => void): LlmClient {
  return {
    config: llm.config,
    async infer(req) {
      const done = waiting();
      try {
        return await llm.infer(req);
      } catch (e) {
        if (e instanceof ActionableError) throw e;
        throw new ActionableError(
          'MODEL_UNREACHABLE',
          `the model endpoint ${llm.config.baseURL} (model ${llm.config.model}) failed: ${errorMessage(e)}`,
          'check that the server is running and the URL is right (--base-url or OPENAI_BASE_URL), or try --model reference',
          { cause: e },
        );
      } finally {
        done();
      }
    },
  };
}

function chain(calls: CallLog | undefined, print: (e: AgentEvent) => void): (e: AgentEvent) => void {
  return calls
    ? (e) => {
        calls.onEvent(e);
        print(e);
      }
    : print;
}
