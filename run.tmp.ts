import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runTask } from './regression-tasks/harness.js';
import { referenceCatalog, TASKS } from './regression-tasks/index.js';
import { PageMemory } from './src/planner/memory/page-memory.js';
import { startReferenceModel } from './src/testbed/reference-model/server.js';
const model = await startReferenceModel({ catalog: referenceCatalog(), noise: Number(process.env.NOISE ?? 0), seed: 1, tokenizer: 'estimate' });
const runsDir = await mkdtemp(path.join(tmpdir(), 'pa-rec-'));
for (const id of (process.env.TASKS ?? 'REC-01,REC-02,REC-03').split(',')) for (const seed of [1, 2, 3, 4, 5]) {
  const t = TASKS.find((x) => x.id === id)!;
  const t0 = Date.now();
  const r = await runTask(t, { seed, modelUrl: model.url, memory: new PageMemory(), runsDir });
  console.log(id, seed, r.goal, JSON.stringify(r.check), r.run.status, r.run.steps, `${Date.now() - t0}ms`);
  if (!r.check.ok || process.env.V) for (const s of r.run.stepLog) console.log('   ', s.step, s.action, s.ok ? 'ok' : 'FAIL', (s.note ?? '').slice(0, 400));
}
await model.close();
