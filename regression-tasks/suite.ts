import path from 'node:path';
import { parseArgs } from 'node:util';
import { ActionableError } from '../src/core/errors.js';
import { TASKS } from './index.js';
import { REAL_APP_TASKS } from './real-apps/index.js';
import { parseSuiteArgs, SUITE_USAGE } from './suite-args.js';
import { renderSuiteMarkdown } from './suite-report.js';

/**
 * `npm run suite -- [flags]`: scores the agent on the regression tasks and prints the Markdown
 * summary. Exit 0 when the suite ran (scores are data, not a failure), 2 on usage errors or a pool
 * that cannot be opened, 3 when the model stopped answering (`--resume` goes on), 5 when a farm has
 * no free device.
 */
/** `--merge a/suite.json,b/suite.json --out DIR`: slices run side by side, as one report. */
async function merge(argv: readonly string[]): Promise<number> {
  let values: { merge?: string; out?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: { merge: { type: 'string' }, out: { type: 'string' } },
    }));
  } catch (e) {
    process.stderr.write(`suite: ${(e as Error).message} (with --merge, give only --out)\n${SUITE_USAGE}\n`);
    return 2;
  }
  if (!values.merge || !values.out) {
    process.stderr.write(`suite: --merge needs the slices' suite.json files and --out DIR\n${SUITE_USAGE}\n`);
    return 2;
  }
  const { mergeSuites, readSuites } = await import('./suite-merge.js');
  const { writeSuiteReport } = await import('./suite-runner.js');
  const outDir = path.resolve(values.out);
  try {
    const report = mergeSuites(await readSuites(values.merge.split(',').map((f) => f.trim())));
    await writeSuiteReport(report, outDir);
    process.stdout.write(`${renderSuiteMarkdown(report, outDir)}\nwrote ${outDir}/suite.json and suite.md\n`);
    return report.stopped ? 3 : 0;
  } catch (e) {
    if (!(e instanceof ActionableError)) throw e;
    process.stderr.write(`suite: ${e.message}\n`);
    return 2;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--merge')) return merge(argv);
  const parsed = parseSuiteArgs(argv, process.env, [...TASKS, ...REAL_APP_TASKS]);
  if (!parsed.ok) {
    if (parsed.help) {
      process.stdout.write(`${SUITE_USAGE}\n`);
      return 0;
    }
    process.stderr.write(`suite: ${parsed.message}\n${SUITE_USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  // Loaded only now, so a usage error answers without starting the agent's whole stack.
  const { runSuite } = await import('./suite-runner.js');
  const { openPool } = await import('../src/compose/pool/pool.js');
  let pool: Awaited<ReturnType<typeof openPool>>;
  try {
    pool = await openPool(args.devices, args.poolOptions);
  } catch (e) {
    // The pool could not be opened (a device that does not answer, a farm with none free): nothing ran.
    if (!(e instanceof ActionableError)) throw e;
    process.stderr.write(`suite: ${e.message}\n`);
    return e.code === 'NO_DEVICE' ? 5 : 2;
  }
  // Ctrl-C or SIGTERM: the pool's virtual phones stop and a farm's devices are given back first.
  const interrupted = (signal: NodeJS.Signals) => {
    process.stderr.write('\nsuite interrupted: giving the devices back\n');
    void pool.close().finally(() => process.exit(signal === 'SIGTERM' ? 143 : 130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  let report: Awaited<ReturnType<typeof runSuite>>;
  try {
    report = await runSuite({
      ...args,
      pool,
      catalogTasks: args.world === 'replay' ? REAL_APP_TASKS : TASKS,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await pool.close();
  }
  process.stdout.write(`${renderSuiteMarkdown(report, args.outDir)}\n`);
  process.stdout.write(`wrote ${args.outDir}/suite.json and suite.md\n`);
  if (report.stopped) {
    process.stderr.write(
      `suite: stopped, the model stopped answering: ${report.stopped}\nWhen it answers again, run the same command with --resume (the finished runs are kept in ${args.outDir}/runs.jsonl).\n`,
    );
    return 3;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
