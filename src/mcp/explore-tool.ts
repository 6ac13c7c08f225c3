import path from 'node:path';
import { z } from 'zod';
import { explore } from '../agent/explore.js';
import { knowledgeOf } from '../agent/knowledge-of.js';
import { callbackConfirmation } from '../compose/agent.js';
import { writeAppMap } from '../store/app-map-write.js';
import { writeStoreEntry } from '../store/knowledge-store.js';
import { newRunId } from '../store/run-archive.js';
import { type TaskFactory, withAgent } from './task-factory.js';
import type { ToolDef } from './tool.js';

/**
 * `explore_app` (issue 25): Explore over MCP — the same device lock and composition as
 * `mobile_run_task` (withAgent), a progress notification per page found, the app map written under
 * the server's runs folder (`maps/<app>-<id>`: a client names no path on the server's disk) and its
 * knowledge into the server's knowledge store (keyed by package), which mobile_run_task reads.
 */

const SAFE = /[^A-Za-z0-9._-]+/g;

export function exploreTool(factory: TaskFactory): ToolDef {
  return {
    name: 'explore_app',
    title: 'Explore an app',
    description:
      'Learn an app without a task: walk its screens breadth first (taps every control of every new page, back/relaunch to return) and write an app map (DroidBot UTG + knowledge.json with a description per page and control). Never pays, sends, deletes, signs in, changes settings or types outside search. Progress per page found.',
    shape: {
      app: z.string().min(1).max(200).describe('the app: its launcher name ("Notes") or its package'),
      budget_actions: z
        .number()
        .int()
        .min(1)
        .max(5_000)
        .optional()
        .describe('stop after this many actions (default 400)'),
      minutes: z.number().min(0.1).max(240).optional().describe('stop after this many minutes'),
      device: z.string().optional().describe('as mobile_run_task: a --device value, a pool device id, or "any"'),
    },
    readOnly: false,
    destructive: false,
    usesDevice: false,
    async run(args, call) {
      const app = String(args.app);
      const out = path.join(factory.runsDir, 'maps', `${app.replace(SAFE, '_')}-${newRunId(Date.now())}`);
      return withAgent(
        factory,
        {
          launch: { device: args.device as string | undefined },
          command: `mcp explore_app ${app}`,
          // Explore asks nobody: its guard policy refuses what a task would ask about.
          confirm: callbackConfirmation('explore', () => 'denied'),
          onEvent: () => {},
        },
        async (deps, taken) => {
          const r = await explore(deps, {
            app,
            budget: { actions: args.budget_actions as number | undefined, minutes: args.minutes as number | undefined },
            signal: call.signal,
            onProgress: (p) => void call.progress?.(p.message, p.pages, p.pages + p.queued),
          });
          const found = r.map.pages.length > 0;
          const knowledge = knowledgeOf(r.map);
          if (found) await writeAppMap(out, r.map, knowledge);
          // The store entry is what mobile_run_task reads when this app is in front.
          const stored =
            found && factory.knowledgeDir ? await writeStoreEntry(factory.knowledgeDir, knowledge) : undefined;
          return {
            result: {
              device: taken.device,
              app: r.map.app,
              pages: r.map.pages.length,
              activities: [...new Set(r.map.pages.map((p) => p.activity))],
              transitions: r.map.transitions.length,
              actions: r.actions,
              stopped: r.stopped,
              ...(r.blocked ? { blocked: r.blocked } : {}),
              guarded_actions_taken: r.guardedTaken,
              refused_by_executor: r.refused.length,
              model_calls: r.modelCalls,
              ...(r.map.pages.length > 0
                ? {
                    map_folder: out,
                    knowledge_file: path.join(out, 'knowledge.json'),
                    ...(stored ? { knowledge_store_entry: stored } : {}),
                  }
                : { reason: `${app} showed no page: is it installed?` }),
            },
            isError: r.map.pages.length === 0,
          };
        },
      );
    },
  };
}
