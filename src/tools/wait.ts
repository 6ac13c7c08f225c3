import { CallRecorder } from '../device/device.js';
import { FIELD } from '../planner/act-schema.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** Longest plain wait (ms): longer waits are for a condition (a wait on something). */
const MAX_WAIT_MS = 6_000;

/** A plain pause, nothing sent. */
export const wait: Tool = {
  name: 'wait',
  explore: 'free',
  agentUse: 'pause',
  help: says('wait(value=ms)'),
  fields: { value: FIELD.number },
  needs: [[]],
  readOnly: true,
  quiet: true,
  parse: (a) => ({ ok: true, action: { ms: typeof a.value === 'number' ? a.value : 1000 } }),
  fieldsOf: (a) => ({ value: a.ms }),
  dispatch: async (_ctx, a, _t, _req, d) => {
    const ms = Math.min(Math.max(0, a.ms ?? 1000), MAX_WAIT_MS);
    const rec = new CallRecorder(d.clock, 'bridge');
    await d.sleep(ms);
    return {
      call: { ok: true, receipt: { ...rec.receipt('completed', 'not_delivered'), method: 'none', backend: undefined } },
    };
  },
};

/** A pause of `ms` chosen by the agent itself (the frame gate, a meta step), in the planner's shape. */
export function pause(ms: number): { tool: string; ms: number } {
  return { tool: wait.name, ms };
}
