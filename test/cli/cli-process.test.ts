import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from './support.js';

/**
 * The CLI as a person meets it: the bin started as a process, its exit codes exactly as the README
 * states (0 done, 1 failed or out of steps, 2 usage or no model, 3 needs a person, 4 infeasible),
 * and messages that name the bad value and the fix, once.
 */

// Each test starts the CLI as a process (tsx compiles on start): slow on a loaded machine.
vi.setConfig({ testTimeout: 180_000 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (...args: string[]) => cli(args, { cwd: dir });

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('usage errors exit 2 and say what was wrong', () => {
  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['run', 'Turn Wi-Fi off', '--frob'], /unknown option '--frob'/],
    [['run'], /missing required argument 'task'/],
    [['run', '  '], /run needs a task — e\.g\. .*run "Turn Wi-Fi off"/],
    [['observe'], /nothing to observe — pass one of --xml FILE, --droidbot STATE.json/],
    [
      ['observe', '--xml', 'dump.xml', '--format', 'yaml'],
      /unknown --format "yaml" — use --format compact or --format json/,
    ],
    [['observe', '--xml', 'missing.xml'], /cannot read the dump missing\.xml .*— check the path/],
    [['report'], /report needs a run folder or a run id/],
    [['run', 'Turn Wi-Fi off', '--yes', 'sned'], /"sned" is not a kind of guarded action/],
  ])('%j', async (args, message) => {
    const r = await run(...args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it.each(['abc', '0', '-3', '2.5'])('--max-steps %s names the value and an example', async (v) => {
    const r = await run('run', 'Turn Wi-Fi off', '--model', 'reference', `--max-steps=${v}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--max-steps "${v}" is not a whole number ≥ 1 — pass e.g. --max-steps 30`);
  });

  it('no model configured: exit 2 naming the variables, and no run folder', async () => {
    const r = await run('run', 'Turn Wi-Fi off', '--runs-dir', 'runs-nomodel');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OPENAI_BASE_URL and PHONE_AGENT_MODEL/);
    expect(await readdir(path.join(dir, 'runs-nomodel')).catch(() => [])).toEqual([]);
  });

  it('a dead model endpoint: exit 2 naming its URL and the fix, no run folder left', async () => {
    const url = `http://127.0.0.1:${await deadPort()}/v1`;
    const r = await run('run', 'Turn Wi-Fi off', '--base-url', url, '--model', 'm', '--runs-dir', 'runs-dead');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the model "m" at ${url} could not be reached`);
    expect(r.stderr).toMatch(/check that the model server is running/);
    expect(await readdir(path.join(dir, 'runs-dead')).catch(() => [])).toEqual([]);
  }, 60_000);

  it('an adb serial nobody has: the fix is said once, no run folder left', async () => {
    const r = await run(
      'run',
      'Turn Wi-Fi off',
      '--model',
      'reference',
      '--device',
      'nosuch-serial',
      '--adb-port',
      String(await deadPort()),
      '--runs-dir',
      'runs-adb',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach nosuch-serial over adb/);
    expect(r.stderr.match(/adb devices/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(await readdir(path.join(dir, 'runs-adb')).catch(() => [])).toEqual([]);
  });
});

describe('what the reference model understands', () => {
  it('tasks lists the catalog phrasings with examples', async () => {
    const r = await run('tasks');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SET-01  ');
    expect(r.stdout).toContain('Turn Wi-Fi {state}.');
    expect(r.stdout).toContain('e.g. Turn Wi-Fi on.');
  });

  it('an unknown goal is not "infeasible": exit 2, the closest phrasings as commands, no run folder', async () => {
    const r = await run('run', 'Turn on Bluetooth', '--model', 'reference', '--runs-dir', 'runs-unknown');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the reference model does not know the goal "Turn on Bluetooth"');
    expect(r.stderr).toMatch(/run "Turn Bluetooth off\." --model reference/);
    expect(r.stderr).not.toMatch(/infeasible/);
    expect(await readdir(path.join(dir, 'runs-unknown')).catch(() => [])).toEqual([]);
  });
});

describe('outcomes in words, with the command that continues', () => {
  it('out of steps: exit 1, "1 step" singular, and the --more-steps command', async () => {
    const r = await run(
      'run',
      'Turn Wi-Fi off',
      '--model',
      'reference',
      '--max-steps',
      '1',
      '--runs-dir',
      'runs-budget',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^out of steps — stopped after 1 step, the budget/m);
    expect(r.stdout).toMatch(/^ {2}continue: phone-agent resume \S+ --more-steps 10$/m);
    expect(r.stdout).toMatch(/^1 step, 1 LLM call|^1 step, 2 LLM calls/m);
  });

  it('a send without consent pauses (exit 3) and prints the exact resume commands', async () => {
    const r = await run('run', 'Text 15551234567: "On my way".', '--model', 'reference', '--runs-dir', 'runs-pause');
    expect(r.code).toBe(3);
    const m = /^paused for consent — (.+)$/m.exec(r.stdout);
    expect(m?.[1]).toMatch(/Send/);
    const folder = /^run folder: (\S+)$/m.exec(r.stdout)?.[1];
    expect(r.stdout).toContain(`  approve: phone-agent resume ${folder} --yes`);
    expect(r.stderr).toMatch(/→ paused for consent/);
    expect(r.stderr).not.toMatch(/ keep\b/);
  });

  it('--yes payment does not approve a send; --deny says what was done and what was not', async () => {
    const p = await run(
      'run',
      'Text 15551234567: "On my way".',
      '--model',
      'reference',
      '--yes',
      'payment',
      '--runs-dir',
      'runs-kinds',
    );
    expect(p.code).toBe(3);
    const d = await run(
      'run',
      'Text 15551234567: "On my way".',
      '--model',
      'reference',
      '--deny',
      '--runs-dir',
      'runs-deny',
    );
    expect(d.stderr).toMatch(/^denied send: tap "Send[^\n]*\(by --deny\)$/m);
    expect(d.stdout).toMatch(/^denied — stopped as you asked; not done: tap "Send/m);
    expect(d.stdout).toMatch(/done before it \(still on the phone\): .*type .*Text message/);
    expect(d.stdout).not.toMatch(/nothing was done/);
    const y = await run(
      'run',
      'Text 15551234567: "On my way".',
      '--model',
      'reference',
      '--yes',
      'send',
      '--runs-dir',
      'runs-yes',
    );
    expect(y.code).toBe(0);
    expect(y.stderr).toMatch(/^approved send: tap "Send[^\n]*\(by --yes send\)$/m);
    expect(y.stderr).not.toMatch(/"by":"policy"/);
  }, 90_000);
});
