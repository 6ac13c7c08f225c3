import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScreen, register } from '../../src/cli/commands/sim.js';

// `phone-agent sim`: the screenshot mode in-process, the server mode as a real child process.
const repo = resolve(import.meta.dirname, '../..');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('phone-agent sim', () => {
  it('parses screens', () => {
    expect(parseScreen('landscape')).toBe('landscape');
    expect(parseScreen('720x1600')).toEqual({ width: 720, height: 1600, density: 420 });
    expect(parseScreen('1440x3120@560')).toEqual({ width: 1440, height: 3120, density: 560 });
    expect(() => parseScreen('huge')).toThrow(/WxH/);
  });

  it('--screenshot APP out.png writes the first screen of the app', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-shot-'));
    const out = join(dir, 'settings.png');
    const program = new Command().exitOverride();
    register(program);
    const write = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      await program.parseAsync(['node', 'phone-agent', 'sim', '--screen', '720x1600', '--screenshot', 'Settings', out]);
    } finally {
      process.stdout.write = write;
    }
    const png = await readFile(out);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(720);
    expect(png.readUInt32BE(20)).toBe(1600);
  });

  it('serves the bridge and prints its URL and token', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sim', '--token', 'cli-test-token'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((ok, fail) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /^bridge\s+(\S+)$/m.exec(out);
          if (m?.[1] && /^token/m.test(out)) ok(m[1]);
        });
        child.once('exit', (code) => fail(new Error(`sim exited with ${code}`)));
      });
      expect(out).toMatch(/^token\s+cli-test-token$/m);
      const r = await fetch(`${url}/v3/hello`, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-test-token' },
        body: '{}',
      });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { protocol: number }).protocol).toBe(3);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
