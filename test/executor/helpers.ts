import { type Clock, Deadline, VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import type { Decision, Observation } from '../../src/core/types.js';
import { BridgeDevice } from '../../src/device/bridge/device.js';
import type { Device } from '../../src/device/device.js';
import { Executor, type ExecutorDeps } from '../../src/executor/executor.js';
import {
  type ConfirmationAnswer,
  type ConfirmationChannel,
  type ConfirmationRequest,
  PolicyConfirmation,
} from '../../src/executor/guardrails/confirm.js';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone, type VirtualPhoneDeps } from '../../src/testbed/sim/index.js';
import type { InputResult } from '../../src/testbed/sim/surface.js';
import { REGISTRY } from '../../src/tools/index.js';

const INPUT_METHODS = new Set(['gesture', 'tap', 'swipe', 'key', 'inputText', 'imeCommit', 'nodeAction', 'launch']);

/** A virtual phone behind its real bridge server, and a BridgeDevice connected to it. */
export async function bridgeRig(opts: VirtualPhoneDeps & { omitCapabilities?: string[] } = {}) {
  const clock = opts.clock ?? new VirtualClock();
  const phone = new VirtualPhone({ ...opts, clock });
  const inputs = { count: 0, calls: [] as string[] };
  // Count every input that reaches the phone, to prove rejected requests never touched it.
  const counted = new Proxy(phone, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v === 'function' && typeof prop === 'string' && INPUT_METHODS.has(prop)) {
        // A touch the phone refused before injecting (a guard that no longer holds, a stale node)
        // never reached the screen: it is not counted.
        return async (...args: unknown[]) => {
          const r = (await (v as (...a: unknown[]) => unknown).apply(target, args)) as InputResult;
          if (r.ok || (r.code !== 'STALE' && r.code !== 'OCCLUDED')) {
            inputs.count++;
            inputs.calls.push(prop);
          }
          return r;
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const server = await startBridgeServer({
    phone: counted,
    logger: Logger.silent(),
    omitCapabilities: opts.omitCapabilities,
  });
  const device = new BridgeDevice({ url: server.url, token: server.token, clock, logger: Logger.silent() });
  const c = await device.connect(Deadline.after(clock, 5_000));
  if (!c.ok) throw new Error(c.message);
  return {
    clock,
    phone,
    inputs,
    server,
    device,
    async close() {
      await device.close();
      await server.close();
    },
  };
}

export function makeExecutor(device: Device, clock: Clock, extra: Partial<ExecutorDeps> = {}) {
  const confirm: ConfirmationChannel = extra.confirm ?? new PolicyConfirmation({});
  return new Executor({ device, tools: REGISTRY.table, clock, logger: Logger.silent(), confirm, seed: 7, ...extra });
}

export async function observe(ex: Executor, previous?: Observation): Promise<Observation> {
  const r = await ex.observe(previous);
  if (!r.ok) throw new Error(`observe failed: ${r.message}`);
  return r.obs;
}

export function el(obs: Observation, text: string) {
  const e =
    obs.elements.find((x) => x.actionable && (x.text === text || x.desc === text || x.label === text)) ??
    obs.elements.find((x) => x.text === text || x.desc === text || x.label === text);
  if (!e)
    throw new Error(
      `no element "${text}" on ${obs.app.package}${obs.app.activity}: ${obs.elements.map((x) => x.label || x.text || x.desc).join(' | ')}`,
    );
  return e;
}

export function decision(action: Decision['action'], expect: Decision['expect'] = { kind: 'page_changes' }): Decision {
  return { thought: 'test', action, expect };
}

/** A confirmation channel that answers from a function and records every request. */
export class ScriptedConfirmation implements ConfirmationChannel {
  readonly name = 'scripted';
  readonly asked: ConfirmationRequest[] = [];
  constructor(private readonly answer: (req: ConfirmationRequest) => 'approved' | 'denied' = () => 'approved') {}
  async confirm(req: ConfirmationRequest): Promise<ConfirmationAnswer> {
    this.asked.push(req);
    const v = this.answer(req);
    return v === 'approved'
      ? { verdict: 'approved', by: this.name }
      : { verdict: 'denied', by: this.name, reason: 'test said no' };
  }
}

/** A label to tap, an action, or a labelled tap whose outcome is checked later (`delivered` is enough). */
type Step = string | Decision['action'] | { label: string; deliveredIsEnough: true };

/** Tap through labelled elements (or run explicit actions), each step validated; returns the last observation. */
export async function drive(ex: Executor, obs: Observation, steps: Step[]): Promise<Observation> {
  let o = obs;
  for (const s of steps) {
    const a =
      typeof s === 'string'
        ? { tool: 'tap' as const, target_id: el(o, s).id }
        : 'label' in s
          ? { tool: 'tap' as const, target_id: el(o, s.label).id }
          : s;
    const r = await ex.run(decision(a, { kind: 'page_changes' }), o);
    const enough = typeof s === 'object' && 'label' in s && r.receipt.delivery === 'delivered';
    // A wait only lets time pass (a toast fade): whether the page changed meanwhile is not the point.
    if (!r.ok && !enough && a.tool !== 'wait')
      throw new Error(`step ${JSON.stringify(s)} failed: ${r.receipt.error?.message ?? r.outcome?.reason}`);
    o = r.post ?? (await observe(ex));
  }
  return o;
}
