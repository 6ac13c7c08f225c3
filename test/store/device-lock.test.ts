import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceHolder, deviceLockKey, lockDevice, lockFileFor } from '../../src/store/device-lock.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-devlock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('device lock', () => {
  it('keys a bridge by its origin, an adb device by serial, and the per-process virtual phone by pid', () => {
    expect(deviceLockKey('http://127.0.0.1:8080/')).toBe(deviceLockKey('http://127.0.0.1:8080'));
    expect(deviceLockKey('emulator-5554')).toBe('adb-emulator-5554');
    expect(deviceLockKey('sim', 42)).toBe('sim-42');
    expect(lockFileFor('http://a:1', dir)).not.toBe(lockFileFor('http://a:2', dir));
  });

  it('gives a second driver BUSY naming the holder — in this process too — and frees on release', async () => {
    const a = await lockDevice('adb-X', { command: 'phone-agent run r1', dir, now: 0 });
    await expect(lockDevice('adb-X', { command: 'mcp tap', dir })).rejects.toMatchObject({
      code: 'BUSY',
      message: expect.stringMatching(/device adb-X is busy: driven by phone-agent run r1 in this process since 1970/),
    });
    expect((await deviceHolder('adb-X', dir))?.command).toBe('phone-agent run r1');
    await a.release();
    const b = await lockDevice('adb-X', { command: 'mcp tap', dir });
    await a.release(); // an old holder's release does not free the new one's lock
    expect((await deviceHolder('adb-X', dir))?.command).toBe('mcp tap');
    await b.release();
    expect(await deviceHolder('adb-X', dir)).toBeUndefined();
  });

  it('names another live process, and takes over the lock of one that is gone', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const exited = new Promise((ok) => other.once('exit', ok));
    const file = lockFileFor('adb-Y', dir);
    await lockDevice('adb-Y', { command: 'x', dir }).then((l) => l.release());
    const holder = {
      pid: other.pid,
      host: os.hostname(),
      command: 'phone-agent resume r2',
      since: 0,
      device: 'adb-Y',
      token: 't',
    };
    await writeFile(file, JSON.stringify(holder));
    try {
      await expect(lockDevice('adb-Y', { command: 'mcp observe', dir })).rejects.toThrow(
        new RegExp(`phone-agent resume r2 \\(pid ${other.pid} on `),
      );
    } finally {
      other.kill();
      await exited;
    }
    const l = await lockDevice('adb-Y', { command: 'mcp observe', dir });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid, command: 'mcp observe' });
    await l.release();
  });
});
