import type { AgentEvent } from '../agent/types.js';
import type { Device, DeviceCall } from '../device/device.js';
import type { LlmClient } from '../planner/llm/client.js';
import type { ArchivedCall, RunArchive } from '../store/run-archive.js';

/**
 * What the report shows of each step's calls (`steps/NNN.calls.jsonl`): the model's request and
 * reply, and each device command with what the device answered. The agent does not know about it:
 * the model client and the device are wrapped where they are composed, and the step a call belongs
 * to is followed from the agent's events (planning is 0 until the plan event; then calls before
 * step n's event are step n's).
 */

export class CallLog {
  private step: number;
  constructor(
    private readonly archive: RunArchive,
    firstStep = 0,
  ) {
    this.step = firstStep;
  }

  /** Chain into the agent's `onEvent`. */
  onEvent(e: AgentEvent): void {
    // Planning ends with the plan event; each step ends with its own event.
    if (e.kind === 'plan') this.step = Math.max(this.step, 1);
    else if (e.kind === 'step') this.step = e.summary.step + 1;
    else if (e.kind === 'resume') this.step = e.fromStep;
  }

  record(call: ArchivedCall): void {
    this.archive.record(this.step, call);
  }

  flush(): Promise<void> {
    return this.archive.flush();
  }
}

/** The model client, recording every `infer` (messages, function, and the parsed reply or error). */
export function recordingLlm(llm: LlmClient, log: CallLog): LlmClient {
  return {
    config: llm.config,
    async infer(req) {
      const t0 = performance.now();
      const request = { model: llm.config.model, function: req.fn.name, messages: req.messages };
      try {
        const r = await llm.infer(req);
        const ms = performance.now() - t0;
        log.record(
          r.ok
            ? { kind: 'llm', request, response: { arguments: r.value, usage: r.usage }, ms }
            : { kind: 'llm', request, error: r.error, response: { usage: r.usage }, ms },
        );
        return r;
      } catch (e) {
        log.record({
          kind: 'llm',
          request,
          error: e instanceof Error ? e.message : String(e),
          ms: performance.now() - t0,
        });
        throw e;
      }
    },
  };
}

/** Typed text is never logged here (it may be a password): only its length. */
const chars = (t: string) => `(${[...t].length} chars)`;

/** How each input method reads as a command; reads (snapshot, health) are not logged. */
const COMMANDS: Partial<Record<keyof Device, (...a: never[]) => string>> = {
  tap: (p: { x: number; y: number }) => `tap ${Math.round(p.x)},${Math.round(p.y)}`,
  longPress: (p: { x: number; y: number }, o: { durationMs: number }) =>
    `long_press ${Math.round(p.x)},${Math.round(p.y)} ${o.durationMs} ms`,
  swipe: (path: { x: number; y: number }[], o: { durationMs: number }) =>
    `swipe ${path.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`).join(' → ')} ${o.durationMs} ms`,
  key: (k: string) => `key ${k}`,
  setText: (t: string) => `set_text ${chars(t)}`,
  imeCommit: (t: string) => `ime_commit ${chars(t)}`,
  inputText: (t: string) => `input_text ${chars(t)}`,
  launchApp: (t: { package?: string; label?: string; activity?: string }) =>
    `launch_app ${t.package ?? t.label ?? ''}${t.activity ? `/${t.activity}` : ''}`,
  native: (r: { action?: string }) => `native ${r.action ?? ''}`,
};

/** What the device answered, without node states (a field's text may be a password). */
function outputOf(r: DeviceCall): unknown {
  const { receipt } = r;
  const d = r.device;
  return {
    ok: r.ok,
    ...(r.ok ? {} : { code: r.code, message: r.message }),
    status: receipt.status,
    delivery: receipt.delivery,
    backend: receipt.backend ?? receipt.method,
    ...(receipt.failover ? { failover: true } : {}),
    ...(d
      ? {
          device: {
            op_id: d.op_id,
            action: d.action,
            status: d.status,
            delivery: d.delivery,
            error: d.error,
            detail: d.detail,
          },
        }
      : {}),
  };
}

/** The device, recording every input command and its answer. */
export function recordingDevice(device: Device, log: CallLog): Device {
  return new Proxy(device, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      const describe = COMMANDS[prop as keyof Device] as ((...a: unknown[]) => string) | undefined;
      if (!describe || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        const r = (await value.apply(target, args)) as DeviceCall;
        log.record({
          kind: 'device',
          command: describe(...args),
          output: outputOf(r),
          ok: r.ok,
          ms: performance.now() - t0,
        });
        return r;
      };
    },
  });
}
