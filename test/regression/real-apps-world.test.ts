import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { REAL_APP_TASKS } from '../../regression-tasks/real-apps/index.js';
import { judgeReplay } from '../../regression-tasks/real-apps/run.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { recordSimRun } from '../testbed/replay/record-sim.js';

/**
 * `--world replay` without ../shared: a real-app task on a graph the project records from its own
 * virtual phone, run by the suite's harness on the replay phone with the reference model; its check
 * (the recorded end state, the answer); the flag choosing the world's tasks.
 */

let dir: string;
let states: string[];
const dirs: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'real-app-world-'));
  dirs.push(dir);
  states = (
    await recordSimRun(new VirtualPhone({ seed: 2 }), dir, [
      { intent: 'com.android.settings/.Settings' },
      { touch: 'Network & internet' },
      { touch: 'Internet' },
    ])
  ).states;
});
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function task(over: Partial<TaskDef> = {}): TaskDef {
  return {
    id: 'REC-SIM-01',
    category: 'real-apps',
    tags: ['real-app'],
    instruction: 'Open the Internet settings.',
    replay: { graph: dir, start: states[1], end: [states[3] as string] },
    check: () => ({ ok: false, reason: 'judged on the graph' }),
    optimalSteps: 3,
    intents: ['tap "Network & internet"', 'tap "Internet"', 'done'],
    ...over,
  };
}

async function run(t: TaskDef) {
  const model = await startReferenceModel({ catalog: referenceCatalog([t]), tokenizer: 'estimate' });
  const runsDir = await mkdtemp(path.join(tmpdir(), 'real-app-runs-'));
  dirs.push(runsDir);
  try {
    return await runTask(t, { seed: 1, memory: new PageMemory(), runsDir, modelUrl: model.url });
  } finally {
    await model.close();
  }
}

describe('the replay world of the suite', () => {
  it('runs a real-app task on its recorded graph and checks where it ended', async () => {
    const r = await run(task());
    expect(r.run.status).toBe('done');
    expect(r.check).toEqual({ ok: true });
    expect(r.replay).toMatchObject({ actions: 2, offGraph: 0, endState: states[3] });
    expect(r.falseDone).toBe(false);
  });

  it('a done on another recorded state, or a wrong answer, is a failure (a false done)', async () => {
    const short = await run(task({ id: 'REC-SIM-02', intents: ['tap "Network & internet"', 'done'] }));
    expect(short.run.status).toBe('done');
    expect(short.check.ok).toBe(false);
    expect(short.check.reason).toMatch(/not on the task's end/);
    expect(short.falseDone).toBe(true);
    const graph = await loadDroidbotGraph(dir);
    const end = new Set([graph.first]);
    const spec = { graph: dir, end: [graph.first], answer: /HomeNet/ };
    expect(judgeReplay(spec, end, { status: 'done', answer: 'HomeNet' }, graph.first)).toEqual({ ok: true });
    expect(judgeReplay(spec, end, { status: 'done', answer: 'Guest' }, graph.first).ok).toBe(false);
    expect(judgeReplay(spec, end, { status: 'ask_user', answer: 'HomeNet' }, graph.first).ok).toBe(false);
  });

  it('--world replay chooses the real-app tasks, --world sim (the default) the virtual phone’s', () => {
    const catalog = [...TASKS, ...REAL_APP_TASKS];
    const replay = parseSuiteArgs(['--model', 'reference', '--world', 'replay'], {}, catalog);
    if (!replay.ok) throw new Error(replay.message);
    expect(replay.args.world).toBe('replay');
    expect(replay.args.tasks.map((t) => t.id)).toEqual(REAL_APP_TASKS.map((t) => t.id));
    const sim = parseSuiteArgs(['--model', 'reference'], {}, catalog);
    if (!sim.ok) throw new Error(sim.message);
    expect(sim.args.tasks.every((t) => !t.replay)).toBe(true);
    expect(sim.args.tasks.length).toBe(TASKS.length);
    const bad = parseSuiteArgs(['--model', 'reference', '--world', 'mars'], {}, catalog);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/--world must be sim or replay/);
    const wrong = parseSuiteArgs(['--model', 'reference', '--tasks', 'SET-01', '--world', 'replay'], {}, catalog);
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.message).toMatch(/unknown task\(s\) SET-01 in --world replay/);
  });
});
