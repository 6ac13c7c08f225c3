import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ActionableError } from '../core/errors.js';

/**
 * One process drives a run at a time: `run.lock` in the run folder names the process (pid, host).
 * A lock left by a process that no longer exists (killed, crashed) is taken over, so a resume after
 * `kill -9` just works; a live holder makes a second `resume` refuse instead of racing it.
 */

const LOCK = 'run.lock';

interface LockInfo {
  pid: number;
  host: string;
  since: number;
}

/** Whether a process exists (EPERM: it exists but belongs to someone else — still alive). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holder(file: string): Promise<LockInfo | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as Partial<LockInfo>;
    return typeof v.pid === 'number' && typeof v.host === 'string'
      ? { pid: v.pid, host: v.host, since: v.since ?? 0 }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Take the run's lock; returns its release. */
export async function lockRun(runDir: string, now = Date.now()): Promise<() => Promise<void>> {
  await mkdir(runDir, { recursive: true });
  const file = path.join(runDir, LOCK);
  const me: LockInfo = { pid: process.pid, host: os.hostname(), since: now };
  try {
    const fh = await open(file, 'wx');
    await fh.writeFile(JSON.stringify(me));
    await fh.close();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const h = await holder(file);
    if (h && h.pid !== process.pid && (h.host !== me.host || processAlive(h.pid)))
      throw new ActionableError(
        'RUN_LOCKED',
        `run ${path.basename(runDir)} is being driven by process ${h.pid} on ${h.host} since ${new Date(h.since).toISOString()}`,
        `wait for it to finish or stop it; if that process is gone (another host), delete ${file}`,
      );
    // Its holder is gone: take it over.
    await writeFile(file, JSON.stringify(me));
  }
  return async () => {
    const h = await holder(file);
    if (h?.pid === process.pid) await rm(file, { force: true });
  };
}
