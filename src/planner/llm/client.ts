import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ParseResult } from '../expect-dsl.js';
import type { LlmConfig } from './config.js';
import { callEndpoint, LlmEndpointError, whichModel } from './endpoint.js';
import { toStrictSchema } from './strict-schema.js';

/**
 * One inference function for every call the planner makes: a forced function call (or JSON mode),
 * validated by the caller's parser; invalid output is re-asked with the error fed back (bounded);
 * 429 / 5xx / connection failures / deadlines are retried with backoff, or after the server's
 * `Retry-After` when it fits the call's wait budget (`maxRetryWaitMs`); past it the call fails at
 * once with an `LlmEndpointError` (./endpoint.ts) rather than sleeping for a day. Every call is counted.
 */

export { LlmEndpointError } from './endpoint.js';

export type ChatMessage = ChatCompletionMessageParam;

export interface FunctionSpec {
  name: string;
  description: string;
  /** JSON schema of the arguments (zod-derived). */
  parameters: Record<string, unknown>;
}

export interface LlmUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  reasks: number;
  retries: number;
  /** Wall time spent waiting on the model (ms, by the injected clock). */
  ms: number;
  /** Each call's prompt tokens as the endpoint reported them (calls without usage are left out). */
  promptTokensPerCall?: number[];
}

export function emptyUsage(): LlmUsage {
  return { calls: 0, promptTokens: 0, completionTokens: 0, reasks: 0, retries: 0, ms: 0, promptTokensPerCall: [] };
}

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    reasks: a.reasks + b.reasks,
    retries: a.retries + b.retries,
    ms: a.ms + b.ms,
    promptTokensPerCall: [...(a.promptTokensPerCall ?? []), ...(b.promptTokensPerCall ?? [])],
  };
}

export interface InferRequest<T> {
  messages: ChatMessage[];
  fn: FunctionSpec;
  parse: (args: unknown) => ParseResult<T>;
  timeoutMs?: number;
  /** Cancels the call (the run was cancelled or ran past its deadline): it rejects at once. */
  signal?: AbortSignal;
}

export type InferResult<T> = { ok: true; value: T; usage: LlmUsage } | { ok: false; error: string; usage: LlmUsage };

export interface LlmClient {
  readonly config: LlmConfig;
  infer<T>(req: InferRequest<T>): Promise<InferResult<T>>;
}

export interface LlmClientDeps {
  config: LlmConfig;
  clock: Clock;
  logger: Logger;
  /** Base of the exponential backoff (ms). */
  backoffMs?: number;
}

