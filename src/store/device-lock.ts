import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ActionableError } from '../core/errors.js';
import { fnvHex } from '../core/hash.js';
import { processAlive } from './run-lock.js';

/**
 * One driver per device at a time, whoever it is: a CLI `run`/`resume`, an MCP task run or an MCP
 * direct tool. The lock is a file under the OS temp dir keyed by the device id, naming its holder
 * (pid, host, command, since). A lock whose holder process is gone is taken over; a live holder —
 * another process, or another driver inside this one (each holds its own token) — gets BUSY.
 */

export interface DeviceLockHolder {
  pid: number;
  host: string;
  command: string;
  since: number;
  device: string;
  token: string;
}

export interface DeviceLock {
  readonly holder: DeviceLockHolder;
  release(): Promise<void>;
}

/** Where the locks live: PHONE_AGENT_LOCK_DIR, else `<tmp>/phone-agent-locks`. */
export function lockDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PHONE_AGENT_LOCK_DIR || path.join(os.tmpdir(), 'phone-agent-locks');
}

/** A file name for a device id (a URL, a serial): readable, and distinct for distinct ids. */
export function lockFileFor(device: string, dir = lockDir()): string {
  const readable = device.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return path.join(dir, `${readable}-${fnvHex(device)}.lock`);
}

/**
 * The lock key of a `--device` value: a helper bridge by its origin, an adb device by its serial, a
 * farm's device by its farm serial (`stf:SERIAL`, whatever endpoint it was given this time).
 * `sim` is the built-in virtual phone, which each process creates for itself: its own key.
 */
export function deviceLockKey(device: string, pid = process.pid): string {
  if (device === 'sim') return `sim-${pid}`;
  if (device.startsWith('stf:')) return device;
  if (/^https?:\/\//.test(device)) {
    try {
      return new URL(device).origin;
    } catch {
      return device;
    }
  }
  return `adb-${device}`;
}

async function readHolder(file: string): Promise<DeviceLockHolder | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as Partial<DeviceLockHolder>;
    if (typeof v.pid !== 'number' || typeof v.host !== 'string' || typeof v.token !== 'string') return undefined;
    return {
      pid: v.pid,
      host: v.host,
      token: v.token,
      command: String(v.command ?? '?'),
      since: Number(v.since ?? 0),
      device: String(v.device ?? '?'),
    };
  } catch {
    return undefined;
  }
}

/** Who holds the device now, if anyone alive does. */
export async function deviceHolder(device: string, dir = lockDir()): Promise<DeviceLockHolder | undefined> {
  const h = await readHolder(lockFileFor(device, dir));
  return h && (h.host !== os.hostname() || processAlive(h.pid)) ? h : undefined;
}

export function busyError(device: string, h: DeviceLockHolder): ActionableError {
  const who = h.pid === process.pid ? `${h.command} in this process` : `${h.command} (pid ${h.pid} on ${h.host})`;
  return new ActionableError(
    'BUSY',
    `device ${device} is busy: driven by ${who} since ${new Date(h.since).toISOString()}`,
    'wait for it to finish, or stop that driver; one driver per device at a time',
  );
}

async function tryCreate(file: string, me: DeviceLockHolder): Promise<boolean> {
  try {
    const fh = await open(file, 'wx');
    try {
      await fh.writeFile(JSON.stringify(me));
    } finally {
      await fh.close();
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** Take the device; throws an ActionableError with code BUSY naming the holder when it is taken. */
export async function lockDevice(
  device: string,
  opts: { command: string; dir?: string; now?: number },
): Promise<DeviceLock> {
  const dir = opts.dir ?? lockDir();
  await mkdir(dir, { recursive: true });
  const file = lockFileFor(device, dir);
  const me: DeviceLockHolder = {
    pid: process.pid,
    host: os.hostname(),
    command: opts.command,
    since: opts.now ?? Date.now(),
    device,
    token: randomBytes(8).toString('hex'),
  };
  // Two tries: the second after removing a lock whose holder is gone (or that does not parse).
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await tryCreate(file, me)) return held(file, me);
    const h = await readHolder(file);
    const live = h && (h.host !== me.host || processAlive(h.pid));
    if (h && live) throw busyError(device, h);
    await rm(file, { force: true });
  }
  const h = await readHolder(file);
  throw h ? busyError(device, h) : new ActionableError('BUSY', `could not take ${file}`, 'try again');
}

function held(file: string, me: DeviceLockHolder): DeviceLock {
  let released = false;
  return {
    holder: me,
    async release() {
      if (released) return;
      released = true;
      const h = await readHolder(file);
      if (h?.token === me.token) await rm(file, { force: true });
    },
  };
}
