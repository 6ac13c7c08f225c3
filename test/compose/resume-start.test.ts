import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/cli/commands/resume.js';
import { writeRunStart } from '../../src/store/run-start.js';

/**
 * A run killed before its first checkpoint (during start-up or the first model call) leaves only
 * `start.json`, `run.lock` and an empty `steps/`: `resume` starts it again in its own folder.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-resume-start-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A pid that existed and is gone, as a SIGKILLed run's is. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  return r.pid ?? 999_999;
}

async function killedDuringPlanning(runId: string, goal: string): Promise<string> {
  const runDir = path.join(dir, 'runs', runId);
  await mkdir(path.join(runDir, 'steps'), { recursive: true });
  await writeFile(path.join(runDir, 'run.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), since: 0 }));
  await writeRunStart(runDir, {
    version: 1,
    runId,
    goal,
    maxSteps: 12,
    launch: { device: 'sim', seed: '1', locale: 'en', model: 'reference' },
  });
  return runDir;
}

const flags = () => ({ runsDir: path.join(dir, 'runs'), memory: path.join(dir, 'memory.json'), json: true, yes: true });

describe('resume of a run that never got its checkpoint', () => {
  it('starts the run again from start.json and finishes it', async () => {
    const runDir = await killedDuringPlanning('r-plan', 'Turn Wi-Fi off.');
    const code = await resumeCommand(runDir, flags());
    expect(code).toBe(0);
    const cp = JSON.parse(await readFile(path.join(runDir, 'checkpoint.json'), 'utf8')) as {
      status: string;
      runId: string;
    };
    expect(cp).toMatchObject({ status: 'done', runId: 'r-plan' });
  }, 60_000);

  it('a credential-bearing task needs --task, and a wrong one is refused', async () => {
    const runDir = await killedDuringPlanning('r-secret', 'Log into Acme as a@b.c with password ⟨secret1⟩.');
    await expect(resumeCommand(runDir, flags())).rejects.toThrow(/credential .* --task/);
    await expect(
      resumeCommand(runDir, { ...flags(), task: 'Log into Acme as x@y.z with password Pw-1.' }),
    ).rejects.toThrow(/not the task this run was started with/);
  });

  it('a folder with neither checkpoint.json nor start.json is named in the error', async () => {
    const empty = path.join(dir, 'runs', 'r-empty');
    await mkdir(empty, { recursive: true });
    await expect(resumeCommand(empty, flags())).rejects.toThrow(/checkpoint\.json or start\.json/);
  });
});
