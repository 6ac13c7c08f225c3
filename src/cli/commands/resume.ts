import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { resumeAgent } from '../../agent/resume.js';
import { ActionableError } from '../../core/errors.js';
import { CheckpointStore } from '../../store/checkpoint.js';
import type { AgentFlags } from '../compose.js';
import { cliCommand } from '../invocation.js';
import { agentOptions, drive, exitWith, wholeNumber } from './run.js';

/**
 * `phone-agent resume <run>`: continue a run that was killed, paused for a confirmation, handed
 * to the user, or out of steps — on the device and model it was started with unless told otherwise.
 */

interface ResumeFlags extends Partial<AgentFlags> {
  runsDir: string;
  memory: string;
  task?: string;
  moreSteps?: string;
}

const DEFAULTS = {
  device: 'sim',
  seed: '1',
  locale: 'en',
  adbHost: '127.0.0.1',
  adbPort: process.env.ANDROID_ADB_SERVER_PORT ?? '5037',
};

/** A run folder path, or a run id under --runs-dir. */
export async function findRunDir(run: string, runsDir: string): Promise<string> {
  const tried = [...new Set([path.resolve(run), path.resolve(runsDir, run)])];
  for (const dir of tried) {
    const s = await stat(path.join(dir, 'checkpoint.json')).catch(() => undefined);
    if (s?.isFile()) return dir;
  }
  throw new ActionableError(
    'NO_RUN',
    `no run folder with a checkpoint.json at ${tried.join(' or ')}`,
    `pass the folder \`${cliCommand()} run\` printed, or a run id with --runs-dir`,
  );
}

export async function resumeCommand(run: string, flags: ResumeFlags): Promise<number> {
  const more = flags.moreSteps === undefined ? 0 : wholeNumber('--more-steps', flags.moreSteps, 0, 10);
  const runDir = await findRunDir(run, flags.runsDir);
  const cp = (await CheckpointStore.load(runDir)).data;
  const launch = cp.launch ?? {};
  // Explicit flags win; otherwise the run's own launch record; otherwise the defaults.
  const explicit = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const merged = { ...DEFAULTS, ...launch, ...explicit } as AgentFlags;
  if (merged.device === 'sim' && !flags.json)
    process.stderr.write(
      'note: the built-in virtual phone starts afresh in this process; state from the interrupted process is gone\n',
    );
  return drive(
    merged,
    runDir,
    (deps) => resumeAgent(deps, { runDir, goal: flags.task, extraSteps: more }),
    cp.step + 1,
  );
}

export function register(program: Command): void {
  agentOptions(
    program
      .command('resume')
      .description('Continue an interrupted, paused or out-of-steps run from its checkpoint')
      .argument('<run>', 'the run folder (runs/<id>) or a run id')
      .option('--task <text>', 'the original task text (needed only when it held a password)')
      .option('--more-steps <n>', 'steps granted beyond the run’s budget'),
    false,
  ).action((run: string, flags: ResumeFlags) => exitWith('resume', flags, () => resumeCommand(run, flags)));
}
