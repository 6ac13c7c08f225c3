import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The keyboard to give back: before a run switches the phone to the helper's input method, the
 * previous one is written here (one file per device). A run that ends restores it and removes the
 * file; after a crash the file is still there and the next start restores it first.
 */

export interface ImeRecord {
  serial: string;
  previous: string;
  /** The agent process that switched the keyboard. */
  pid: number;
  at: string;
}

export const DEFAULT_HELPER_STATE_DIR = path.join('.phone-agent', 'helper');

function file(dir: string, serial: string): string {
  return path.join(dir, `ime-${serial.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
}

export async function readImeRecord(dir: string, serial: string): Promise<ImeRecord | undefined> {
  try {
    const r = JSON.parse(await readFile(file(dir, serial), 'utf8')) as ImeRecord;
    return typeof r.previous === 'string' && r.previous !== '' ? r : undefined;
  } catch {
    return undefined;
  }
}

export async function writeImeRecord(dir: string, r: ImeRecord): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(file(dir, r.serial), `${JSON.stringify(r, null, 2)}\n`);
}

export async function clearImeRecord(dir: string, serial: string): Promise<void> {
  await rm(file(dir, serial), { force: true });
}

/** True while the process that wrote the record still runs (then its keyboard switch is not stale). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
