import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sniffImageType } from '../../core/image-format.js';
import { seededRandom } from '../../core/random.js';
import { burstFor } from './burst.js';
import { describeScreen } from './describe.js';
import { type CatalogEntry, intentsForGoal } from './intents.js';
import { applyNoise, type NoiseKind } from './noise.js';
import { type ActArgsOut, actForIntent, asListed } from './policy.js';
import { contentText, type ParsedPrompt, readRequest } from './read-request.js';
import { decideWithPlan, type PlanContext } from './recovery.js';
import { type ChatRequest, checkChatRequest } from './request.js';
import { countTokens } from './tokens.js';

/**
 * The reference model: a real OpenAI-compatible chat-completions server on loopback. Like any model
 * it knows only the request: it finds the goal in the prompt, looks up that goal's reference
 * intents in its catalog (what it was "trained" on), reads the current subgoal and the fenced screen
 * list, and answers with a function call — with seeded noise at `noise` rate.
 */

export type { ChatRequest };

/** The function Explore asks to describe a page (the planner's `describe_page`, read off the request). */
const DESCRIBE_PAGE = 'describe_page';

export interface ReferenceModelOptions {
  catalog: readonly CatalogEntry[];
  port?: number;
  host?: string;
  noise?: number;
  seed?: number;
  /** `o200k` (default) counts real tokens; `estimate` (chars/4) skips loading the tokenizer. */
  tokenizer?: 'o200k' | 'estimate';
  /** Sees every well-formed request before it is answered (benchmarks measure the prompt's parts). */
  onRequest?: (body: ChatRequest) => void;
  /**
   * A scripted answer, asked before the catalog: a benchmark's harness check that knows each step's
   * gold (bench:droidtask) reads the prompt as parsed here and names the act; undefined = the catalog.
   */
  answer?: (prompt: ParsedPrompt, fn: string) => ActArgsOut | undefined;
  /**
   * A stand-in for a hosted model's think time: every answer waits this long, really sleeping on the
   * loopback connection, so a benchmark's wall time carries model time as a capable model's would
   * (bench:modes `--model-latency-ms`). 0 (default) answers at once.
   */
  latencyMs?: number;
}

export interface ReferenceModelStats {
  requests: number;
  noise: Partial<Record<NoiseKind, number>>;
  unknownGoals: number;
  /** Image parts received (a vision client attaches screenshots). */
  images: number;
  /** Inline images by the media type their data URL declares ("image/png": 3). */
  imageTypes: Record<string, number>;
  /** Inline images whose bytes are not what their data URL declares (or are no PNG/JPEG at all). */
  imageMismatches: number;
}

export interface ReferenceModel {
  url: string;
  port: number;
  stats(): ReferenceModelStats;
  close(): Promise<void>;
}

function imageUrls(c: unknown): string[] {
  if (!Array.isArray(c)) return [];
  return c
    .filter((p) => p && typeof p === 'object' && p.type === 'image_url')
    .map((p) => String(p.image_url?.url ?? ''));
}

/** Count an image part by its declared media type, and whether its bytes agree (a client's bug otherwise). */
function recordImage(stats: ReferenceModelStats, url: string): void {
  stats.images++;
  const m = /^data:([\w/+.-]+);base64,/.exec(url);
  if (!m?.[1]) return;
  stats.imageTypes[m[1]] = (stats.imageTypes[m[1]] ?? 0) + 1;
  const head = Buffer.from(url.slice(m[0].length, m[0].length + 16), 'base64');
  if (sniffImageType(head) !== m[1]) stats.imageMismatches++;
}

async function readBody(req: IncomingMessage, limit = 4 << 20): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Where bursts are asked for (the Burst line), the current subgoal's own action grows into one
 * (./burst.ts) when the next intents are certain on this screen; with no plan yet (Flash) the reply
 * carries it: the intents still to do after this action, without the closing `done` (the agent's
 * done gate ends a Flash run whose plan is complete).
 */
