import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { SET_01 } from '../../regression-tasks/tasks/set-01.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import { maskSecrets, unmask } from '../../src/agent/secrets.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

let model: ReferenceModel;
let runsDir: string;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-cache-'));
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

/** "Turn Wi-Fi off." always, with the starting state chosen by the test. */
const wifiOff = (startsOn: boolean): TaskDef => ({
  ...SET_01,
  params: () => ({ state: 'off' }),
  setup: (phone) => {
    phone.world.settings.wifi = startsOn;
  },
});

describe('page memory is a verified replay cache', () => {
  it('replays without the LLM while expectations pass, and falls back the moment one fails', async () => {
    const memory = new PageMemory();
    const cold = await runTask(wifiOff(true), { seed: 1, modelUrl: model.url, memory, runsDir });
    expect(cold.check.ok).toBe(true);
    expect(cold.run.cacheHits).toBe(0);

    const warm = await runTask(wifiOff(true), { seed: 1, modelUrl: model.url, memory, runsDir });
    expect(warm.check.ok).toBe(true);
    // Settings → Network & internet → Internet → the Wi-Fi switch: every page's step comes from the cache.
    expect(warm.run.stepLog.filter((s) => s.source === 'cache' && s.ok).length).toBeGreaterThanOrEqual(3);

    // Make the remembered Wi-Fi tap stale: its target is no longer on the page, while its
    // expectation still says "Wi-Fi off". The replay fails, the entry is evicted at once and the
    // model decides the step again.
    const data = memory.toJSON();
    const entry = Object.values(data.entries).find((e) => e.decision.expect.kind === 'element_state');
    expect(entry).toBeTruthy();
    entry!.decision.action.target_id = 'deadbeef';
    const stale = await runTask(wifiOff(true), { seed: 1, modelUrl: model.url, memory: new PageMemory(data), runsDir });
    const failedReplay = stale.run.stepLog.find((s) => s.source === 'cache' && !s.ok);
    expect(failedReplay, JSON.stringify(stale.run.stepLog, null, 1)).toBeDefined();
    const after = stale.run.stepLog.slice(stale.run.stepLog.indexOf(failedReplay!) + 1);
    // The model then does the step itself.
    expect(after[0]).toMatchObject({ source: 'llm', ok: true });
    expect(after[0]?.action).toMatch(/"Wi-Fi"/);
    expect(stale.check).toEqual({ ok: true });
  });
});

describe('a replayed toggle', () => {
  it('is skipped when the switch is already in the state the memory expects (XAPP-02)', async () => {
    const { SET_02 } = await import('../../regression-tasks/tasks/set-02.js');
    const memory = new PageMemory();
    // "Turn Bluetooth off." with Bluetooth on: the run learns the tap on "Use Bluetooth".
    const startsOn: TaskDef = {
      ...SET_02,
      setup: (phone) => {
        phone.world.settings.bluetooth = true;
      },
      check: (w) => (w.settings.bluetooth ? { ok: false, reason: 'still on' } : { ok: true }),
    };
    const cold = await runTask(startsOn, { seed: 1, modelUrl: model.url, memory, runsDir });
    expect(cold.check).toEqual({ ok: true });
    const toggle = Object.values(memory.toJSON().entries).find((e) => e.decision.expect.kind === 'element_state');
    expect(toggle?.decision.expect.state).toBe('off');
    // The same goal with Bluetooth already off (SET-02): the switch's page has the same hash (checked
    // state is not in it), so a blind replay of the remembered tap would turn Bluetooth back on.
    const warm = await runTask(SET_02, { seed: 1, modelUrl: model.url, memory, runsDir });
    expect(warm.check, JSON.stringify(warm.run.stepLog, null, 1)).toEqual({ ok: true });
    expect(warm.run.stepLog.some((s) => s.source === 'cache')).toBe(true);
    expect(warm.run.stepLog.filter((s) => s.source === 'cache' && /Use Bluetooth/.test(s.action ?? ''))).toEqual([]);
  });
});

describe('secrets in the goal', () => {
  it('are masked for everything but dispatch', () => {
    const m = maskSecrets('Log into Acme as a@b.c with password Hunter-22.');
    expect(m.goal).toBe('Log into Acme as a@b.c with password ⟨secret1⟩.');
    expect(unmask('type ⟨secret1⟩', m.secrets)).toBe('type Hunter-22');
    expect(maskSecrets('用a@b.c和密码Mm-12k登录Acme').goal).toBe('用a@b.c和密码⟨secret1⟩登录Acme');
    expect(maskSecrets('Turn Wi-Fi off.').secrets.size).toBe(0);
  });
});

describe('a guarded action in a non-interactive run', () => {
  it('pauses with the pending confirmation in the checkpoint and sends nothing', async () => {
    const { MSG_01 } = await import('../../regression-tasks/tasks/msg-01.js');
    const task: TaskDef = {
      ...MSG_01,
      confirm: 'defer',
      check: (w, run) =>
        w.sent.length === 0 && run.status === 'needs_confirmation' ? { ok: true } : { ok: false, reason: run.status },
    };
    const r = await runTask(task, { seed: 1, modelUrl: model.url, memory: new PageMemory(), runsDir });
    expect(r.check).toEqual({ ok: true });
    const cp = JSON.parse(await readFile(path.join(r.run.runDir, 'checkpoint.json'), 'utf8'));
    expect(cp.status).toBe('needs_confirmation');
    expect(cp.pendingConfirmation.summary).toMatch(/Send/);
    expect(cp.pendingConfirmation.decision.action.tool).toBe('tap');
  });
});
