import { z } from 'zod';
import { asksQuestion } from '../core/goal.js';
import type { Logger } from '../core/logger.js';
import { actJsonSchema } from './act-schema.js';
import { MAX_SUBGOALS, type PlannedStep, parseAct } from './act-tool.js';
import { type DescribeInput, describePage } from './describe.js';
import type { ChatMessage, LlmClient, LlmUsage } from './llm/client.js';
import { buildDecideMessages, buildPlanMessages } from './prompt/builders.js';
import type { DecideInput, PlanInput, Subgoal } from './prompt/types.js';
import type { ToolCatalog } from './tool-spec.js';

/**
 * The ReAct step: one decision per call, with a structured expectation. The coarse plan is made once
 * per goal and revised on replan. When the page is visual-first a (downscaled) screenshot is
 * attached; a `look` is a step of its own (the loop records it in the history), and the screenshot
 * it asked for — zoomed on a control and its row — comes with the next decision on that screen.
 * Never otherwise.
 */

export interface ImageRequest {
  target_id?: string;
  point?: { x: number; y: number };
}

export interface PlannerDeps {
  llm: LlmClient;
  logger: Logger;
  /** Every tool the planner may offer (the tool registry's, src/tools/): help, fields, parse. */
  catalog: ToolCatalog;
  /** Returns a data: URL of the current screen (cropped around the target when given). */
  image?: (req: ImageRequest) => Promise<string | undefined>;
}

export interface DecideRequest extends DecideInput {
  ids: ReadonlySet<string>;
  visualFirst: boolean;
  /** Action signatures banned on this page, in the order of `banned` (how the prompt shows each). */
  bannedSignatures?: readonly string[];
  /** Screenshot source for this step (overrides deps.image). */
  image?: (req: ImageRequest) => Promise<string | undefined>;
  /** The screenshot the model's last step (a `look`) asked for, of this same screen. */
  look?: LookImage;
  /** The most members one action_sequence may have (the run's task setting). */
  maxBurst?: number;
}

/** A look's screenshot (a data: URL) and what it shows, for the prompt's image note. */
export interface LookImage {
  url: string;
  /** e.g. `[1a2b3c4d] and its row`, or `the whole screen`. */
  of: string;
}

export type DecideResult =
  | { ok: true; step: PlannedStep; usage: LlmUsage }
  | { ok: false; error: string; usage: LlmUsage };

const PlanArgs = z.object({ subgoals: z.array(z.string().min(1)).min(1).max(MAX_SUBGOALS) });
const { $schema: _, ...PLAN_SCHEMA } = z.toJSONSchema(PlanArgs) as Record<string, unknown>;

export class Planner {
  constructor(private readonly deps: PlannerDeps) {}

  async makePlan(input: PlanInput, signal?: AbortSignal): Promise<{ plan: Subgoal[]; usage: LlmUsage }> {
    const { system, user } = buildPlanMessages(input);
    const res = await this.deps.llm.infer({
      signal,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      fn: { name: 'plan', description: 'Set the coarse subgoal plan', parameters: PLAN_SCHEMA },
      parse: (raw) => {
        const p = PlanArgs.safeParse(raw);
        return p.success
          ? { ok: true, value: p.data.subgoals }
          : {
              ok: false,
              error: `plan needs {"subgoals": ["…", …]} (1-${MAX_SUBGOALS} items): ${p.error.issues[0]?.message}`,
            };
      },
    });
    // A plan is guidance, not a contract: without one the loop still runs on the goal alone.
    if (!res.ok) {
      this.deps.logger.warn('no plan from the model; continuing with the goal as the only subgoal', {
        error: res.error,
      });
      return { plan: [{ text: input.goal, done: false }], usage: res.usage };
    }
    return { plan: res.value.map((text) => ({ text, done: false })), usage: res.usage };
  }

  /** Explore's description of a page and its controls (./describe.ts): one call per new page. */
  describePage(input: DescribeInput, signal?: AbortSignal) {
    return describePage(this.deps.llm, input, signal);
  }

  /** `signal`: the run's cancel, which ends the model call at once. */
  async decide(req: DecideRequest, signal?: AbortSignal): Promise<DecideResult> {
    const { catalog } = this.deps;
    const tools = req.tools;
    const fn = {
      name: 'act',
      description: 'One action',
      // Strict-mode providers need the nested shapes spelled out; others get the compact schema.
      parameters: actJsonSchema(tools, catalog, { full: this.deps.llm.config.strictTools }),
    };
    const subgoal = req.plan[req.current]?.text;
    // Subgoals are the model's own bookkeeping, not evidence: a `done` while some are unmarked is
    // questioned once, and believed when repeated with what on the screen shows the goal reached
    // (`answer`); the completion check (executor) then judges the claim on the phone. A question
    // needs an answer.
    // The last subgoal is what `done` itself completes when the model says what shows it (`text`);
    // a bare `done` with it still open is questioned like any other open subgoal.
    const last = req.plan.length - 1;
    // `through`: the last index `subgoal_done=N` on the done ticks (the [>] one and those before N).
    const openFor = (answer: string | undefined, through = -1) =>
      req.plan.filter((s, i) => !s.done && i > through && (i < last || !answer)).map((s) => s.text);
    const question = asksQuestion(req.goal);
    const banned = new Map((req.bannedSignatures ?? []).map((sig, i) => [sig, req.banned[i] ?? sig]));
    let questioned = false;
    const parse = (raw: unknown) => {
      const r = parseAct(raw, { tools, catalog, ids: req.ids, subgoal, banned, maxBurst: req.maxBurst });
      if (!r.ok || !catalog.get(r.value.decision.action.tool)?.completes) return r;
      const answer = r.value.decision.action.answer?.trim();
      if (question && !answer)
        return { ok: false as const, error: 'the goal asks a question: call done with the answer in text' };
      // `subgoal_done` on the done itself closes the [>] subgoal.
      const open = openFor(answer, r.value.doneThrough);
      const stillOpen = r.value.subgoalDone ? open.filter((t) => t !== subgoal) : open;
      if (stillOpen.length === 0 || (questioned && answer)) return r;
      questioned = true;
      return {
        ok: false as const,
        error: `subgoals not marked done: ${stillOpen.join('; ')}. If the goal is already reached, call done again with \`text\` saying what on the screen shows it, and it is accepted; otherwise go on with the [>] subgoal`,
      };
    };
    const source = req.image ?? this.deps.image;
    const image = req.look?.url ?? (req.visualFirst ? await source?.({}) : undefined);
    const { system, user } = buildDecideMessages(
      {
        ...req,
        imageNote: req.look
          ? `Your look: a screenshot of ${req.look.of} is attached.`
          : image
            ? 'A screenshot of the screen is attached.'
            : req.visualFirst
              ? 'This screen is drawn in pixels that the listing does not show, and no screenshot can be given to you: act only on what the listing shows, or ask_user if the goal needs what is drawn.'
              : undefined,
      },
      catalog,
    );
    const userMsg: ChatMessage = image
      ? {
          role: 'user',
          content: [
            { type: 'text', text: user },
            { type: 'image_url', image_url: { url: image, detail: 'low' } },
          ],
        }
      : { role: 'user', content: user };
    const res = await this.deps.llm.infer({
      messages: [{ role: 'system', content: system }, userMsg],
      fn,
      parse,
      signal,
    });
    return res.ok ? { ok: true, step: res.value, usage: res.usage } : { ok: false, error: res.error, usage: res.usage };
  }
}