function withBurst(out: ActArgsOut, ctx: PlanContext, p: ParsedPrompt, system: string, skipped = false): ActArgsOut {
  const own = out.subgoal_done === true && !String(out.thought).startsWith('redo');
  const burst =
    own && p.burstMax && p.tools.includes('action_sequence')
      ? burstFor({ intents: ctx.intents, from: ctx.current, screen: ctx.screen, history: ctx.history, max: p.burstMax })
      : undefined;
  const covered = burst ? burst.covered : own ? 1 : 0;
  const args = burst?.args ?? out;
  // Past a stopped burst's members that ran, the plan says what is left of it (nothing, at the end).
  if (TERMINAL.has(args.tool))
    return skipped && !p.planPending ? { ...args, plan: p.plan.slice(ctx.current).map((s) => s.text) } : args;
  if (p.planPending)
    return {
      ...args,
      plan: ctx.intents
        .slice(ctx.current + covered)
        .filter((i) => i !== 'done')
        .map(shownSubgoal),
    };
  if (!burst && !skipped) return args;
  // A burst closes the subgoals it covers — by number where the tool help offers `subgoal_done=N`
  // (else the covered ones after the [>] one are dropped by the plan) — and what is still open
  // after it is the plan. So does an action after the members of a stopped burst that ran: their
  // subgoals are done.
  const through = ctx.current + covered;
  const ticks = through > p.currentIndex + 1 && system.includes(TICKS_BY_NUMBER) ? { subgoal_done: through } : {};
  return { ...args, ...ticks, plan: p.plan.slice(through).map((s) => s.text) };
}

/**
 * How many members of its last burst ran before it stopped, as the agent's note says (the model's
 * own bursts start at its [>] subgoal, one subgoal a member); 0 when no burst stopped.
 */
function ranOfStoppedBurst(p: ParsedPrompt): number {
  const hint = p.hint ?? '';
  const before =
    /Your action_sequence stopped before member \d+ \(.*?\): [^;]*; the (\d+) member\(s\) before it ran/.exec(hint);
  if (before) return Number(before[1]);
  // A guarded member that went alone ran too.
  const alone =
    /Your action_sequence stopped at member \d+ \(.*?\): [^;]*so it went alone; (?:the (\d+) member\(s\) before it ran|nothing)/.exec(
      hint,
    );
  return alone ? Number(alone[1] ?? 0) + 1 : 0;
}

const TERMINAL = new Set(['done', 'ask_user', 'infeasible']);
/** How the system prompt's help offers ticking by number (read as a model reads it, not imported). */
const TICKS_BY_NUMBER = 'subgoal_done=true|N';

/** An intent as a plan's subgoal: without the model's own markers. */
function shownSubgoal(intent: string): string {
  return intent.replace(/ (keep|changes)$/, '');
}

