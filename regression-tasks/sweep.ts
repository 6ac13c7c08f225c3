import { PageMemory } from '../src/planner/memory/page-memory.js';
import { startReferenceModel } from '../src/testbed/reference-model/server.js';
import { modelSeed, runTask } from './harness.js';
import { referenceCatalog, TASKS } from './index.js';

/** Debug helper: `tsx regression-tasks/sweep.ts NOISE SEEDS [ID…]` prints the trace of every failing run. */
const [noiseArg = '0.2', seedsArg = '3', ...ids] = process.argv.slice(2);
const noise = Number(noiseArg);
let ok = 0;
let n = 0;
for (const task of TASKS.filter((t) => ids.length === 0 || ids.includes(t.id))) {
  for (let seed = 1; seed <= Number(seedsArg); seed++) {
    const model = await startReferenceModel({
      catalog: referenceCatalog(),
      noise,
      seed: modelSeed(task.id, seed, noise),
      tokenizer: 'estimate',
    });
    const r = await runTask(task, { seed, modelUrl: model.url, memory: new PageMemory(), runsDir: '/tmp/sweep-runs' });
    await model.close();
    n++;
    if (r.check.ok) {
      ok++;
      continue;
    }
    console.log(
      `${r.task}#${seed} "${r.goal}" → ${r.run.status} ${r.run.reason ?? ''} check=${JSON.stringify(r.check)}`,
    );
    for (const s of r.run.stepLog)
      console.log(
        `  ${s.step} [${s.source}] ${s.subgoal} :: ${s.action} → ${s.ok ? 'ok' : 'FAIL'} ${s.note ?? ''} (reasks ${s.llm.reasks})`,
      );
  }
}
console.log(`${ok}/${n} passed at noise ${noise}`);
