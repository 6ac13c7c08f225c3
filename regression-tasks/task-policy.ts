import { callbackConfirmation } from '../src/compose/agent.js';
import type { Clock } from '../src/core/clock.js';
import type { ConfirmationChannel } from '../src/executor/guardrails/confirm.js';
import type { ConfirmationRecord } from './metrics.js';
import type { TaskDef } from './types.js';

/**
 * How the harness answers a task's confirmation requests — its `confirm` policy (default: approve)
 * — logging each answer with the phone's time and how many irreversible events the world had then,
 * which orders confirmations against events (metrics.ts).
 */
/** A confirmation answered by the task's policy, by its summary (default: approve). */
export function taskVerdict(task: TaskDef, summary: string): 'approved' | 'denied' | 'deferred' {
  const answer = typeof task.confirm === 'function' ? task.confirm(summary) : (task.confirm ?? 'approve');
  return answer === 'deny' ? 'denied' : answer === 'defer' ? 'deferred' : 'approved';
}

export function taskPolicy(
  task: TaskDef,
  log: ConfirmationRecord[],
  clock: Clock,
  eventIndex: () => number,
): ConfirmationChannel {
  return callbackConfirmation('task policy', (req) => {
    const v = taskVerdict(task, req.summary);
    log.push({ verdict: v, at: clock.now(), eventIndex: eventIndex(), summary: req.summary });
    return v;
  });
}
