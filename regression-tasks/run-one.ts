import { PageMemory } from '../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { modelSeed, runTask } from './harness.js';
import { referenceCatalog, TASKS } from './index.js';

/** Debug helper: `tsx regression-tasks/run-one.ts SET-01 [seed] [noise] [dialog|banner]` prints every step. */
const [id = 'SET-01', seedArg = '1', noiseArg = '0', interruptArg] = process.argv.slice(2);
const task = TASKS.find((t) => t.id === id);
if (!task) throw new Error(`no task ${id}; known: ${TASKS.map((t) => t.id).join(', ')}`);
const model = await startReferenceModel({
  catalog: referenceCatalog(),
  noise: Number(noiseArg),
  seed: modelSeed(id, Number(seedArg), Number(noiseArg)),
  tokenizer: 'estimate',
});
try {
  const r = await runTask(task, {
    seed: Number(seedArg),
    modelUrl: model.url,
    memory: new PageMemory(),
    runsDir: 'runs',
    interrupt: interruptArg as 'dialog' | 'banner' | undefined,
  });
  console.log(
    `${r.task} "${r.goal}" → ${r.run.status} ${r.run.answer ?? ''} check=${JSON.stringify(r.check)} calls=${r.run.llm.calls}`,
  );
  for (const s of r.run.stepLog)
    console.log(`  ${s.step} [${s.source}] ${s.subgoal} :: ${s.action} → ${s.ok ? 'ok' : 'FAIL'} ${s.note ?? ''}`);
  console.log(`  run folder: ${r.run.runDir}`);
} finally {
  await model.close();
}
