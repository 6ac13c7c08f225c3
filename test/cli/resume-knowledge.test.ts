import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from './support.js';

/**
 * `resume` reads the knowledge the run started with (issue 25): the launch record keeps the source
 * (`--knowledge FILE` here), and resume loads that file again — shown by breaking the file between
 * the two: the resumed run fails naming it, before anything starts; `--no-knowledge` given to
 * resume overrides the record.
 */

vi.setConfig({ testTimeout: 180_000 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-resume-knowledge-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (...args: string[]) => cli(args, { cwd: dir, timeoutMs: 120_000 });

describe('resume keeps the knowledge source', () => {
  it('a run started with --knowledge FILE resumes reading that file; --no-knowledge on resume reads none', async () => {
    const file = path.join(dir, 'k.json');
    await writeFile(
      file,
      JSON.stringify({ version: 1, app: { package: 'com.android.settings', label: 'Settings' }, pages: [] }),
    );
    const first = await run('run', 'Turn Wi-Fi off', '--model', 'reference', '--max-steps', '1', '--knowledge', file);
    expect(first.code, first.stderr).toBe(1);
    const folder = /continue: phone-agent resume (\S+) --more-steps/.exec(first.stdout)?.[1];
    expect(folder, first.stdout).toBeDefined();

    await writeFile(file, '{"version": 2}');
    const resumed = await run('resume', folder as string, '--more-steps', '3');
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain(`${file} is not an app knowledge file`);

    const without = await run('resume', folder as string, '--more-steps', '3', '--no-knowledge');
    expect(without.stderr).not.toContain('is not an app knowledge file');
    // It goes on (the virtual phone starts afresh in a new process): done, or out of its 3 steps.
    expect([0, 1], without.stderr + without.stdout).toContain(without.code);
  });
});
