import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { ActionableError } from '../../core/errors.js';
import { writeIndex, writeReport } from '../../report/index.js';

/**
 * `phone-agent report <run>`: a run folder (or a run id under --runs-dir) as one HTML page —
 * timeline, screenshots with the touch drawn, decisions, expectations and outcomes (DESIGN §6).
 */

export interface ReportFlags {
  runsDir: string;
  out?: string;
  inline?: boolean;
  index?: boolean;
}

/** A path to a folder wins; otherwise the argument is a run id under `runsDir`. */
export async function resolveRunDir(run: string, runsDir: string): Promise<string> {
  const isDir = async (p: string) => (await stat(p).catch(() => undefined))?.isDirectory() ?? false;
  if (await isDir(run)) return path.resolve(run);
  const byId = path.resolve(runsDir, run);
  if (await isDir(byId)) return byId;
  const known = await latestRuns(path.resolve(runsDir), 5);
  throw new ActionableError(
    'NO_RUN',
    `no run folder at ${[...new Set([path.resolve(run), byId])].join(' nor ')}`,
    known.length
      ? `pass a run folder or one of the latest run ids in ${path.resolve(runsDir)}: ${known.join(', ')}`
      : `pass the run folder \`phone-agent run\` printed, or set --runs-dir to where the runs are`,
  );
}

/** Run folders (those with a checkpoint) under `runsDir`, most recently updated first. */
async function latestRuns(runsDir: string, max: number): Promise<string[]> {
  const names = await readdir(runsDir).catch(() => [] as string[]);
  const runs = await Promise.all(
    names.map(async (name) => ({
      name,
      st: await stat(path.join(runsDir, name, 'checkpoint.json')).catch(() => undefined),
    })),
  );
  return runs
    .flatMap((r) => (r.st ? [{ name: r.name, at: r.st.mtimeMs }] : []))
    .sort((a, b) => b.at - a.at)
    .slice(0, max)
    .map((r) => r.name);
}

/** Writes the report (or, with --index, the page of all runs) and prints its path; returns the exit code. */
export async function reportCommand(run: string | undefined, flags: ReportFlags): Promise<number> {
  if (flags.index) {
    const root = path.resolve(run ?? flags.runsDir);
    if (!(await stat(root).catch(() => undefined))?.isDirectory())
      throw new ActionableError(
        'NO_RUNS',
        `${root} is not a folder`,
        'pass the runs folder (default: runs) or a suite output folder',
      );
    const r = await writeIndex(root);
    process.stdout.write(`${r.path} (${r.runs.length} run${r.runs.length === 1 ? '' : 's'})\n`);
    return 0;
  }
  if (run === undefined)
    throw new ActionableError(
      'USAGE',
      'report needs a run folder or a run id',
      'e.g. phone-agent report runs/<id>, or --index for all runs',
    );
  const dir = await resolveRunDir(run, flags.runsDir);
  const r = await writeReport(dir, { out: flags.out, inline: !!flags.inline, now: Date.now() });
  process.stdout.write(`${r.path}\n`);
  return 0;
}

export function register(program: Command): void {
  program
    .command('report')
    .description('Render a run folder as one HTML page (timeline, screenshots with the touch drawn, outcomes)')
    .argument('[run]', 'a run folder (runs/<id>) or a run id; with --index, the folder of runs')
    .option('--runs-dir <dir>', 'where run ids are looked up', 'runs')
    .option('--out <file>', 'where to write the page (default: <run>/report.html)')
    .option('--inline', 'embed the screenshots as small JPEGs (one file to share)')
    .option('--index', 'write <runs dir>/index.html: every run, newest first, linked to its report')
    .action(async (run: string | undefined, flags: ReportFlags) => {
      try {
        process.exitCode = await reportCommand(run, flags);
      } catch (e) {
        if (e instanceof ActionableError) {
          process.stderr.write(`phone-agent report: ${e.message}\n`);
          process.exit(2);
        }
        throw e;
      }
    });
}
