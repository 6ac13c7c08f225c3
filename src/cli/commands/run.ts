import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { type AgentDeps, runAgent } from '../../agent/loop.js';
import { maskSecrets } from '../../agent/secrets.js';
import { DEFAULT_CONFIG_FILE, loadTaskSettings } from '../../agent/task-settings.js';
import type { RunResult } from '../../agent/types.js';
import { ActionableError, CancelledError } from '../../core/errors.js';
import { parseRunMode } from '../../core/run-mode.js';
import type { StfLease } from '../../device/stf/lease.js';
import { deviceLockKey, lockDevice } from '../../store/device-lock.js';
import { newRunId } from '../../store/run-archive.js';
import { lockRun } from '../../store/run-lock.js';
import { writeRunStart } from '../../store/run-start.js';
import { type AgentFlags, composeFromFlags, EXIT, EXIT_NO_DEVICE, EXIT_USAGE, launchRecord } from '../compose.js';
import { parseYes } from '../consent.js';
import { isFarmDevice, reserveForCommand, stfOptions } from '../farm.js';
import { cliCommand } from '../invocation.js';
import { printResult } from '../print.js';
import { adbServerFlags } from '../probe.js';
import { unknownToReference } from '../unknown-goal.js';

/**
 * `phone-agent run "<task>"`: one sentence in, a finished task (or an honest "can't") out. With no
 * device it drives the built-in virtual phone through its bridge server — the same protocol a real
 * phone's helper speaks, so the agent cannot peek at the simulation.
 */

export { EXIT } from '../compose.js';

interface RunFlags extends AgentFlags {
  maxSteps: string;
  dryRun?: boolean;
  deadline?: string;
  mode?: string;
  config?: string;
}

/** A whole number ≥ `min` from a flag, or an error naming the flag, the value and an example. */
export function wholeNumber(flag: string, value: string, min: number, example: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min)
    throw new ActionableError(
      'USAGE',
      `${flag} "${value}" is not a whole number ≥ ${min}`,
      `pass e.g. ${flag} ${example}`,
    );
  return n;
}

export async function runCommand(task: string, flags: RunFlags): Promise<number> {
  if (!task.trim())
    throw new ActionableError(
      'USAGE',
      'run needs a task',
      `e.g. ${cliCommand()} run "Turn Wi-Fi off" --model reference`,
    );
  const maxSteps = wholeNumber('--max-steps', flags.maxSteps, 1, 30);
  const deadlineMs =
    flags.deadline === undefined ? undefined : wholeNumber('--deadline', flags.deadline, 1, 300) * 1000;
  const mode = parseRunMode(flags.mode, '--mode');
  const settings = await loadTaskSettings(flags.config);
  if (flags.model === 'reference') {
    const unknown = await unknownToReference(task, cliCommand());
    if (unknown) {
      if (flags.json) process.stdout.write(`${JSON.stringify(unknown, null, 2)}\n`);
      else process.stderr.write(`phone-agent run: ${unknown.message}\n`);
      return EXIT_USAGE;
    }
  }
  const runsDir = path.resolve(flags.runsDir);
  const runId = newRunId(Date.now());
  const runDir = path.join(runsDir, runId);
  // The launch record names the device as driven: a farm's `stf:any` is the serial it reserved.
  const start = (f: AgentFlags) => ({
    version: 1 as const,
    runId,
    goal: maskSecrets(task).goal,
    maxSteps,
    dryRun: flags.dryRun,
    launch: launchRecord(f),
    mode,
    settings,
  });
  return drive(
    flags,
    runDir,
    (deps, f, signal) =>
      runAgent(deps, {
        goal: task,
        maxSteps,
        runsDir,
        runId,
        dryRun: flags.dryRun,
        launch: launchRecord(f),
        mode,
        settings,
        signal,
        deadlineMs,
      }),
    { firstStep: 0, fresh: true, prepare: (f) => writeRunStart(runDir, start(f)) },
  );
}

/** What a command runs on the composed agent; `signal` is Ctrl-C (the run ends resumable). */
export type RunBody = (deps: AgentDeps, flags: AgentFlags, signal: AbortSignal) => Promise<RunResult>;

export interface DriveOptions {
  /** The first step this process runs (0 for a new run): the calls log numbers steps from it. */
  firstStep: number;
  /** A new run: a folder left with no step (setup failed, broke while planning) is removed. */
  fresh?: boolean;
  /** Done once the folder is locked, before the device and model are up (run: the start record). */
  prepare?: (flags: AgentFlags) => Promise<void>;
}

