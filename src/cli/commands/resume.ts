import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { runAgent } from '../../agent/loop.js';
import { resumeAgent } from '../../agent/resume.js';
import { maskSecrets } from '../../agent/secrets.js';
import { ActionableError } from '../../core/errors.js';
import { CheckpointStore } from '../../store/checkpoint.js';
import { type RunStart, readRunStart } from '../../store/run-start.js';
import { type AgentFlags, knowledgeFlagsOf } from '../compose.js';
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

/** A run folder path, or a run id under --runs-dir: one with a checkpoint, or only a start record. */
export async function findRunDir(run: string, runsDir: string): Promise<{ dir: string; start?: RunStart }> {
  const tried = [...new Set([path.resolve(run), path.resolve(runsDir, run)])];
  for (const dir of tried) {
    const s = await stat(path.join(dir, 'checkpoint.json')).catch(() => undefined);
    if (s?.isFile()) return { dir };
  }
  for (const dir of tried) {
    const start = await readRunStart(dir);
    if (start) return { dir, start };
  }
  throw new ActionableError(
    'NO_RUN',
    `no run folder with a checkpoint.json or start.json at ${tried.join(' or ')}`,
    `pass the folder \`${cliCommand()} run\` printed, or a run id with --runs-dir`,
  );
}

/** The task text for a run that never got its checkpoint: the stored goal, or --task when it held a credential. */
function startGoal(start: RunStart, task: string | undefined): string {
  if (task !== undefined) {
    if (maskSecrets(task).goal !== start.goal)
      throw new ActionableError('RESUME', '--task is not the task this run was started with', 'pass the original text');
    return task;
  }
  if (/⟨secret\d+⟩/.test(start.goal))
    throw new ActionableError(
      'RESUME',
      'this run was started with a credential in its task, which is never stored',
      'pass the original task text again with --task "…"',
    );
  return start.goal;
}

export async function resumeCommand(run: string, flags: ResumeFlags): Promise<number> {
  const more = flags.moreSteps === undefined ? 0 : wholeNumber('--more-steps', flags.moreSteps, 0, 10);
  const { dir: runDir, start } = await findRunDir(run, flags.runsDir);
  const cp = start ? undefined : (await CheckpointStore.load(runDir)).data;
  const launch = (start ? start.launch : cp?.launch) ?? {};
  // Explicit flags win; otherwise the run's own launch record; otherwise the defaults.
  const explicit = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const { knowledge: _k, knowledgeDir: _d, ...connect } = launch;
  const merged = { ...DEFAULTS, ...connect, ...knowledgeFlagsOf(launch), ...explicit } as AgentFlags;
  if (merged.device === 'sim' && !flags.json)
    process.stderr.write(
      'note: the built-in virtual phone starts afresh in this process; state from the interrupted process is gone\n',
    );
  if (start) {
    // Killed before its first checkpoint: no step ran, so the run starts again in its own folder.
    const goal = startGoal(start, flags.task);
    const opts = { goal, maxSteps: start.maxSteps + more, runsDir: path.dirname(runDir), runId: path.basename(runDir) };
    return drive(
      merged,
      runDir,
      (deps, _f, signal) =>
        runAgent(deps, {
          ...opts,
          dryRun: start.dryRun,
          launch: start.launch,
          mode: start.mode,
          settings: start.settings,
          signal,
        }),
      {
        firstStep: 0,
      },
    );
  }
  return drive(
    merged,
    runDir,
    (deps, _f, signal) => resumeAgent(deps, { runDir, goal: flags.task, extraSteps: more, signal }),
    {
      firstStep: (cp?.step ?? 0) + 1,
    },
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
