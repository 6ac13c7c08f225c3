import path from 'node:path';
import type { Command } from 'commander';
import { type AgentDeps, runAgent } from '../../agent/loop.js';
import type { RunResult } from '../../agent/types.js';
import { ActionableError } from '../../core/errors.js';
import { newRunId } from '../../store/run-archive.js';
import { lockRun } from '../../store/run-lock.js';
import { type AgentFlags, composeFromFlags, EXIT, EXIT_USAGE, launchRecord, printResult } from '../compose.js';

/**
 * `phone-agent run "<task>"`: one sentence in, a finished task (or an honest "can't") out. With no
 * device it drives the built-in virtual phone through its bridge server — the same protocol a real
 * phone's helper speaks, so the agent cannot peek at the simulation.
 */

export { EXIT } from '../compose.js';

interface RunFlags extends AgentFlags {
  maxSteps: string;
  dryRun?: boolean;
}

export async function runCommand(task: string, flags: RunFlags): Promise<number> {
  const maxSteps = Number(flags.maxSteps);
  if (!task.trim() || !Number.isInteger(maxSteps) || maxSteps < 1)
    throw new ActionableError(
      'USAGE',
      'run needs a task and a positive --max-steps',
      'e.g. phone-agent run "Turn Wi-Fi off"',
    );
  const runsDir = path.resolve(flags.runsDir);
  const runId = newRunId(Date.now());
  return drive(flags, path.join(runsDir, runId), (deps) =>
    runAgent(deps, { goal: task, maxSteps, runsDir, runId, dryRun: flags.dryRun, launch: launchRecord(flags) }),
  );
}

/**
 * Compose the agent, run `body`, save what it learned and print the result. Ctrl-C leaves a
 * resumable checkpoint (it is saved after every step), so it says how to pick the run up.
 */
export async function drive(
  flags: AgentFlags,
  runDir: string,
  body: (deps: AgentDeps) => Promise<RunResult>,
): Promise<number> {
  const unlock = await lockRun(runDir);
  const agent = await composeFromFlags(flags).catch(async (e: unknown) => {
    await unlock();
    throw e;
  });
  const interrupted = () => {
    process.stderr.write(`\ninterrupted — continue with: phone-agent resume ${runDir}\n`);
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    const result = await body(agent.deps);
    await agent.saveMemory();
    printResult(result, !!flags.json);
    return EXIT[result.status];
  } finally {
    process.off('SIGINT', interrupted);
    await agent.close();
    await unlock();
  }
}

/** Device, model and confirmation options shared by `run` and `resume`. */
export function agentOptions(cmd: Command, defaults: boolean): Command {
  const d = (v: string) => (defaults ? v : undefined);
  return cmd
    .option(
      '--device <sim|URL|SERIAL>',
      'sim (built-in virtual phone), a helper bridge URL, or an adb serial',
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
    .option('--yes', 'approve guarded actions (pay, send, delete, account) without asking')
    .option('--deny', 'deny every guarded action')
    .option('--json', 'print the run result as JSON on stdout')
    .option('--runs-dir <dir>', 'where run folders go', 'runs')
    .option('--memory <file>', 'page memory file (verified replay cache)', '.phone-agent/page-memory.json')
    .option('--seed <n>', 'virtual phone seed', d('1'))
    .option('--locale <en|zh>', 'virtual phone language', d('en'))
    .option('--adb-host <host>', 'adb server host', d('127.0.0.1'))
    .option('--adb-port <port>', 'adb server port', d('5037'))
    .option('--verbose', 'log every step to stderr');
}

/**
 * Run a command body with the CLI's conventions: --yes and --deny exclude each other, and
 * actionable errors exit 2 with their hint.
 */
export async function exitWith(
  name: string,
  flags: { yes?: boolean; deny?: boolean },
  body: () => Promise<number>,
): Promise<void> {
  if (flags.yes && flags.deny) {
    process.stderr.write(`phone-agent ${name}: --yes and --deny exclude each other\n`);
    process.exit(EXIT_USAGE);
  }
  try {
    process.exitCode = await body();
  } catch (e) {
    if (e instanceof ActionableError) {
      process.stderr.write(`phone-agent ${name}: ${e.message}\n`);
      process.exit(EXIT_USAGE);
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
      .option('--dry-run', 'plan and decide, but dispatch nothing that changes the phone'),
    true,
  ).action((task: string, flags: RunFlags) => exitWith('run', flags, () => runCommand(task, flags)));
}
