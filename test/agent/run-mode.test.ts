import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { runAgent } from '../../src/agent/loop.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { deserialize, newState, serialize } from '../../src/agent/run-state.js';
import { ActionableError } from '../../src/core/errors.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import { type Checkpoint, CheckpointStore } from '../../src/store/checkpoint.js';
import { rigPerTest } from './support/agent-rig.js';

/** The run's mode is part of its state: written in the checkpoint, read back by resume (issue 25). */

const SEND = 'Text 15551234567: "On my way".';

const ctx = rigPerTest(referenceCatalog(), 'pa-mode-');

const checkpointOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8'));

/** A run paused at the Send confirmation, in `mode`. */
async function pausedRun(runId: string, mode?: 'flash' | 'pro') {
  const first = await ctx.rig().agent({ confirm: () => 'deferred' });
  const paused = await runAgent(first.deps, {
    goal: SEND,
    maxSteps: 17,
    runsDir: ctx.runsDir(),
    runId,
    mode,
    settings: { maxBurstActions: 3 },
  });
  await first.close();
  expect(paused.status).toBe('needs_confirmation');
  return paused.runDir;
}

describe('run mode in the checkpoint', () => {
  it('a paused Flash run records its mode and settings, and its resume goes on in them', async () => {
    const runDir = await pausedRun('flash-paused', 'flash');
    expect(await checkpointOf(runDir)).toMatchObject({ mode: 'flash', settings: { maxBurstActions: 3 } });
    const second = await ctx.rig().agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir });
    await second.close();
    expect(resumed.status).toBe('done');
    // Written from the resumed run's state: a resume that forgot the mode would write pro here.
    expect(await checkpointOf(runDir)).toMatchObject({ mode: 'flash', settings: { maxBurstActions: 3 } });
  });

  it('a checkpoint written before modes (no mode, no settings) loads and resumes as Pro', async () => {
    const runDir = await pausedRun('old-checkpoint', 'flash');
    const { mode: _m, settings: _s, ...old } = await checkpointOf(runDir);
    await writeFile(path.join(runDir, 'checkpoint.json'), JSON.stringify(old));
    expect((await CheckpointStore.load(runDir)).data.mode).toBeUndefined();
    const second = await ctx.rig().agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir });
    await second.close();
    expect(resumed.status).toBe('done');
    expect(await checkpointOf(runDir)).toMatchObject({ mode: 'pro', settings: { maxBurstActions: 8 } });
  });

  it('a checkpoint naming an unknown mode is refused with the file named', async () => {
    const runDir = await pausedRun('bad-mode', 'pro');
    await writeFile(
      path.join(runDir, 'checkpoint.json'),
      JSON.stringify({ ...(await checkpointOf(runDir)), mode: 'turbo' }),
    );
    await expect(CheckpointStore.load(runDir)).rejects.toThrow(/checkpoint\.json is not a valid checkpoint/);
  });

  it('explore runs no task: runAgent says which command does, before touching the phone', async () => {
    const agent = await ctx.rig().agent({ confirm: () => 'denied' });
    const before = ctx.rig().phone.world.events.length;
    const run = runAgent(agent.deps, {
      goal: SEND,
      maxSteps: 5,
      runsDir: ctx.runsDir(),
      runId: 'explore',
      mode: 'explore',
    });
    await expect(run).rejects.toThrow(ActionableError);
    await expect(run).rejects.toThrow(/phone-agent explore/);
    await agent.close();
    expect(ctx.rig().phone.world.events.length).toBe(before);
  });
});

describe("Flash's pending plan in the checkpoint", () => {
  const base = { runId: 'r', goal: 'g', dryRun: false, maxSteps: 5, plan: [], usage: emptyUsage(), at: 0 };

  it('a Flash run that sent plan=[] resumes with its plan complete, not pending again', () => {
    const st = newState({ ...base, mode: 'flash' });
    expect(st.planPending).toBe(true);
    expect(deserialize(serialize(st)).planPending).toBe(true);
    const planned = { ...st, planPending: undefined };
    expect(deserialize(serialize(planned)).planPending).toBeUndefined();
  });

  it('a Flash checkpoint written before the field was: no subgoals reads as pending', () => {
    const { planPending: _, ...old } = serialize(newState({ ...base, mode: 'flash' }));
    expect(deserialize(old as Checkpoint).planPending).toBe(true);
    expect(deserialize(serialize(newState({ ...base, mode: 'pro' }))).planPending).toBeUndefined();
  });
});
