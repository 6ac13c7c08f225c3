import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import type { StepRecord } from '../../src/agent/types.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { MAPS_PACKAGE } from '../../src/testbed/sim/apps/maps.js';

/**
 * The virtual phone's Android 11+ location prompt (While using the app / Only this time / Don't
 * allow) on Maps, end to end with the reference model: the interrupt rule grants the narrowest
 * option, the world records that grant, and the step record and the history say what was asked
 * and granted. A prompt offering only "Allow all the time" or "Deny", or asking for what the task
 * does not need, is never answered by the rule: the run stops and asks the user.
 */

let model: ReferenceModel;
let runsDir: string;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-permission-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

const MAP_01 = TASKS.find((t) => t.id === 'MAP-01');
if (!MAP_01) throw new Error('no task MAP-01');

async function stepRecords(runDir: string): Promise<StepRecord[]> {
  const dir = path.join(runDir, 'steps');
  const files = (await readdir(dir)).filter((f) => /^\d+\.json$/.test(f)).sort();
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StepRecord));
}

describe('permission dialog on the virtual phone', () => {
  it('the rule grants "Only this time", the task completes and the report says what was granted', async () => {
    const task: TaskDef = {
      ...MAP_01,
      setup: (phone) => {
        phone.world.permissions.location = 'unasked';
      },
    };
    let location: string | undefined;
    const r = await runTask(
      {
        ...task,
        check: (w, run, p, phone) => {
          location = w.permissions.location;
          return MAP_01.check(w, run, p, phone);
        },
      },
      { seed: 1, modelUrl: model.url, memory: new PageMemory(), runsDir },
    );
    expect(r.check).toEqual({ ok: true });
    expect(location).toBe('once');
    const rule = (await stepRecords(r.run.runDir)).filter((s) => s.source === 'rule');
    expect(rule).toHaveLength(1);
    const said = "Maps asked for this device's location: allowed only this time";
    expect(rule[0]?.decision?.thought).toBe(said);
    expect(rule[0]?.ok).toBe(true);
    // The model reads what was asked and granted in its history, marked as not its own action.
    const cp = JSON.parse(await readFile(path.join(r.run.runDir, 'checkpoint.json'), 'utf8')) as {
      history: { note?: string; by?: string }[];
    };
    expect(cp.history.find((h) => h.by === 'rule')?.note).toBe(said);
  });

  it('a permission the task does not need stops the run and asks the user, the dialog named', async () => {
    const set01 = TASKS.find((t) => t.id === 'SET-01');
    if (!set01) throw new Error('no task SET-01');
    const task: TaskDef = {
      ...set01,
      setup: async (phone, p) => {
        await set01.setup?.(phone, p);
        const ask = () => {
          if (phone.foreground().package !== 'com.android.settings') return phone.at(phone.clock.now() + 100, ask);
          phone.popup({
            kind: 'system',
            title: 'Allow Settings to access this device’s location?',
            buttons: [
              { text: 'While using the app', onTap: () => (phone.world.permissions.location = 'while_using') },
              { text: 'Only this time', onTap: () => (phone.world.permissions.location = 'once') },
              { text: "Don't allow", onTap: () => (phone.world.permissions.location = 'denied') },
            ],
          });
        };
        ask();
      },
      check: (w) => {
        location = w.permissions.location;
        return { ok: true };
      },
    };
    let location: string | undefined;
    const r = await runTask(task, { seed: 1, modelUrl: model.url, memory: new PageMemory(), runsDir });
    expect(r.run.status).toBe('ask_user');
    expect(r.run.reason).toBe(
      'Settings asks for this device\'s location ("While using the app" / "Only this time" / "Don\'t allow"): the task does not need it. Granting access is your decision — answer the dialog on the phone, then resume the run',
    );
    expect(location).toBeUndefined();
    expect((await stepRecords(r.run.runDir)).map((s) => s.source)).not.toContain('rule');
  });

  it('a prompt offering only "Allow all the time" or "Deny" is handed over, never granted by rule', async () => {
    let location: string | undefined;
    const task: TaskDef = {
      ...MAP_01,
      setup: (phone) => {
        const ask = () => {
          if (phone.foreground().package !== MAPS_PACKAGE) return phone.at(phone.clock.now() + 100, ask);
          phone.popup({
            kind: 'system',
            title: 'Allow Maps to access this device’s location in the background?',
            buttons: [
              {
                text: 'Allow all the time · 始终允许',
                onTap: () => {
                  phone.world.permissions.location = 'always';
                },
              },
              { text: 'Deny · 拒绝', onTap: () => (phone.world.permissions.location = 'denied') },
            ],
          });
        };
        ask();
      },
      check: (w) => {
        location = w.permissions.location;
        return { ok: true };
      },
    };
    const r = await runTask(task, { seed: 1, modelUrl: model.url, memory: new PageMemory(), runsDir });
    const steps = await stepRecords(r.run.runDir);
    // No rule answered it and nothing else did: the run stopped and asked, naming the dialog.
    expect(steps.map((s) => s.source)).not.toContain('rule');
    expect(location).not.toBe('always');
    expect(r.run.status).toBe('ask_user');
    expect(r.run.reason).toContain(
      'Maps asks for this device\'s location ("Allow all the time · 始终允许" / "Deny · 拒绝"): only a standing grant is offered',
    );
  });
});
