import { access, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { z } from 'zod';
import { Logger } from '../core/logger.js';
import { type PageMemoryData, PageMemoryDataSchema } from '../planner/memory/page-memory.js';

/**
 * Page memory persisted across runs (lowdb, atomic writes), so a second run of a task is warm.
 * The file carries a version and is validated on load like the checkpoint: a replayed decision goes
 * straight to the device, so a hand-edited, truncated or foreign file must never be trusted. Such a
 * file is renamed aside (never deleted: it may be someone's only copy) and the run starts cold.
 */

export const PAGE_MEMORY_VERSION = 1;

const PageMemoryFileSchema = PageMemoryDataSchema.extend({ version: z.literal(PAGE_MEMORY_VERSION) });
type PageMemoryFile = z.infer<typeof PageMemoryFileSchema>;

const empty = (): PageMemoryData => ({ entries: {}, plans: {} });

export type PageMemoryLoad =
  | { status: 'missing' | 'loaded' | 'migrated'; data: PageMemoryData }
  /** Not trusted: `movedTo` is where the old file now is; `data` is empty. */
  | { status: 'set_aside'; data: PageMemoryData; problem: string; movedTo: string };

/** Reads and judges the file; never throws for a bad file, only for an unreadable disk. */
export async function readPageMemory(file: string): Promise<PageMemoryLoad> {
  let raw: unknown;
  try {
    raw = await new JSONFile<unknown>(file).read();
  } catch (e) {
    // lowdb reads a missing file as null; an unreadable disk is broken, not a bad file.
    if (!(e instanceof SyntaxError)) throw e;
    return setAside(file, `not JSON (${e.message})`);
  }
  if (raw === null) return { status: 'missing', data: empty() };
  const current = PageMemoryFileSchema.safeParse(raw);
  if (current.success) return { status: 'loaded', data: strip(current.data) };
  const version = (raw as { version?: unknown } | null)?.version;
  if (version === undefined) {
    // The previous release wrote `{ entries, plans }` without a version: same shape, keep it.
    const legacy = PageMemoryDataSchema.safeParse(raw);
    if (legacy.success) return { status: 'migrated', data: legacy.data };
    return setAside(file, `unversioned and not page memory (${describe(legacy.error)})`);
  }
  if (version !== PAGE_MEMORY_VERSION)
    return setAside(file, `version ${JSON.stringify(version)}, this release reads version ${PAGE_MEMORY_VERSION}`);
  return setAside(file, `not valid page memory (${describe(current.error)})`);
}

/**
 * The loader the composition uses: a file set aside is reported as a warning naming both paths and
 * what to do; a migrated file is noted. Without a logger the warning goes to stderr, since a silently
 * cold cache looks like a slow agent.
 */
export async function loadPageMemory(file: string, logger?: Logger): Promise<PageMemoryData> {
  const log = logger ?? new Logger('store', { level: 'warn' });
  const r = await readPageMemory(file);
  if (r.status === 'set_aside')
    log.warn(
      `page memory ${file} is ${r.problem}; moved it to ${r.movedTo} and starting with empty memory ` +
        `(delete ${r.movedTo} once you no longer need it)`,
    );
  else if (r.status === 'migrated')
    log.info(`page memory ${file} has no version (previous release); read it as version ${PAGE_MEMORY_VERSION}`);
  return r.data;
}

export async function savePageMemory(file: string, data: PageMemoryData): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const db = new Low<PageMemoryFile>(new JSONFile(file), { version: PAGE_MEMORY_VERSION, ...data });
  await db.write();
}

function strip(f: PageMemoryFile): PageMemoryData {
  return { entries: f.entries, plans: f.plans };
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown shape';
  const where = issue.path.length ? issue.path.join('.') : 'top level';
  return `${where}: ${issue.message}`;
}

async function setAside(file: string, problem: string): Promise<PageMemoryLoad> {
  const movedTo = await freeName(`${file}.bak`);
  await rename(file, movedTo);
  return { status: 'set_aside', data: empty(), problem, movedTo };
}

/** `x.bak`, else `x.bak.1`, `x.bak.2`…: an earlier backup is never overwritten. */
async function freeName(base: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? base : `${base}.${i}`;
    const taken = await access(candidate).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
  }
}
