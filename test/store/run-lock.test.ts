import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionableError } from '../../src/core/errors.js';
import { lockRun } from '../../src/store/run-lock.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exists = (f: string) =>
  stat(f).then(
    () => true,
    () => false,
  );

describe('run lock', () => {
  it('refuses while another live process holds the run, takes over once it is gone', async () => {
    const runDir = path.join(dir, 'run-a');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const exited = new Promise((ok) => other.once('exit', ok));
    try {
      await lockRun(runDir); // creates the folder and the file
      await writeFile(path.join(runDir, 'run.lock'), JSON.stringify({ pid: other.pid, host: os.hostname(), since: 0 }));
      const err = await lockRun(runDir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ActionableError);
      expect(String(err)).toMatch(new RegExp(`process ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
      await exited;
    }
    // The holder died without releasing (kill -9): the lock is taken over, then released.
    const release = await lockRun(runDir);
    expect(JSON.parse(await readFile(path.join(runDir, 'run.lock'), 'utf8')).pid).toBe(process.pid);
    await release();
    expect(await exists(path.join(runDir, 'run.lock'))).toBe(false);
  });

  it('a lock from another host is respected: the message says what to delete', async () => {
    const runDir = path.join(dir, 'run-b');
    await lockRun(runDir);
    await writeFile(path.join(runDir, 'run.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', since: 0 }));
    await expect(lockRun(runDir)).rejects.toThrow(/on elsewhere.*delete .*run\.lock/);
  });
});
