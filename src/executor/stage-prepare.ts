import { Progress } from '../core/progress.js';
import { type Action, type Decision, DecisionSchema, type Observation } from '../core/types.js';
import { prepareRequest, refuse } from './dispatch.js';
import type { RunHooks } from './executor.js';
import { type Job, noneReceipt, refused, type Staged, type StageEnv } from './job.js';
import { withFullSelectors } from './native-args.js';
import { aimAt } from './targets.js';
import { canRun } from './tool-spec.js';

/**
 * Stage 1, prepare: the decision is well-formed, its tool known and runnable on this device, the
 * action grounded on the observation it was decided on (what it aims at, its device request
 * validated in full) — everything is checked before anything is sent. A terminal tool ends here.
 * The re-check against the live screen is not here: it is the act stage's last read before the
 * input, after consent and pacing (a person may take minutes; the screen moves meanwhile).
 */

export function prepare(env: StageEnv, decision: Decision, obs: Observation, hooks: RunHooks): Staged<Job> {
  const { clock, device, tools } = env.deps;
  const parsed = DecisionSchema.safeParse(decision);
  if (!parsed.success)
    return refused(
      noneReceipt(
        clock,
        'not_started',
        'INVALID_ARGUMENT',
        `invalid decision: ${parsed.error.issues[0]?.message}; an action needs a tool and an expect`,
      ),
    );
  const spec = tools.get(parsed.data.action.tool);
  if (!spec)
    return refused(
      noneReceipt(
        clock,
        'not_started',
        'INVALID_ARGUMENT',
        `unknown tool ${parsed.data.action.tool}; use one of: ${[...tools.keys()].join(', ')}`,
      ),
    );
  const full = withFullSelectors(parsed.data.action, obs);
  const action = spec.bind?.(full, obs, tools) ?? full;
  if (spec.terminal) return { end: { ok: true, reads: 0, changes: [], receipt: noneReceipt(clock, 'completed') } };
  if (!canRun(spec, device.capabilities()))
    return refused(
      noneReceipt(
        clock,
        'not_started',
        'UNSUPPORTED',
        `${action.tool} is not supported by the connected device (${device.capabilities().detail ?? device.name}); pick an offered tool`,
      ),
    );
  const budget = budgetOf(action, hooks, env.deps.actionTimeoutMs);
  const progress = actionProgress(env, hooks, budget.total);
  const aim = aimAt(spec, action, obs);
  if (!aim.ok) return refused(refuse(progress, aim.code, aim.message).receipt);
  const carried = { target: aim.element };
  const n = prepareRequest(spec, action, obs);
  if (n.ok) env.fields?.learn(action, spec, obs, aim.element);
  if (!n.ok) return refused(n.call(progress).receipt, carried);
  return { next: { decision: parsed.data, spec, action, obs, hooks, budget, progress, aim, native: n.req, carried } };
}

/**
 * The action's one deadline: waits and scrolls carry their own budget (≤ 30 s) that it must cover;
 * with a dispatch budget from the caller, it is that plus the verification's.
 */
function budgetOf(a: Action, hooks: RunHooks, actionTimeoutMs = 15_000): { total: number; dispatch?: number } {
  const own = typeof a.args?.timeout_ms === 'number' ? a.args.timeout_ms + 5_000 : 0;
  if (hooks.dispatchTimeoutMs === undefined) return { total: Math.max(actionTimeoutMs, Math.min(own, 35_000)) };
  const dispatch = Math.max(hooks.dispatchTimeoutMs, Math.min(own, 35_000));
  return { total: dispatch + (hooks.verifyTimeoutMs ?? 0), dispatch };
}

/** The action's Progress: a child of the run's (never outlives it, cancelled with it), or its own. */
export function actionProgress(env: StageEnv, hooks: RunHooks, ms: number): Progress {
  return hooks.progress ? hooks.progress.child(ms) : Progress.start(env.deps.clock, { timeoutMs: ms });
}
