import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { createDevicePorts } from '../../agent/device-ports.js';
import { runAgent } from '../../agent/loop.js';
import type { ConfirmVerdict, GuardCheck } from '../../agent/ports.js';
import type { AgentEvent, RunResult, RunStatus } from '../../agent/types.js';
import { Deadline, RealClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { AdbDevice } from '../../device/adb/device.js';
import { BridgeDevice } from '../../device/bridge/device.js';
import type { Device } from '../../device/device.js';
import { createLlmClient } from '../../planner/llm/client.js';
import { resolveLlmConfig } from '../../planner/llm/config.js';
import { PageMemory } from '../../planner/memory/page-memory.js';
import { Planner } from '../../planner/planner.js';
import type { CatalogEntry } from '../../planner/reference/intents.js';
import { startReferenceModel } from '../../planner/reference/server.js';
import { startBridgeServer } from '../../sim/bridge/index.js';
import { VirtualPhone } from '../../sim/phone.js';
import { loadPageMemory, savePageMemory } from '../../store/page-memory-file.js';

/**
 * `phone-agent run "<task>"`: one sentence in, a finished task (or an honest "can't") out. With no
 * device it drives the built-in virtual phone through its bridge server — the same protocol a real
 * phone's helper speaks, so the agent cannot peek at the simulation.
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
const EXIT_USAGE = 2;

interface RunFlags {
  device: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  maxSteps: string;
  dryRun?: boolean;
  yes?: boolean;
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

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The built-in tasks' reference intents live with the regression tasks (source checkout only). */
async function builtinCatalog(): Promise<CatalogEntry[]> {
  const file = path.join(repoRoot, 'regression-tasks', 'index.ts');
  try {
    const mod = (await import(pathToFileURL(file).href)) as { referenceCatalog: () => CatalogEntry[] };
    return mod.referenceCatalog();
  } catch (e) {
    throw new ActionableError(
      'NO_CATALOG',
      `the reference model needs the task catalog at ${file} (${(e as Error).message})`,
      'run from a source checkout with `npm run phone-agent -- run …`, or configure a real model (OPENAI_BASE_URL, PHONE_AGENT_MODEL)',
    );
  }
}

function confirmer(flags: RunFlags, interactive: boolean): (c: GuardCheck) => Promise<ConfirmVerdict> {
  if (flags.yes) return async () => 'approved';
  if (flags.deny) return async () => 'denied';
  if (!interactive) return async () => 'deferred';
  return async (c) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const a = await rl.question(
        `\nConfirm ${c.categories.join('/')}: ${c.summary}\n  because ${c.reasons.join('; ')}\n  Proceed? [y/N] `,
      );
      return /^(y|yes|是|确认)$/i.test(a.trim()) ? 'approved' : 'denied';
    } finally {
      rl.close();
    }
  };
}

function progress(json: boolean, tty: boolean): (e: AgentEvent) => void {
  if (json) return () => {};
  const out = (s: string) => process.stderr.write(s);
  return (e) => {
    if (e.kind === 'plan') out(`plan${e.cached ? ' (from memory)' : ''}: ${e.subgoals.join(' → ')}\n`);
    else if (e.kind === 'step') {
      const s = e.summary;
      const line = `step ${s.step}/${e.max} · ${s.subgoal || '-'} · ${s.action || '(none)'} → ${s.ok ? 'ok' : 'failed'}${s.source === 'llm' ? '' : ` [${s.source}]`}${s.note ? ` (${s.note})` : ''}`;
      out(tty ? `\x1b[2K\r${s.ok ? '\x1b[32m✓\x1b[0m' : '\x1b[31m✗\x1b[0m'} ${line}\n` : `${line}\n`);
    }
  };
}

async function connectDevice(flags: RunFlags, clock: RealClock, logger: Logger) {
  const closers: (() => Promise<void>)[] = [];
  let device: Device;
  if (flags.device === 'sim') {
    const phone = new VirtualPhone({ clock, seed: Number(flags.seed), locale: flags.locale === 'zh' ? 'zh' : 'en' });
    const server = await startBridgeServer({ phone, logger: logger.child('bridge') });
    closers.push(() => server.close());
    const bridge = new BridgeDevice({ url: server.url, token: server.token, clock, logger: logger.child('device') });
    const c = await bridge.connect(Deadline.after(clock, 10_000));
    if (!c.ok)
      throw new ActionableError(
        'DEVICE',
        `the virtual phone's bridge did not answer: ${c.message}`,
        'retry; report a bug if it persists',
      );
    device = bridge;
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
        'check `adb devices`, or use --device sim',
      );
    device = adb;
  }
  closers.push(() => device.close());
  return { device, close: async () => void (await Promise.all(closers.reverse().map((c) => c()))) };
}

