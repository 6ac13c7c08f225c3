import { ActionableError } from '../src/core/errors.js';
import { TASKS } from './index.js';
import { REAL_APP_TASKS } from './real-apps/index.js';
import { parseSuiteArgs, SUITE_USAGE } from './suite-args.js';
import { renderSuiteMarkdown } from './suite-report.js';

/**
 * `npm run suite -- [flags]`: scores the agent on the regression tasks and prints the Markdown
 * summary. Exit 0 when the suite ran (scores are data, not a failure), 2 on usage errors or a pool
 * that cannot be opened, 5 when a farm has no free device.
 */
async function main(argv: readonly string[]): Promise<number> {
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
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
