import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { runAgent } from '../../src/agent/loop.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { ActionableError } from '../../src/core/errors.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import { type Rig, startRig } from './support/agent-rig.js';

const SEND = 'Text 15551234567: "On my way".';

let model: ReferenceModel;
let runsDir: string;
let rig: Rig;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-resume-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});
beforeEach(async () => {
  rig = await startRig({ modelUrl: model.url });
});
afterEach(async () => {
  await rig.close();
});

const checkpointOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8'));
const stepFiles = async (dir: string) => (await readdir(path.join(dir, 'steps'))).filter((f) => f.endsWith('.json'));

/** Ports whose process "dies" on the first dispatch after a confirmation: before or after it reaches the phone. */
function dyingAt(when: 'before' | 'after', confirmed: { value: boolean }) {
  return (ports: AgentPorts): AgentPorts => ({
    ...ports,
    execute: async (req) => {
      if (when === 'before')
        return ports.execute({
          ...req,
          events: async (e) => {
            await req.events(e);
            if (confirmed.value) throw new Error('process killed before dispatch');
          },
        });
      const out = await ports.execute(req);
      if (confirmed.value) throw new Error('process killed after dispatch');
      return out;
    },
  });
}

describe('resume', () => {
  it('continues a run paused for confirmation: approved on resume, sent once, steps numbered on', async () => {
    const first = await rig.agent({ confirm: () => 'deferred' });
    const paused = await runAgent(first.deps, { goal: SEND, maxSteps: 17, runsDir });
    await first.close();
    expect(paused.status).toBe('needs_confirmation');
    expect(rig.phone.world.sent).toHaveLength(0);
    const stepsBefore = await stepFiles(paused.runDir);

    const second = await rig.agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir: paused.runDir });
    await second.close();
    expect(resumed.status).toBe('done');
    expect(rig.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
    expect(second.confirmations.map((c) => c.summary)).toEqual([expect.stringMatching(/Send/)]);
    // The resumed steps follow the paused ones; none is overwritten.
    expect(resumed.stepLog[0]?.step).toBe(stepsBefore.length + 1);
    expect(await stepFiles(paused.runDir)).toHaveLength(stepsBefore.length + resumed.stepLog.length);
    const cp = await checkpointOf(paused.runDir);
    expect(cp).toMatchObject({ status: 'done', resumes: [expect.any(Number)] });
    expect(cp.pendingConfirmation).toBeUndefined();
  });

  it('never repeats an irreversible action that reached the phone before the process died', async () => {
    const confirmed = { value: false };
    const first = await rig.agent({
      confirm: () => {
        confirmed.value = true;
        return 'approved';
      },
      wrap: dyingAt('after', confirmed),
    });
    await expect(runAgent(first.deps, { goal: SEND, maxSteps: 17, runsDir, runId: 'killed-after' })).rejects.toThrow(
      /killed after dispatch/,
    );
    await first.close();
    const runDir = path.join(runsDir, 'killed-after');
    const cp = await checkpointOf(runDir);
    expect(cp.status).toBe('interrupted');
    expect(cp.intent.summary).toMatch(/Send/);
    expect(rig.phone.world.sent).toHaveLength(1);

    // The worst case: the resumed process would approve anything.
    const second = await rig.agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir });
    await second.close();
    expect(rig.phone.world.sent, JSON.stringify([resumed.stepLog, await checkpointOf(runDir)], null, 1)).toHaveLength(
      1,
    );
    expect(second.confirmations).toHaveLength(0);
    expect(resumed.status).toBe('done');
    const after = await checkpointOf(runDir);
    expect(after.intent).toBeUndefined();
    expect(after.history.map((h: { note?: string }) => h.note).join('\n')).toMatch(/took effect: do not repeat/);
  });

  it('asks again for an irreversible action the process died before dispatching', async () => {
    const confirmed = { value: false };
    const first = await rig.agent({
      confirm: () => {
        confirmed.value = true;
        return 'approved';
      },
      wrap: dyingAt('before', confirmed),
    });
    await expect(runAgent(first.deps, { goal: SEND, maxSteps: 17, runsDir, runId: 'killed-before' })).rejects.toThrow(
      /killed before dispatch/,
    );
    await first.close();
    expect(rig.phone.world.sent).toHaveLength(0);

    const second = await rig.agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir: path.join(runsDir, 'killed-before') });
    await second.close();
    expect(second.confirmations.map((c) => c.summary)).toEqual([expect.stringMatching(/Send/)]);
    expect(rig.phone.world.sent).toHaveLength(1);
    expect(resumed.status).toBe('done');
  });

  it('replans from the current screen when the phone moved on while the run was stopped', async () => {
    const first = await rig.agent({ confirm: () => 'deferred' });
    const paused = await runAgent(first.deps, { goal: SEND, maxSteps: 17, runsDir });
    await first.close();
    expect(paused.status).toBe('needs_confirmation');
    await rig.phone.key('home');
    const second = await rig.agent({ confirm: () => 'approved' });
    const notes: string[] = [];
    second.deps.onEvent = (e) => {
      if (e.kind === 'resume') notes.push(...e.notes);
    };
    const resumed = await resumeAgent(second.deps, { runDir: paused.runDir });
    await second.close();
    expect(notes.join('\n')).toMatch(/screen differs/);
    expect(resumed.status).toBe('done');
    expect(rig.phone.world.sent).toHaveLength(1);
  });

  it('refuses clearly: an ended run, a credential not given again, a used-up budget', async () => {
    const a = await rig.agent({ confirm: () => 'approved' });
    const done = await runAgent(a.deps, { goal: 'Turn Wi-Fi off', maxSteps: 11, runsDir });
    expect(done.status).toBe('done');
    await expect(resumeAgent(a.deps, { runDir: done.runDir })).rejects.toThrow(/already ended \(done/);

    setAcmeAccount(rig.phone.world, { email: 'ann@example.com', password: 'Pw-93x' });
    const login = await runAgent(a.deps, {
      goal: 'Log into Acme as ann@example.com with password Pw-93x.',
      maxSteps: 1,
      runsDir,
    });
    expect(login.status).toBe('budget');
    const cp = await checkpointOf(login.runDir);
    expect(JSON.stringify(cp)).not.toContain('Pw-93x');
    const err = await resumeAgent(a.deps, { runDir: login.runDir, extraSteps: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect(String(err)).toMatch(/credential.*--task/);
    await expect(
      resumeAgent(a.deps, { runDir: login.runDir, goal: 'Log into Acme as bob@example.com with password Pw-93x.' }),
    ).rejects.toThrow(/does not match/);
    await expect(
      resumeAgent(a.deps, { runDir: login.runDir, goal: 'Log into Acme as ann@example.com with password Pw-93x.' }),
    ).rejects.toThrow(/budget of 1 steps.*--more-steps/);
    const resumed = await resumeAgent(a.deps, {
      runDir: login.runDir,
      goal: 'Log into Acme as ann@example.com with password Pw-93x.',
      extraSteps: 12,
    });
    await a.close();
    expect(resumed.status).toBe('done');
    expect(rig.phone.world.session.user).toBe('ann@example.com');
  });
});
