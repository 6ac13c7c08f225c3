import path from 'node:path';
import type { AgentEvent, RunStatus } from '../agent/types.js';
import { type Composed, composeAgent } from '../compose/agent.js';
import { CallLog, recordingDevice, recordingLlm } from '../compose/call-log.js';
import type { DeviceSpec } from '../compose/device.js';
import type { StfFlags } from '../compose/pool/stf-pool.js';
import { RealClock } from '../core/clock.js';
import { ActionableError, CancelledError, errorMessage } from '../core/errors.js';
import { Logger } from '../core/logger.js';
import type { LlmClient } from '../planner/llm/client.js';
import { knowledgeDir } from '../store/knowledge-store.js';
import { RunArchive } from '../store/run-archive.js';
import { consentChannel, type YesFlag } from './consent.js';
import { modelWaitTicker, progress } from './print.js';

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
/** No device to be had: an STF farm with none free that matches (try again later). */
export const EXIT_NO_DEVICE = 5;

export interface AgentFlags extends StfFlags {
  device: string;
  /** Bridge token for `--device http://…` or `--helper` (else ANDROID_BRIDGE_TOKEN). */
  token?: string;
  /** A helper bridge in front of an adb serial: preferred, with adb as the fallback. */
  helper?: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  /** The model reads images (else the preset's, else PHONE_AGENT_VISION, else no). */
  vision?: boolean;
  /** png | jpeg: how screenshots are encoded for the model (else PHONE_AGENT_IMAGE_FORMAT, the preset's, jpeg). */
  imageFormat?: string;
  /** `--yes` (every kind) or `--yes send,delete` (those kinds), see ./consent.ts. */
  yes?: YesFlag;
  deny?: boolean;
  json?: boolean;
  runsDir: string;
  memory: string;
  /** Knowledge files Explore wrote (`--knowledge FILE`, repeatable); false: `--no-knowledge`. */
  knowledge?: string[] | false;
  /** The knowledge store (`--knowledge-dir`), used when no file is given. */
  knowledgeDir?: string;
  seed: string;
  locale: string;
  adbHost: string;
  adbPort: string;
  verbose?: boolean;
  /** `--device stf:SERIAL` once reserved: its remote ADB endpoint (cli/farm.ts). */
  farm?: { serial: string; adbSerial: string };
}

/** Which app knowledge a run reads: none, the files given, or the knowledge store (the default). */
export type KnowledgeUse = { kind: 'off' } | { kind: 'files'; files: string[] } | { kind: 'store'; dir: string };

export function knowledgeUse(f: Pick<AgentFlags, 'knowledge' | 'knowledgeDir'>): KnowledgeUse {
  const k = f.knowledge;
  if (k === false) return { kind: 'off' };
  if (k?.length) return { kind: 'files', files: k.map((x) => path.resolve(x)) };
  return { kind: 'store', dir: knowledgeDir(f.knowledgeDir) };
}

/**
 * The knowledge in use as the checkpoint's launch record keeps it (its values are strings):
 * `knowledge: "off"`, `knowledge: '["/abs/k.json"]'` (the files, resolved), or `knowledgeDir`.
 */
export type KnowledgeRecord = { knowledge: 'off' } | { knowledge: string } | { knowledgeDir: string };

export function knowledgeRecord(use: KnowledgeUse): KnowledgeRecord {
  if (use.kind === 'off') return { knowledge: 'off' };
  return use.kind === 'files' ? { knowledge: JSON.stringify(use.files) } : { knowledgeDir: use.dir };
}

/** A launch record's knowledge back as the flags that chose it (`resume` merges the record under its own flags). */
export function knowledgeFlagsOf(
  rec: Readonly<Record<string, string>>,
): Pick<AgentFlags, 'knowledge' | 'knowledgeDir'> {
  if (rec.knowledge === 'off') return { knowledge: false };
  if (rec.knowledge?.startsWith('[')) return { knowledge: JSON.parse(rec.knowledge) as string[] };
  return rec.knowledgeDir ? { knowledgeDir: rec.knowledgeDir } : {};
}

/** The flags worth keeping in the checkpoint so `resume` reconnects the same way (no secrets). */
export function launchRecord(f: AgentFlags): Record<string, string> {
  const out: Record<string, string> = { device: f.device, seed: f.seed, locale: f.locale };
  for (const k of ['model', 'baseUrl', 'preset', 'adbHost', 'adbPort', 'helper', 'stfUrl'] as const) {
    const v = f[k];
    if (v !== undefined) out[k] = v;
  }
  // The knowledge in use, so a resumed run reads the same (not whatever the defaults say then).
  return { ...out, ...knowledgeRecord(knowledgeUse(f)) };
}

