import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCommand } from '../../src/cli/commands/run.js';
import { ActionableError } from '../../src/core/errors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const flags = () => ({
  device: 'sim',
  maxSteps: '12',
  runsDir: path.join(dir, 'runs'),
  memory: path.join(dir, 'memory.json'),
  seed: '1',
  locale: 'en',
  adbHost: '127.0.0.1',
  adbPort: '5037',
  json: true,
});

describe('phone-agent run', () => {
  it('names the variables to set when no model is configured', async () => {
    const saved = { base: process.env.OPENAI_BASE_URL, model: process.env.PHONE_AGENT_MODEL };
    delete process.env.OPENAI_BASE_URL;
    delete process.env.PHONE_AGENT_MODEL;
    try {
      await expect(runCommand('Turn Wi-Fi off', flags())).rejects.toThrow(ActionableError);
      await expect(runCommand('Turn Wi-Fi off', flags())).rejects.toThrow(/OPENAI_BASE_URL.*PHONE_AGENT_MODEL/s);
    } finally {
      if (saved.base !== undefined) process.env.OPENAI_BASE_URL = saved.base;
      if (saved.model !== undefined) process.env.PHONE_AGENT_MODEL = saved.model;
    }
  });

  it('completes a task on the virtual phone with the built-in reference model and leaves a run folder', async () => {
    const writes: string[] = [];
    const orig = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      writes.push(String(s));
      return true;
    }) as typeof process.stdout.write;
    let code: number;
    try {
      code = await runCommand('Turn Wi-Fi off', { ...flags(), model: 'reference', yes: true });
    } finally {
      process.stdout.write = orig;
    }
    expect(code).toBe(EXIT.done);
    const result = JSON.parse(writes.join(''));
    expect(result.status).toBe('done');
    expect(result.stepLog.map((s: { action: string }) => s.action).join(' | ')).toMatch(
      /launch_app package=Settings \| tap \[\w+\] "Network & internet[^"]*" \| tap \[\w+\] "Internet[^"]*" \| tap \[\w+\] "Wi-Fi" \| done/,
    );
    const steps = await readdir(path.join(result.runDir, 'steps'));
    expect(steps).toContain('001.json');
    expect(steps).toContain('001.png');
  });
});
