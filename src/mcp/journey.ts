import { z } from 'zod';
import { VERIFICATION_MODES } from '../executor/verify.js';
import { tap } from '../tools/tap.js';
import type { ToolDef, ToolOutput } from './tool.js';

/**
 * `run_journey`: a journey (named apart from the planner's `action_sequence`, the helper's batch, which is a different thing) (seed "native controls", RFC §9). Every member is validated against
 * its tool's schema before the first one runs; members then run in order under the one device
 * lock of this call, and the first failure stops it: later members are `not_run`, and the answer
 * keeps the receipts of what completed and what is unknown (dispatched, outcome not known — observe
 * before repeating anything; never resend the whole sequence).
 */

export const MAX_STEPS = 50;
/** The seed's guard on the members' parameter stream. */
export const MAX_PARAM_CHARS = 16_384;

const StepSchema = z
  .object({
    id: z.string().min(1).max(64).optional().describe('names the member in the answer (default stepN)'),
    tool: z.string().describe('an action tool: tap, type_text, swipe, launch_app, control_action, wait_until, …'),
    args: z.record(z.string(), z.unknown()).optional().describe("that tool's own arguments, as in its own call"),
  })
  .strict();

/** One journey as a client writes it: fill a field, then press Send (held for consent). */
export const JOURNEY_EXAMPLE = [
  { tool: 'type_text', args: { selector: { resource_id: 'com.android.messaging:id/message' }, text: 'On my way' } },
  { id: 'send', tool: tap.name, args: { selector: { text: 'Send' } } },
];

export const JourneyShape = {
  steps: z
    .array(StepSchema)
    .min(1)
    .max(MAX_STEPS)
    .describe(`members {id?, tool, args}, e.g. ${JSON.stringify(JOURNEY_EXAMPLE)}`),
  defaults: z
    .object({
      verificationMode: z.enum(VERIFICATION_MODES).optional(),
      actionTimeoutMs: z.number().int().optional(),
      verificationTimeoutMs: z.number().int().optional(),
    })
    .strict()
    .optional(),
  responseMode: z.enum(['compact', 'debug']).optional().describe('per-member results; default compact'),
};

type Step = z.infer<typeof StepSchema>;

interface StepOut {
  id: string;
  tool: string;
  status: 'passed' | 'failed' | 'unknown' | 'not_run';
  success: boolean;
  reason?: string;
  result: Record<string, unknown> | null;
  timing: { total_ms: number };
}

export function journeyTool(members: () => Map<string, ToolDef>): ToolDef {
  return {
    name: 'run_journey',
    title: 'Run a journey',
    description: `Run up to ${MAX_STEPS} actions in one call: all members are validated first, then run in order; the first failure stops the rest (not_run). A wait_until member is an assertion. Returns each member's result, with completed and unknown (dispatched, outcome unknown: observe before retrying) ids.`,
    shape: JourneyShape,
    readOnly: false,
    destructive: true,
    usesDevice: true,
    async run(input, call): Promise<ToolOutput> {
      const t0 = performance.now();
      const steps = input.steps as Step[];
      const defaults = (input.defaults ?? {}) as Record<string, unknown>;
      const responseMode = (input.responseMode as string | undefined) ?? 'compact';
      const tools = members();
      // 1. Validate everything before the first member touches the phone.
      const problems: string[] = [];
      const ids = steps.map((s, i) => s.id ?? `step${i + 1}`);
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      if (dup) problems.push(`step id "${dup}" is used twice`);
      if (JSON.stringify(steps).length > MAX_PARAM_CHARS)
        problems.push(`the members' parameters exceed ${MAX_PARAM_CHARS} characters: send large text in its own call`);
      const parsed = steps.map((s, i) => {
        const def = tools.get(s.tool);
        if (!def) {
          problems.push(`${ids[i]}: ${s.tool} cannot be a member (use one of ${[...tools.keys()].join(', ')})`);
          return undefined;
        }
        const obj = z.object(def.shape);
        const schema = def.passthrough ? obj.passthrough() : obj.strict();
        const r = schema.safeParse({ ...defaults, responseMode, ...(s.args ?? {}) });
        if (!r.success) {
          problems.push(
            `${ids[i]} (${s.tool}): ${r.error.issues.map((x) => `${x.path.join('.') || 'args'}: ${x.message}`).join('; ')}`,
          );
          return undefined;
        }
        return { def, args: r.data as Record<string, unknown> };
      });
      if (problems.length)
        return {
          result: {
            success: false,
            failure_code: 'INVALID_ARGUMENT',
            message: `nothing was run: ${problems.join('; ')}`,
            delivery_status: 'not_delivered',
            dispatch_started: false,
            retryable: false,
          },
          isError: true,
        };

      // 2. Run in order; stop at the first failure.
      const out: StepOut[] = [];
      let stopped: string | null = null;
      for (let i = 0; i < steps.length; i++) {
        const id = ids[i] as string;
        const tool = (steps[i] as Step).tool;
        if (stopped !== null) {
          out.push({
            id,
            tool,
            status: 'not_run',
            success: false,
            reason: 'PREVIOUS_STEP_FAILED',
            result: null,
            timing: { total_ms: 0 },
          });
          continue;
        }
        const p = parsed[i] as NonNullable<(typeof parsed)[number]>;
        const ts = performance.now();
        const r = await p.def.run(p.args, call);
        const unknown = r.result.delivery_status === 'unknown';
        const status: StepOut['status'] = unknown
          ? 'unknown'
          : r.isError || r.result.success === false
            ? 'failed'
            : 'passed';
        out.push({
          id,
          tool,
          status,
          success: status === 'passed',
          result: r.result,
          timing: { total_ms: Math.round(performance.now() - ts) },
        });
        if (status !== 'passed') stopped = id;
      }
      const result = {
        success: stopped === null,
        stopped_at_step_id: stopped,
        completed: out.filter((s) => s.status === 'passed').map((s) => s.id),
        unknown: out.filter((s) => s.status === 'unknown').map((s) => s.id),
        steps: out,
        timing: { total_ms: Math.round(performance.now() - t0) },
      };
      return { result, isError: stopped !== null };
    },
  };
}
