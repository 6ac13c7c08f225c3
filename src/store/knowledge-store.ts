import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Knowledge, loadKnowledge } from './app-map.js';

/**
 * The knowledge store (issue 25): one knowledge file per app, `<dir>/<package>.json`, beside the
 * page memory in the project's state folder (`.phone-agent/knowledge`; `--knowledge-dir DIR` or
 * PHONE_AGENT_KNOWLEDGE_DIR elsewhere). `explore` writes its app's entry; `run`, `resume`, the
 * suite and `mobile_run_task` load every entry, and each step's prompt takes the lines of the front
 * app's entry only (agent/knowledge.ts matches by package), so a task that changes app switches.
 */

export const DEFAULT_KNOWLEDGE_DIR = '.phone-agent/knowledge';

/** The store folder: the flag, else PHONE_AGENT_KNOWLEDGE_DIR, else the default — resolved. */
export function knowledgeDir(flag: string | undefined, env: Record<string, string | undefined> = process.env): string {
  return path.resolve(flag ?? env.PHONE_AGENT_KNOWLEDGE_DIR ?? DEFAULT_KNOWLEDGE_DIR);
}

/** A package name is a file name as is; anything else a package could not contain is replaced. */
export function storeEntryFile(dir: string, pkg: string): string {
  return path.join(dir, `${pkg.replace(/[^A-Za-z0-9._-]+/g, '_')}.json`);
}

/** Writes (replaces) the app's entry; returns its file. */
export async function writeStoreEntry(dir: string, k: Knowledge): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = storeEntryFile(dir, k.app.package);
  await writeFile(file, `${JSON.stringify(k, null, 1)}\n`);
  return file;
}

/**
 * Every entry of the store, by file name order; a missing folder is an empty store (nothing was
 * explored yet). A malformed entry is an ActionableError naming its file (loadKnowledge): a run
 * never goes on with half its knowledge silently dropped.
 */
export async function loadKnowledgeStore(dir: string): Promise<{ files: string[]; knowledge: Knowledge[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], knowledge: [] };
    throw e;
  }
  const files = names.map((n) => path.join(dir, n));
  return { files, knowledge: await Promise.all(files.map((f) => loadKnowledge(f))) };
}
