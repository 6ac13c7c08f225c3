import { runAgent } from '../../src/agent/loop.js';
import type { RunResult } from '../../src/agent/types.js';
import { composeAgent } from '../../src/compose/agent.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { newRunId } from '../../src/store/run-archive.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import type { TaskRunOptions, TaskRunResult } from '../harness.js';
import type { ConfirmationRecord } from '../metrics.js';
import { taskPolicy } from '../task-policy.js';
import { type CheckResult, instantiate, stepBudget, type TaskDef } from '../types.js';
import { loadTaskGraph, stateNamed } from './graphs.js';
import type { ReplayRunStats, ReplayTaskSpec } from './spec.js';

/**
 * One real-app task on the replay phone: its recorded graph from the start state, the product's
 * factory and loop (`phone-agent run`'s), and the check on where the run ended — a recorded end
 * state, and for a question the answer. Every input's outcome is counted; an off-graph one (the
 * recording does not say what it does) is reported, and the state stays as it was.
 */

export function judgeReplay(
  spec: ReplayTaskSpec,
  ends: ReadonlySet<string>,
  run: Pick<RunResult, 'status' | 'answer'>,
  endState: string,
): CheckResult {
  if (run.status !== 'done') return { ok: false, reason: `the run ended ${run.status}` };
  if (!ends.has(endState))
    return { ok: false, reason: `ended on recorded state ${endState.slice(0, 8)}, not on the task's end` };
  if (spec.answer && !spec.answer.test(run.answer ?? ''))
    return { ok: false, reason: `answered ${JSON.stringify(run.answer ?? '')}, expected ${spec.answer}` };
  return { ok: true };
}

export async function runReplayTask(task: TaskDef, spec: ReplayTaskSpec, opts: TaskRunOptions): Promise<TaskRunResult> {
  const logger = opts.logger ?? new Logger('agent', { sink: () => {} });
  const graph = await loadTaskGraph(spec.graph);
  const start = spec.start ? stateNamed(graph, spec.start) : graph.first;
  const ends = new Set(spec.end.map((e) => stateNamed(graph, e)));
  const clock = new VirtualClock();
  const startedAt = clock.now();
  const phone = await ReplayPhone.open({ graph, start, clock });
  const { params, goal } = instantiate(task, opts.seed);
  const confirmations: ConfirmationRecord[] = [];
  const agent = await composeAgent({
    device: { kind: 'replay', phone },
    model: opts.llmConfig ? { config: opts.llmConfig } : { baseUrl: opts.modelUrl, model: 'reference' },
    // A recording keeps no world: there are no irreversible events to order confirmations against.
    confirm: taskPolicy(task, confirmations, clock, () => 0),
    memory: opts.memory,
    knowledgeStore: opts.knowledgeStore,
    clock,
    logger,
    // Recorded screenshots exist for every state: a vision model is shown them, as `run` would.
    screenshots: opts.screenshots ?? opts.llmConfig?.vision === true,
    seed: opts.seed,
    perf: opts.perf,
  });
  try {
    const run = await runAgent(agent.deps, {
      goal,
      maxSteps: stepBudget(task),
      runsDir: opts.runsDir,
      mode: opts.mode,
      runId: newRunId(Date.now(), Math.random, `${task.id}-s${opts.seed}`),
    });
    const check = judgeReplay(spec, ends, run, phone.state);
    const off = phone.offGraph();
    const replay: ReplayRunStats = {
      graph: graph.name,
      actions: phone.log.length,
      offGraph: off.length,
      offGraphInputs: off.map((s) => `${s.input}: ${s.detail}`),
      inferred: phone.inferred().length,
      endState: phone.state,
    };
    return {
      task: task.id,
      seed: opts.seed,
      goal,
      params,
      run,
      check,
      taskCheck: check,
      falseDone: run.status === 'done' && !check.ok,
      confirmations,
      events: [],
      changed: [],
      verified: true,
      phoneMs: clock.now() - startedAt,
      replay,
    };
  } finally {
    await agent.close();
  }
}