/** A knowledge use as the factory's spec fields. */
export function knowledgeSpec(use: KnowledgeUse): { knowledge?: string[]; knowledgeStore?: string } {
  return use.kind === 'files' ? { knowledge: use.files } : use.kind === 'store' ? { knowledgeStore: use.dir } : {};
}

/** --device sim | URL | SERIAL (with --helper URL: the helper first, adb as fallback). */
export function deviceSpec(flags: AgentFlags): DeviceSpec {
  if (flags.device === 'sim')
    return { kind: 'sim', seed: Number(flags.seed), locale: flags.locale === 'zh' ? 'zh' : 'en' };
  const token = () => {
    const t = flags.token ?? process.env.ANDROID_BRIDGE_TOKEN;
    if (!t)
      throw new ActionableError(
        'USAGE',
        `${flags.helper ? `--helper ${flags.helper}` : `--device ${flags.device}`} is a helper bridge, which needs its token`,
        'pass --token T or set ANDROID_BRIDGE_TOKEN',
      );
    return t;
  };
  if (/^https?:\/\//.test(flags.device)) return { kind: 'bridge', url: flags.device, token: token() };
  if (flags.device.startsWith('stf:') && !flags.farm)
    throw new ActionableError(
      'USAGE',
      `--device ${flags.device} is a farm device, reserved by the command that drives it`,
      'use it with run, resume or mcp, which reserve it first',
    );
  return {
    kind: 'adb',
    // A farm device is driven over the remote ADB endpoint the farm opened for this reservation.
    serial: flags.farm?.adbSerial ?? flags.device,
    host: flags.adbHost,
    port: Number(flags.adbPort),
    helper: flags.helper ? { url: flags.helper, token: token() } : undefined,
  };
}

export type { Composed } from '../compose/agent.js';

export interface ComposeOptions {
  /** Record the model's and the device's calls into this run folder (`steps/NNN.calls.jsonl`). */
  runDir?: string;
  /** The step the first recorded call belongs to (0 = planning of a new run). */
  firstStep?: number;
}

/**
 * A model call that throws (after the client's retries) becomes an error that names the endpoint and
 * what to do; an error that already says what to do (ActionableError) passes unchanged. `waiting`
 * shows the elapsed time on a terminal while the model thinks.
 */
function explained(llm: LlmClient, waiting: () => () => void): LlmClient {
  return {
    config: llm.config,
    async infer(req) {
      const done = waiting();
      try {
        return await llm.infer(req);
      } catch (e) {
        if (e instanceof ActionableError || e instanceof CancelledError) throw e;
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

/** Model + device + ports + planner through the one factory, ready for runAgent / resumeAgent. */
export async function composeFromFlags(flags: AgentFlags, opts: ComposeOptions = {}): Promise<Composed> {
  const interactive = !!process.stdin.isTTY && !flags.json;
  const tty = !!process.stderr.isTTY && !flags.json;
  const say = (line: string) => {
    if (!flags.json) process.stderr.write(`${line}\n`);
  };
  const secrets = [flags.token, process.env.ANDROID_BRIDGE_TOKEN, process.env.OPENAI_API_KEY].filter(
    (v): v is string => !!v,
  );
  const calls = opts.runDir ? new CallLog(new RunArchive(opts.runDir, { secrets }), opts.firstStep) : undefined;
  const print = progress(!!flags.json, tty);
  const composed = await composeAgent({
    device: deviceSpec(flags),
    model: {
      model: flags.model,
      baseUrl: flags.baseUrl,
      preset: flags.preset,
      vision: flags.vision,
      imageFormat: flags.imageFormat,
    },
    confirm: consentChannel(flags, interactive, say),
    memory: { file: flags.memory },
    ...knowledgeSpec(knowledgeUse(flags)),
    clock: new RealClock(),
    logger: new Logger('agent', { level: flags.verbose ? 'info' : 'warn' }),
    decorate: {
      llm: (llm) => {
        const e = explained(llm, modelWaitTicker(tty));
        return calls ? recordingLlm(e, calls) : e;
      },
      device: (d) => (calls ? recordingDevice(d, calls) : d),
    },
    onEvent: (e: AgentEvent) => {
      calls?.onEvent(e);
      print(e);
    },
  });
  return calls
    ? {
        ...composed,
        close: async () => {
          await calls.flush();
          await composed.close();
        },
      }
    : composed;
}