export async function startReferenceModel(opts: ReferenceModelOptions): Promise<ReferenceModel> {
  const random = seededRandom(opts.seed ?? 1);
  const rate = opts.noise ?? 0;
  const stats: ReferenceModelStats = {
    requests: 0,
    noise: {},
    unknownGoals: 0,
    images: 0,
    imageTypes: {},
    imageMismatches: 0,
  };
  let seq = 0;

  function respond(body: ChatRequest): { fn: string; args: string } {
    for (const m of body.messages) for (const url of imageUrls(m.content)) recordImage(stats, url);
    const { fn, system, prompt: p } = readRequest(body);
    const scripted = opts.answer?.(p, fn);
    if (scripted) return { fn, args: JSON.stringify(scripted) };
    // Explore's page description needs no goal: the screen is the whole question.
    if (fn === DESCRIBE_PAGE) return { fn, args: JSON.stringify(describeScreen(p)) };
    const goal = p.goal;
    const intents = intentsForGoal(opts.catalog, goal);
    if (!intents) stats.unknownGoals++;
    // Subgoals are shown to people: the intents' `keep` marker (a button that stays on screen) is
    // the model's own note, so it is left out of the plan and looked up again when acting.
    if (fn === 'plan') return { fn, args: JSON.stringify({ subgoals: (intents ?? [goal]).map(shownSubgoal) }) };
    if (!intents) {
      const out: ActArgsOut = { thought: 'I was not trained on this goal', tool: 'infeasible', text: 'unknown goal' };
      return { fn, args: JSON.stringify(out) };
    }
    const ownIntent = (line: string) => intents.find((i) => shownSubgoal(i) === line) ?? line;
    const { screen, history } = p;
    // No plan yet (Flash): the task's own intents from the first, and this reply sends the plan.
    // After a burst stopped part-way, its members that ran did the subgoals they were sent for.
    const ran = ranOfStoppedBurst(p);
    const planned = p.planPending
      ? { intents, current: ran }
      : {
          intents: p.plan.map((s) => ownIntent(s.text)),
          current: p.currentIndex < 0 ? p.currentIndex : p.currentIndex + ran,
        };
    const ctx = { ...planned, screen, history, banned: p.banned, app: p.app };
    // After the user declined a guarded action, a careful model stops and reports it.
    const args: ActArgsOut = p.declined
      ? {
          thought: 'the user declined',
          tool: 'ask_user',
          text: 'You declined, so I stopped: that action was not done; the steps before it were.',
        }
      : planned.current >= 0
        ? withBurst(decideWithPlan(ctx), ctx, p, system, ran > 0)
        : actForIntent(p.allDone ? 'done' : ownIntent(p.current), screen, history);
    const open = p.plan.filter((s) => s.mark === ' ').length;
    const offered = new Set(p.tools);
    const remainingPlan = p.currentIndex >= 0 ? p.plan.slice(p.currentIndex).map((s) => s.text) : undefined;
    const reply = applyNoise(
      { args: asListed(args, p.apps), screen, history, moreSubgoals: open > 0, offered, remainingPlan },
      rate,
      random,
    );
    if (reply.noise) stats.noise[reply.noise] = (stats.noise[reply.noise] ?? 0) + 1;
    return { fn, args: reply.text };
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
        return send(res, 404, {
          error: { message: `no such endpoint ${req.method} ${req.url}`, type: 'invalid_request_error' },
        });
      let raw: unknown;
      try {
        raw = JSON.parse(await readBody(req));
      } catch (e) {
        return send(res, 400, { error: { message: `bad request: ${String(e)}`, type: 'invalid_request_error' } });
      }
      const checked = checkChatRequest(raw);
      if (!checked.ok)
        return send(res, 400, {
          error: { message: checked.message, type: 'invalid_request_error', param: checked.param, code: null },
        });
      const body: ChatRequest = checked.body;
      stats.requests++;
      opts.onRequest?.(body);
      const { fn, args } = respond(body);
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
      const promptText = body.messages.map((m) => contentText(m.content)).join('\n') + JSON.stringify(body.tools ?? []);
      const count = opts.tokenizer === 'estimate' ? async (t: string) => Math.ceil(t.length / 4) : countTokens;
      const promptTokens = await count(promptText);
      const completionTokens = await count(args);
      const jsonMode = !body.tools;
      const id = `ref-${++seq}`;
      send(res, 200, {
        id: `chatcmpl-${id}`,
        object: 'chat.completion',
        created: 0,
        model: body.model ?? 'reference',
        choices: [
          {
            index: 0,
            finish_reason: jsonMode ? 'stop' : 'tool_calls',
            message: jsonMode
              ? { role: 'assistant', content: args }
              : {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: `call_${id}`, type: 'function', function: { name: fn, arguments: args } }],
                },
          },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    })().catch((e: unknown) => send(res, 500, { error: { message: String(e), type: 'server_error' } }));
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/v1`,
    port,
    stats: () => structuredClone(stats),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