/**
 * Compose the agent on the device and run `body` (see driveOn). A farm device (`stf:SERIAL`,
 * `stf:any`) is reserved first and given back on every way out this process sees; its lease gives it
 * back when the process is SIGKILLed.
 */
export async function drive(flags: AgentFlags, runDir: string, body: RunBody, opts: DriveOptions): Promise<number> {
  if (!isFarmDevice(flags.device)) return driveOn(flags, runDir, body, opts, async () => {});
  // A signal while the device is being reserved gives it back as soon as it is ours.
  let lease: StfLease | undefined;
  let stopped: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopped = signal;
    if (lease) void lease.release().finally(() => process.exit(exitOnSignal(signal)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    lease = await reserveForCommand(flags.device, flags);
    if (stopped) {
      await lease.release();
      process.stderr.write(`\ninterrupted before the run started; ${lease.serial} is given back\n`);
      process.exit(exitOnSignal(stopped));
    }
    if (!flags.json)
      process.stderr.write(
        `reserved ${lease.serial} from the STF farm (remote adb ${lease.adbSerial}); it is given back when this run ends\n`,
      );
    const f = { ...flags, device: `stf:${lease.serial}`, farm: { serial: lease.serial, adbSerial: lease.adbSerial } };
    const held = lease;
    return await driveOn(f, runDir, body, opts, () => held.release());
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await lease?.release();
  }
}

const HARD_STOP_MS = 3_000;
const exitOnSignal = (signal: NodeJS.Signals) => (signal === 'SIGTERM' ? 143 : 130);

/**
 * Compose the agent, run `body`, save what it learned and print the result. Ctrl-C (or SIGTERM)
 * cancels the run: it stops whatever it waits on (the model, the phone) and saves its checkpoint as
 * `interrupted`; this says how to pick the run up, after freeing the locks and `release` (a farm's
 * device).
 */
async function driveOn(
  flags: AgentFlags,
  runDir: string,
  body: RunBody,
  opts: DriveOptions,
  release: () => Promise<void>,
): Promise<number> {
  const firstStep = opts.firstStep;
  // The device first: a second driver (an MCP server, another run) gets BUSY before any run lock.
  const device = await lockDevice(deviceLockKey(flags.device), {
    command: `phone-agent ${process.argv[2] ?? 'run'} ${path.basename(runDir)}`,
  });
  const unlockRun = await lockRun(runDir).catch(async (e: unknown) => {
    await device.release();
    throw e;
  });
  const unlock = async () => {
    await unlockRun();
    await device.release();
  };
  const agent = await (async () => {
    await opts.prepare?.(flags);
    return composeFromFlags(flags, { runDir, firstStep });
  })().catch(async (e: unknown) => {
    await unlock();
    // A new run whose setup failed (no device, no model) leaves no folder behind; a resumed run's
    // folder is never touched.
    if (opts.fresh) await discardIfNoSteps(runDir);
    throw e;
  });
  const cancel = new AbortController();
  let stopped: NodeJS.Signals | undefined;
  const interrupted = (signal: NodeJS.Signals) => {
    stopped = signal;
    process.stderr.write(`\ninterrupted — continue with: ${cliCommand()} resume ${runDir}\n`);
    cancel.abort(new CancelledError(`stopped by ${signal}`));
    // The run ends within a second with its checkpoint saved; should something below not let go,
    // leave anyway (the checkpoint of the last step is there to resume from).
    setTimeout(() => {
      void unlock()
        .then(release)
        .finally(() => process.exit(exitOnSignal(signal)));
    }, HARD_STOP_MS).unref();
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let failed = false;
  try {
    const result = await body(agent.deps, flags, cancel.signal);
    await agent.saveMemory();
    printResult(result, !!flags.json);
    return EXIT[result.status];
  } catch (e) {
    failed = true;
    if (!stopped) throw e;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await agent.close();
    await unlock();
    // A new run that broke before its first step (the model unreachable while planning) did
    // nothing on the phone: its folder would only be a husk to trip over.
    if (failed && opts.fresh) await discardIfNoSteps(runDir);
  }
  await release();
  process.exit(exitOnSignal(stopped ?? 'SIGINT'));
}

async function discardIfNoSteps(runDir: string): Promise<void> {
  const steps = await readdir(path.join(runDir, 'steps')).catch(() => [] as string[]);
  if (!steps.some((n) => /^\d{3,}\.json$/.test(n))) await rm(runDir, { recursive: true, force: true });
}

/** Device, model and confirmation options shared by `run` and `resume`. */
export function agentOptions(cmd: Command, defaults: boolean): Command {
  const d = (v: string) => (defaults ? v : undefined);
  return adbServerFlags(stfOptions(cmd), d)
    .option(
      '--device <sim|URL|SERIAL|stf:SERIAL|stf:any>',
      'sim (built-in virtual phone), a helper bridge URL, an adb serial, or a device of an STF farm (--stf-url)',
      d('sim'),
    )
    .option('--token <token>', 'helper bridge token for --device http://… or --helper (env ANDROID_BRIDGE_TOKEN)')
    .option(
      '--helper <url>',
      'with --device SERIAL: a helper bridge to prefer, adb as the fallback (logged per receipt)',
    )
    .option('--model <name>', 'model name, or "reference" for the built-in reference model (env PHONE_AGENT_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .option(
      '--vision',
      'the model reads images: screenshots on visual-first screens, and `look` (env PHONE_AGENT_VISION=1)',
    )
    .option('--no-vision', 'the model reads no images: never send screenshots, never offer `look`')
    .option(
      '--image-format <png|jpeg>',
      'how screenshots are encoded for the model (default jpeg; env PHONE_AGENT_IMAGE_FORMAT)',
    )
    .option(
      '--yes [kinds]',
      'approve guarded actions without asking: all, or only some kinds (--yes send,delete; kinds: payment, send, delete, account)',
    )
    .option('--deny', 'deny every guarded action')
    .option('--json', 'print the run result as JSON on stdout')
    .option('--runs-dir <dir>', 'where run folders go', 'runs')
    .option('--memory <file>', 'page memory file (verified replay cache)', '.phone-agent/page-memory.json')
    .option(
      '--knowledge <file>',
      'an app map Explore wrote (DIR/knowledge.json), instead of the knowledge store: each step gains the lines of the page it is on; repeatable',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--no-knowledge', 'no app knowledge at all (neither --knowledge files nor the knowledge store)')
    .option(
      '--knowledge-dir <dir>',
      'the knowledge store explore writes into and runs read the front app from (env PHONE_AGENT_KNOWLEDGE_DIR, else .phone-agent/knowledge)',
    )
    .option('--seed <n>', 'virtual phone seed', d('1'))
    .option('--locale <en|zh>', 'virtual phone language', d('en'))
    .option('--verbose', 'log every step to stderr');
}

/**
 * Run a command body with the CLI's conventions: --yes and --deny exclude each other, and
 * actionable errors exit 2 with their hint.
 */
export async function exitWith(
  name: string,
  flags: { yes?: boolean | string; deny?: boolean },
  body: () => Promise<number>,
): Promise<void> {
  if (flags.yes && flags.deny) {
    process.stderr.write(`phone-agent ${name}: --yes and --deny exclude each other\n`);
    process.exit(EXIT_USAGE);
  }
  try {
    parseYes(flags.yes);
    process.exitCode = await body();
  } catch (e) {
    if (e instanceof ActionableError) {
      process.stderr.write(`phone-agent ${name}: ${e.message}\n`);
      process.exit(e.code === 'NO_DEVICE' ? EXIT_NO_DEVICE : EXIT_USAGE);
    }
    throw e;
  }
}

export function register(program: Command): void {
  agentOptions(
    program
      .command('run')
      .description('Run a natural-language task on a phone (default: the built-in virtual phone)')
      .argument('<task>', 'what to do, e.g. "Turn Wi-Fi off" or "把屏幕亮度调到最低"')
      .option('--max-steps <n>', 'step budget', '30')
      .option('--dry-run', 'plan and decide, but dispatch nothing that changes the phone')
      .option(
        '--mode <flash|pro>',
        'flash: short familiar tasks, fewer model calls (hands over to pro when unsure); pro: plan, then verified steps',
        'pro',
      )
      .option(
        '--config <file>',
        `task settings (JSON; default ./${DEFAULT_CONFIG_FILE} when present): pro.execution.max_burst_actions`,
      )
      .option('--deadline <seconds>', 'stop the run (resumable) once it has taken this long'),
    true,
  ).action((task: string, flags: RunFlags) => exitWith('run', flags, () => runCommand(task, flags)));
}