export function createLlmClient(deps: LlmClientDeps): LlmClient {
  const { config, clock, logger } = deps;
  const sdk = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, maxRetries: 0, timeout: config.timeoutMs });
  const backoff = deps.backoffMs ?? 500;

  async function complete(
    messages: ChatMessage[],
    fn: FunctionSpec,
    usage: LlmUsage,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ) {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const t0 = clock.now();
      try {
        usage.calls++;
        const tools: ChatCompletionTool[] = [
          {
            type: 'function',
            function: {
              name: fn.name,
              description: fn.description,
              parameters: config.strictTools ? toStrictSchema(fn.parameters) : fn.parameters,
              ...(config.strictTools ? { strict: true } : {}),
            },
          },
        ];
        const body = config.tools
          ? {
              model: config.model,
              messages,
              tools,
              tool_choice: { type: 'function' as const, function: { name: fn.name } },
            }
          : {
              model: config.model,
              messages: [
                ...messages,
                {
                  role: 'system' as const,
                  content: `Reply with ONE JSON object: the arguments of ${fn.name}, matching this JSON schema: ${JSON.stringify(fn.parameters)}`,
                },
              ],
              response_format: { type: 'json_object' as const },
            };
        const res: ChatCompletion = await callEndpoint(sdk, body, {
          config,
          timeoutMs,
          now: () => clock.now(),
          signal,
        });
        usage.ms += clock.now() - t0;
        usage.promptTokens += res.usage?.prompt_tokens ?? 0;
        if (res.usage) usage.promptTokensPerCall = [...(usage.promptTokensPerCall ?? []), res.usage.prompt_tokens];
        usage.completionTokens += res.usage?.completion_tokens ?? 0;
        return res;
      } catch (e) {
        usage.ms += clock.now() - t0;
        if (signal?.aborted) throw signal.reason;
        if (!(e instanceof LlmEndpointError) || !e.failure.retryable || attempt >= config.maxRetries) throw e;
        const asked = e.failure.retryAfterMs;
        const wait = Math.max(backoff * 2 ** attempt, asked ?? 0);
        if (waited + wait > config.maxRetryWaitMs) throw overBudget(e, wait, asked);
        usage.retries++;
        waited += wait;
        logger.warn('LLM call failed; retrying', { attempt: attempt + 1, waitMs: wait, error: errorMessage(e) });
        await clock.sleep(wait, signal);
      }
    }
  }

  /** The server wants a longer pause than this call may wait: say so now instead of sleeping. */
  function overBudget(e: LlmEndpointError, wait: number, asked: number | undefined): LlmEndpointError {
    const why = asked !== undefined ? `asked to retry after ${Math.ceil(asked / 1000)} s` : `needs ${wait} ms more`;
    return new LlmEndpointError(
      `${whichModel(config)} ${why}, more than this run waits for the model (${config.maxRetryWaitMs} ms in all) — last answer: ${e.message}`,
      'try again later with `phone-agent resume <run folder>`, or raise PHONE_AGENT_LLM_MAX_WAIT_MS',
      { ...e.failure, retryable: false },
      { cause: e },
    );
  }

  return {
    config,
    async infer<T>(req: InferRequest<T>): Promise<InferResult<T>> {
      const usage = emptyUsage();
      const messages = [...req.messages];
      let lastError = '';
      for (let ask = 0; ask <= config.maxReasks; ask++) {
        if (ask > 0) usage.reasks++;
        const res = await complete(messages, req.fn, usage, req.timeoutMs ?? config.timeoutMs, req.signal);
        const msg = res.choices[0]?.message;
        const call = msg?.tool_calls?.find((c) => c.type === 'function');
        let rawText: string;
        let error: string;
        if (call && call.type === 'function') {
          rawText = call.function.arguments;
          if (call.function.name !== req.fn.name) {
            error = `unknown function "${call.function.name}"; call ${req.fn.name}`;
          } else error = '';
        } else {
          rawText = msg?.content ?? '';
          error = '';
        }
        if (!error) {
          const json = parseJsonLenient(rawText);
          if (!json.ok) error = `your reply is not valid JSON (${json.error}); call ${req.fn.name} with JSON arguments`;
          else {
            const parsed = req.parse(json.value);
            if (parsed.ok) return { ok: true, value: parsed.value, usage };
            error = parsed.error;
          }
        }
        lastError = error;
        logger.info('LLM output rejected; re-asking', { ask: ask + 1, error });
        if (call) {
          messages.push({ role: 'assistant', content: null, tool_calls: [call] });
          messages.push({
            role: 'tool',
            tool_call_id: call.id,
            content: `Rejected: ${error}. Call ${req.fn.name} again.`,
          });
        } else {
          messages.push({ role: 'assistant', content: rawText.slice(0, 2000) });
          messages.push({ role: 'user', content: `Rejected: ${error}. Call ${req.fn.name} again.` });
        }
      }
      return {
        ok: false,
        error: `the model's output stayed invalid after ${config.maxReasks} re-asks: ${lastError}`,
        usage,
      };
    },
  };
}

/** JSON, tolerating a markdown fence or prose around one object (common in JSON mode). */
export function parseJsonLenient(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const t = text.trim();
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch (e) {
    const start = t.indexOf('{');
    const end = t.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        return { ok: true, value: JSON.parse(t.slice(start, end + 1)) };
      } catch {
        /* fall through to the original error */
      }
    }
    return { ok: false, error: errorMessage(e) };
  }
}
