import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { ActionableError, errorMessage } from '../../core/errors.js';
import type { LlmConfig } from './config.js';

/**
 * One HTTP round trip to the model, held to one deadline that covers the headers AND the whole
 * body (the SDK's own timeout stops at the headers, so a body that never ends or drips a byte at a
 * time would hang the agent). Everything the endpoint can answer is turned into either a checked
 * `ChatCompletion` or an `LlmEndpointError` that names the model, the URL and what to do.
 */

export interface EndpointFailure {
  /** Worth another attempt (429, 5xx, connection lost, deadline). */
  retryable: boolean;
  /** What the server asked for in `Retry-After` / `retry-after-ms` (ms from now), if anything. */
  retryAfterMs?: number;
  status?: number;
}

export class LlmEndpointError extends ActionableError {
  override readonly name: string = 'LlmEndpointError';
  readonly failure: EndpointFailure;
  constructor(problem: string, hint: string, failure: EndpointFailure, options?: { cause?: unknown }) {
    super('LLM', problem, hint, options);
    this.failure = failure;
  }
}

/** `the model "m" at http://…/v1` — the start of every message, so the reader knows which endpoint. */
export function whichModel(config: LlmConfig): string {
  return `the model "${config.model}" at ${config.baseURL}`;
}

/** A bounded, single-line excerpt of something the server sent (never a whole page of HTML). */
export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), and OpenAI's `retry-after-ms`.
 * `now` is the caller's clock, so an HTTP-date is measured against the same time the waits use.
 */
export function parseRetryAfter(headers: Headers | undefined, now: number): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const v = headers?.get('retry-after')?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP-date names its day and month; Date.parse alone would take "-1" for a year.
  const at = /^[A-Za-z]{3}, /.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const CHECK_URL = 'check that the base URL is an OpenAI-compatible endpoint (it must answer POST …/chat/completions)';

function statusHint(status: number): string {
  if (status === 401 || status === 403) return 'check OPENAI_API_KEY (or --api-key) for this endpoint';
  if (status === 404) return `check the model name (PHONE_AGENT_MODEL / --model) and ${CHECK_URL}`;
  if (status === 429) return 'the provider is rate-limiting: wait and `phone-agent resume` the run, or use another key';
  if (status >= 500) return 'the provider is failing: try again later and `phone-agent resume` the run';
  return 'the request was refused as shown; check the model and endpoint settings';
}

function fromSdkError(e: unknown, config: LlmConfig, now: number): LlmEndpointError {
  const who = whichModel(config);
  if (e instanceof OpenAI.APIError && e.status !== undefined) {
    const status = e.status;
    const retryable = status === 429 || status >= 500;
    return new LlmEndpointError(
      `${who} answered HTTP ${status}: ${excerpt(e.message, 200)}`,
      statusHint(status),
      { retryable, status, retryAfterMs: parseRetryAfter(e.headers, now) },
      { cause: e },
    );
  }
  return new LlmEndpointError(
    `${who} could not be reached: ${excerpt(errorMessage(e), 200)}`,
    'check that the model server is running and OPENAI_BASE_URL / --base-url is right',
    { retryable: true },
    { cause: e },
  );
}

/** The body of a 200, checked to be a chat completion with at least one choice carrying a message. */
export function checkCompletion(text: string, config: LlmConfig): ChatCompletion {
  const who = whichModel(config);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const what = /^\s*</.test(text) ? 'an HTML/XML page' : 'a body that is not JSON';
    throw new LlmEndpointError(
      `${who} answered 200 with ${what} (${text.length} bytes: "${excerpt(text)}")`,
      CHECK_URL,
      { retryable: false },
    );
  }
  const choices = json && typeof json === 'object' ? (json as { choices?: unknown }).choices : undefined;
  const first = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined) : undefined;
  if (!first || typeof first !== 'object' || !first.message || typeof first.message !== 'object') {
    const got = json === null ? 'JSON null' : Array.isArray(choices) ? 'no choice with a message' : 'no `choices`';
    throw new LlmEndpointError(
      `${who} answered 200 but not with a chat completion (${got}: "${excerpt(JSON.stringify(json) ?? '')}")`,
      CHECK_URL,
      { retryable: false },
    );
  }
  return json as ChatCompletion;
}

/** POST /chat/completions once, within `timeoutMs` for the whole response. */
export async function callEndpoint(
  sdk: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  opts: { config: LlmConfig; timeoutMs: number; now: () => number; signal?: AbortSignal },
): Promise<ChatCompletion> {
  const { config, timeoutMs } = opts;
  opts.signal?.throwIfAborted();
  const deadline = new AbortController();
  // A real timer on purpose: this bounds real network I/O, whatever clock the agent logic runs on.
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  // The caller's cancel (the run's signal) ends the request too, with the caller's reason.
  const signal = opts.signal ? AbortSignal.any([deadline.signal, opts.signal]) : deadline.signal;
  try {
    // The SDK's header timeout is set past ours so that the one deadline decides (and says so).
    const res = await sdk.chat.completions.create(body, { signal, timeout: timeoutMs + 1000 }).asResponse();
    return checkCompletion(await res.text(), config);
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (e instanceof LlmEndpointError) throw e;
    if (deadline.signal.aborted)
      throw new LlmEndpointError(
        `${whichModel(config)} did not finish its response within ${timeoutMs} ms (headers and body)`,
        'check that the model server is up and not overloaded, or raise PHONE_AGENT_LLM_TIMEOUT_MS',
        { retryable: true },
        { cause: e },
      );
    throw fromSdkError(e, config, opts.now());
  } finally {
    clearTimeout(timer);
  }
}
