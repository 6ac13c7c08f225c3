import path from 'node:path';
import type { Command } from 'commander';
import { type ExploreResult, explore } from '../../agent/explore.js';
import { knowledgeOf } from '../../agent/knowledge-of.js';
import { ActionableError, CancelledError } from '../../core/errors.js';
import { writeAppMap } from '../../store/app-map-write.js';
import { deviceLockKey, lockDevice } from '../../store/device-lock.js';
import { writeStoreEntry } from '../../store/knowledge-store.js';
import { type AgentFlags, composeFromFlags, knowledgeUse } from '../compose.js';
import { isFarmDevice } from '../farm.js';
import { cliCommand } from '../invocation.js';
import { agentOptions, exitWith, wholeNumber } from './run.js';

/**
 * `phone-agent explore --app Notes --out maps/notes`: learn an app without a task (issue 25). The
 * same composed agent as `run`, under Explore's guard policy (it refuses, and asks nobody); the map
 * is written as a DroidBot UTG folder plus knowledge.json, which `run --knowledge` reads, and into
 * the knowledge store (`--knowledge-dir`, keyed by package), which `run` reads by itself.
 */

interface ExploreFlags extends AgentFlags {
  app?: string;
  out?: string;
  budgetActions: string;
  minutes?: string;
  describe: boolean;
}

/** What the person reads when the walk is over: how much was found, what was left alone, where it is. */
export function exploreSummary(r: ExploreResult, out: string): string[] {
  const activities = new Set(r.map.pages.map((p) => p.activity));
  const skipped = new Set(r.skipped.map((s) => `${s.page} "${s.label}": ${s.why}`));
  return [
    `explored ${r.map.app.label} (${r.map.app.package}): ${r.map.pages.length} pages, ${activities.size} activities, ${r.map.transitions.length} transitions in ${r.actions} actions (${r.stopped})`,
    `guarded actions taken: ${r.guardedTaken}; refused by the executor: ${r.refused.length}; model calls: ${r.modelCalls}`,
    ...(skipped.size ? [`left alone (${skipped.size}):`, ...[...skipped].slice(0, 12).map((s) => `  ${s}`)] : []),
    ...(r.lost.length ? [`pages found but not reached again: ${r.lost.join(', ')}`] : []),
    ...(r.describeErrors.length ? [`not described: ${r.describeErrors.join('; ')}`] : []),
    `app map: ${path.join(out, 'utg.js')} · knowledge: ${path.join(out, 'knowledge.json')}`,
  ];
}

export async function exploreCommand(flags: ExploreFlags): Promise<number> {
  const example = `${cliCommand()} explore --app Notes --out maps/notes --model reference`;
  if (!flags.app?.trim()) throw new ActionableError('USAGE', 'explore needs --app', `e.g. ${example}`);
  if (!flags.out?.trim())
    throw new ActionableError('USAGE', 'explore needs --out DIR for the app map', `e.g. ${example}`);
  if (isFarmDevice(flags.device))
    throw new ActionableError(
      'USAGE',
      `explore does not reserve farm devices (${flags.device})`,
      'pass a serial or a bridge URL',
    );
  const actions = wholeNumber('--budget-actions', flags.budgetActions, 1, 200);
  const minutes = flags.minutes === undefined ? undefined : wholeNumber('--minutes', flags.minutes, 1, 10);
  const out = path.resolve(flags.out);
  const say = (line: string) => {
    if (!flags.json) process.stderr.write(`${line}\n`);
  };
  const device = await lockDevice(deviceLockKey(flags.device), { command: `phone-agent explore --app ${flags.app}` });
  const cancel = new AbortController();
  const stop = () => cancel.abort(new CancelledError('stopped by a signal'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const agent = await composeFromFlags(flags);
    try {
      const r = await explore(agent.deps, {
        app: flags.app,
        budget: { actions, minutes },
        describe: flags.describe,
        signal: cancel.signal,
        onProgress: (p) => say(`  ${p.message} (${p.actions} actions, ${p.queued} queued)`),
      });
      if (r.map.pages.length === 0) {
        say(
          r.blocked
            ? `explore: ${r.blocked}`
            : `explore: ${flags.app} showed no page: is it installed? (${cliCommand()} devices lists what is connected)`,
        );
        return 1;
      }
      const knowledge = knowledgeOf(r.map);
      await writeAppMap(out, r.map, knowledge);
      // The store entry (keyed by package) is what `run` reads when this app is in front.
      const use = knowledgeUse({
        knowledgeDir: flags.knowledgeDir,
        knowledge: flags.knowledge === false ? false : undefined,
      });
      const stored = use.kind === 'store' ? await writeStoreEntry(use.dir, knowledge) : undefined;
      if (stored) say(`knowledge store: ${stored}`);
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ ...r, map: { app: r.map.app, pages: r.map.pages.length, transitions: r.map.transitions.length }, out, ...(stored ? { stored } : {}) }, null, 2)}\n`,
        );
      else for (const line of exploreSummary(r, out)) process.stdout.write(`${line}\n`);
      return r.stopped === 'cancelled' ? 130 : 0;
    } finally {
      await agent.close();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await device.release();
  }
}

export function register(program: Command): void {
  agentOptions(
    program
      .command('explore')
      .description('Learn an app without a task: walk its screens and write an app map (DroidBot UTG + knowledge.json)')
      .option('--app <name>', 'the app: its launcher name ("Notes") or its package')
      .option('--out <dir>', 'where the app map goes (utg.js, states/, knowledge.json)')
      .option('--budget-actions <n>', 'stop after this many actions', '400')
      .option('--minutes <m>', 'stop after this many minutes')
      .option('--no-describe', 'no model calls: the map without descriptions'),
    true,
  ).action((flags: ExploreFlags) => exitWith('explore', flags, () => exploreCommand(flags)));
}