export async function runCommand(task: string, flags: RunFlags): Promise<number> {
  const clock = new RealClock();
  const logger = new Logger('agent', { level: flags.verbose ? 'info' : 'warn' });
  const interactive = !!process.stdin.isTTY && !flags.json;
  const maxSteps = Number(flags.maxSteps);
  if (!task.trim() || !Number.isInteger(maxSteps) || maxSteps < 1)
    throw new ActionableError(
      'USAGE',
      'run needs a task and a positive --max-steps',
      'e.g. phone-agent run "Turn Wi-Fi off"',
    );

  const closers: (() => Promise<void>)[] = [];
  try {
    let baseUrl = flags.baseUrl;
    let model = flags.model;
    if (flags.model === 'reference') {
      const ref = await startReferenceModel({ catalog: await builtinCatalog(), noise: 0 });
      closers.push(() => ref.close());
      baseUrl = ref.url;
      model = 'reference';
    }
    // Throws an ActionableError naming OPENAI_BASE_URL / PHONE_AGENT_MODEL when nothing is configured.
    const config = resolveLlmConfig({ baseUrl, model, preset: flags.preset }, process.env);
    const { device, close } = await connectDevice(flags, clock, logger);
    closers.push(close);

    const memoryFile = path.resolve(flags.memory);
    const memory = new PageMemory(await loadPageMemory(memoryFile));
    const ports = createDevicePorts({
      device,
      clock,
      logger: logger.child('executor'),
      screenshots: true,
      confirm: confirmer(flags, interactive),
    });
    const planner = new Planner({
      llm: createLlmClient({ config, clock, logger: logger.child('llm') }),
      logger: logger.child('planner'),
    });
    const result: RunResult = await runAgent(
      { ports, planner, memory, clock, logger, onEvent: progress(!!flags.json, !!process.stderr.isTTY) },
      { goal: task, maxSteps, runsDir: path.resolve(flags.runsDir), dryRun: flags.dryRun },
    );
    await savePageMemory(memoryFile, memory.toJSON());
    if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const what = result.answer ? `answer: ${result.answer}` : (result.reason ?? '');
      process.stdout.write(
        `${result.status}${what ? ` — ${what}` : ''}\n${result.steps} steps, ${result.llm.calls} LLM calls, ${result.llm.promptTokens} prompt tokens` +
          `${result.cacheHits ? `, ${result.cacheHits} replayed from memory` : ''}\nrun folder: ${result.runDir}\n`,
      );
    }
    return EXIT[result.status];
  } finally {
    for (const c of closers.reverse()) await c().catch(() => {});
  }
}

export function register(program: Command): void {
  program
    .command('run')
    .description('Run a natural-language task on a phone (default: the built-in virtual phone)')
    .argument('<task>', 'what to do, e.g. "Turn Wi-Fi off" or "把屏幕亮度调到最低"')
    .option('--device <sim|SERIAL>', 'sim (built-in virtual phone) or an adb serial', 'sim')
    .option('--model <name>', 'model name, or "reference" for the built-in reference model (env PHONE_AGENT_MODEL)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .option('--max-steps <n>', 'step budget', '30')
    .option('--dry-run', 'plan and decide, but dispatch nothing that changes the phone')
    .option('--yes', 'approve guarded actions (pay, send, delete, account) without asking')
    .option('--deny', 'deny every guarded action')
    .option('--json', 'print the run result as JSON on stdout')
    .option('--runs-dir <dir>', 'where run folders go', 'runs')
    .option('--memory <file>', 'page memory file (verified replay cache)', '.phone-agent/page-memory.json')
    .option('--seed <n>', 'virtual phone seed', '1')
    .option('--locale <en|zh>', 'virtual phone language', 'en')
    .option('--adb-host <host>', 'adb server host', '127.0.0.1')
    .option('--adb-port <port>', 'adb server port', '5037')
    .option('--verbose', 'log every step to stderr')
    .action(async (task: string, flags: RunFlags) => {
      if (flags.yes && flags.deny) {
        process.stderr.write('phone-agent run: --yes and --deny exclude each other\n');
        process.exit(EXIT_USAGE);
      }
      try {
        process.exitCode = await runCommand(task, flags);
      } catch (e) {
        if (e instanceof ActionableError) {
          process.stderr.write(`phone-agent run: ${e.message}\n`);
          process.exit(EXIT_USAGE);
        }
        throw e;
      }
    });
}
