import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ActionableError } from '../../src/core/errors.js';
import type { ReplayGraph } from '../../src/testbed/replay/graph.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';

/**
 * Where the real-app tasks' graphs are and how a task names their states. The graphs are
 * third-party recordings kept in ../shared (never copied into the repository); each is read once
 * per process.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GRAPHS_DIR = path.resolve(repoRoot, '../shared/fixtures/droidbot-utg');

const loaded = new Map<string, Promise<ReplayGraph>>();

export function graphDir(graph: string): string {
  return path.isAbsolute(graph) ? graph : path.join(GRAPHS_DIR, graph);
}

export function loadTaskGraph(graph: string): Promise<ReplayGraph> {
  const dir = graphDir(graph);
  let g = loaded.get(dir);
  if (!g) {
    g = access(path.join(dir, 'utg.js'))
      .catch(() => {
        throw new ActionableError(
          'NOT_FOUND',
          `no recorded graph at ${dir}`,
          'the real-app tasks (--world replay) read DroidBot graphs from ../shared/fixtures/droidbot-utg beside the repository',
        );
      })
      .then(() => loadDroidbotGraph(dir));
    g.catch(() => loaded.delete(dir));
    loaded.set(dir, g);
  }
  return g;
}

/** The one state of `graph` whose state_str starts with `prefix`. */
export function stateNamed(graph: ReplayGraph, prefix: string): string {
  const hits = [...graph.states.keys()].filter((id) => id.startsWith(prefix));
  if (hits.length !== 1)
    throw new Error(
      `${graph.name}: "${prefix}" names ${hits.length} states (${hits.slice(0, 3).join(', ')}); use a longer prefix`,
    );
  return hits[0] as string;
}
