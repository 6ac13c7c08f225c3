import { runAgent } from '../../agent/loop.js';
import type { RunResult } from '../../agent/types.js';
import { callbackConfirmation, composeAgent } from '../../compose/agent.js';
import type { DeviceSpec } from '../../compose/device.js';
import type { ModelSpec } from '../../compose/model.js';
import { type Clock, Deadline } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Device } from '../../device/device.js';
import type { WireSnapshot } from '../../device/protocol/wire.js';
import { PageMemory } from '../../planner/memory/page-memory.js';
import type { Check } from '../commands/doctor.js';
import { runConformanceSuite } from './conformance.js';
import { mask, type StepItem, type VerifyStep } from './report.js';
import { type PhoneFacts, VERIFY_TASKS } from './tasks.js';
import { compareTrees, type TreeComparison } from './tree-compare.js';

/** verify-device's steps after the helper is up: each one a VerifyStep with its items. */

async function timed(name: string, body: () => Promise<Omit<VerifyStep, 'name' | 'ms'>>): Promise<VerifyStep> {
  const t = performance.now();
  try {
    return { name, ...(await body()), ms: Math.round(performance.now() - t) };
  } catch (e) {
    return { name, status: 'fail', detail: mask(errorMessage(e)), ms: Math.round(performance.now() - t) };
  }
}

const worst = (items: readonly StepItem[]) =>
  items.some((i) => i.status === 'fail') ? 'fail' : items.some((i) => i.status === 'warn') ? 'warn' : 'pass';

/** Doctor's lines: a missing font or an unset model is a warning here, a failed device a failure. */
export function doctorStep(checks: readonly Check[], ms: number): VerifyStep {
  const items: StepItem[] = checks.map((c) => ({
    name: c.name.trim(),
    status: c.level === 'ok' ? 'pass' : c.level,
    detail: mask(c.fix && c.level !== 'ok' ? `${c.detail} → ${c.fix}` : c.detail),
  }));
  const bad = items.filter((i) => i.status === 'fail').length;
  return { name: 'doctor', status: worst(items), detail: bad ? `${bad} check(s) failed` : 'ready', ms, items };
}

export function conformanceStep(endpoint: { url: string; token: string }, say: (l: string) => void) {
  return timed('conformance', async () => {
    // A failed check's line says why, so a CI log or a user's terminal shows it without the report.
    const line = (c: { status: string; name: string; detail?: string }) =>
      `  ${c.status === 'pass' ? 'ok  ' : 'FAIL'}  ${c.name}${c.status !== 'pass' && c.detail ? ` — ${mask(c.detail)}` : ''}`;
    const r = await runConformanceSuite(endpoint, (c) => say(line(c)));
    if (!r.ok) return { status: 'fail', detail: r.message };
    const items: StepItem[] = r.results.map((c) => ({ name: c.name, status: c.status, detail: mask(c.detail) }));
    const passed = items.filter((i) => i.status === 'pass').length;
    return { status: worst(items), detail: `${passed}/${items.length} checks passed`, items };
  });
}

export interface TaskRunOptions {
  device: DeviceSpec;
  model: ModelSpec;
  facts: PhoneFacts;
  runsDir: string;
  maxSteps: number;
  logger: Logger;
  say: (l: string) => void;
}

/** Each task run by the agent (the one factory) with every guarded action denied, then checked. */
export function tasksStep(o: TaskRunOptions) {
  return timed('tasks', async () => {
    const items: StepItem[] = [];
    for (const t of VERIFY_TASKS) {
      let item: StepItem;
      try {
        const agent = await composeAgent({
          device: o.device,
          model: o.model,
          confirm: callbackConfirmation('verify-device', () => 'denied'),
          memory: new PageMemory(),
          logger: o.logger,
        });
        let run: RunResult;
        try {
          run = await runAgent(agent.deps, { goal: t.instruction, maxSteps: o.maxSteps, runsDir: o.runsDir });
        } finally {
          await agent.close();
        }
        const c = await t.check(run, o.facts);
        item = {
          name: t.id,
          status: c.ok ? 'pass' : 'fail',
          detail: mask(`${c.detail} · ${run.steps} steps, run ${run.runId}`),
        };
      } catch (e) {
        item = { name: t.id, status: 'fail', detail: mask(errorMessage(e)) };
      }
      o.say(`  ${item.status === 'pass' ? 'ok  ' : 'FAIL'}  ${t.id}  ${item.detail}`);
      items.push(item);
    }
    const passed = items.filter((i) => i.status === 'pass').length;
    return { status: worst(items), detail: `${passed}/${items.length} tasks passed`, items };
  });
}

export interface TreeStepOptions {
  helper: Device;
  dump: Device;
  clock: Clock;
}

/** Settings' first page as the helper reads it and as `uiautomator dump` does, the same screen twice. */
export async function treeStep(o: TreeStepOptions): Promise<{ step: VerifyStep; tree?: TreeComparison }> {
  let tree: TreeComparison | undefined;
  const step = await timed('tree', async () => {
    const d = () => Deadline.after(o.clock, 20_000);
    for (const label of ['Settings', '设置']) if ((await o.helper.launchApp({ label }, d())).ok) break;
    const snap = async (dev: Device): Promise<WireSnapshot> => {
      await o.helper.native({ action: 'wait_until', condition: 'stable', stable_ms: 500, timeout_ms: 5_000 }, d());
      const r = await dev.snapshot({}, d());
      if (!r.ok) throw new Error(`${dev.name} could not read the screen: ${r.message}`);
      return r.snapshot;
    };
    let ours = await snap(o.helper);
    let dump = await snap(o.dump);
    const again = await snap(o.helper);
    // The screen moved between the reads (an animation, a notification): once more.
    if (again.seq !== ours.seq) [ours, dump] = [again, await snap(o.dump)];
    tree = compareTrees(ours, dump);
    const status = tree.agreement >= 0.95 && tree.boundsOff === 0 ? 'pass' : tree.agreement >= 0.8 ? 'warn' : 'fail';
    return {
      status,
      detail: `${tree.foreground}: ${tree.matched} of ${tree.helperLabels} helper / ${tree.dumpLabels} dump labels match (${Math.round(tree.agreement * 100)}%), ${tree.boundsOff} with bounds off by > 8 px`,
    };
  });
  return { step, tree };
}
