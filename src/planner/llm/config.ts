import { ActionableError } from '../../core/errors.js';
import { IMAGE_FORMATS, type ImageFormat, isImageFormat } from '../../core/image-format.js';

/**
 * Where the LLM lives. Nothing is ever sent to a default public endpoint: when neither flags nor
 * environment name an endpoint, resolving fails with the exact variables to set.
 */

export type PresetName = 'openai' | 'deepseek' | 'qwen' | 'ollama' | 'vllm';

export interface Preset {
  baseURL: string;
  model: string;
  /** Whether the provider honours `strict: true` tool schemas. */
  strictTools: boolean;
  /** Whether the provider supports tool calls at all (else JSON mode). */
  tools: boolean;
  /** Local servers accept any key. */
  needsKey: boolean;
  /** The preset's model reads images (screenshots on visual-first screens and `look`). */
  vision: boolean;
  /** How its screenshots are encoded when the provider needs other than JPEG (none of these does). */
  imageFormat?: ImageFormat;
}

/** Presets are explicit opt-ins (`--preset deepseek`), never a fallback. */
export const PRESETS: Record<PresetName, Preset> = {
  openai: {
    baseURL: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    strictTools: true,
    tools: true,
    needsKey: true,
    vision: true,
  },
  deepseek: {
    baseURL: 'https://api.deepseek.com/v1',
    model: 'deepseek-chat',
    strictTools: false,
    tools: true,
    needsKey: true,
    vision: false,
  },
  qwen: {
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    model: 'qwen-plus',
    strictTools: false,
    tools: true,
    needsKey: true,
    vision: false,
  },
  ollama: {
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5:7b',
    strictTools: false,
    tools: true,
    needsKey: false,
    vision: false,
  },
  vllm: {
    baseURL: 'http://127.0.0.1:8000/v1',
    model: 'default',
    strictTools: false,
    tools: true,
    needsKey: false,
    vision: false,
  },
};

export interface LlmConfig {
  baseURL: string;
  model: string;
  apiKey: string;
  strictTools: boolean;
  /** false → JSON-mode fallback (no `tools` in the request). */
  tools: boolean;
  timeoutMs: number;
  /** Re-asks after invalid output (malformed JSON, unknown tool, invented id, missing expect). */
  maxReasks: number;
  /** Retries on 429 / 5xx / connection errors / deadlines, with exponential backoff. */
  maxRetries: number;
  /**
   * The most one model call may spend waiting between retries (ms), `Retry-After` included: a
   * server asking for more makes the call fail at once with a message, not sleep through the run.
   */
  maxRetryWaitMs: number;
  /**
   * The model reads images: it gets the screenshot on visual-first screens and may `look`. Without
   * it `look` is never offered and a visual-only screen is said to be one. `--vision`/`--no-vision`,
   * PHONE_AGENT_VISION=1|0, else the preset's (a model of unknown kind: no).
   */
  vision: boolean;
  /**
   * How screenshots are encoded for the model (the data URL says the same): `--image-format`,
   * PHONE_AGENT_IMAGE_FORMAT, else the preset's, else jpeg (small; every vision API takes it).
   * png is for a reader that opens only PNG, such as the relay's players.
   */
  imageFormat: ImageFormat;
}

export interface LlmFlags {
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  preset?: string;
  jsonMode?: boolean;
  timeoutMs?: number;
  vision?: boolean;
  imageFormat?: string;
}

export const ENV_HINT =
  'set OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama), PHONE_AGENT_MODEL (the model name) and, for hosted ' +
  'providers, OPENAI_API_KEY — or pass --base-url/--model, or --preset openai|deepseek|qwen|ollama|vllm, or use ' +
  '--model reference for the built-in reference model';

function isPreset(s: string): s is PresetName {
  return Object.hasOwn(PRESETS, s);
}

export function resolveLlmConfig(flags: LlmFlags, env: Record<string, string | undefined>): LlmConfig {
  let preset: Preset | undefined;
  const presetName = flags.preset ?? env.PHONE_AGENT_PRESET;
  if (presetName !== undefined) {
    if (!isPreset(presetName))
      throw new ActionableError(
        'CONFIG',
        `unknown LLM preset "${presetName}"`,
        `use one of ${Object.keys(PRESETS).join(', ')}`,
      );
    preset = PRESETS[presetName];
  }
  const baseURL = flags.baseUrl ?? env.OPENAI_BASE_URL ?? preset?.baseURL;
  const model = flags.model ?? env.PHONE_AGENT_MODEL ?? preset?.model;
  if (!baseURL || !model) {
    const missing = [!baseURL ? 'OPENAI_BASE_URL' : '', !model ? 'PHONE_AGENT_MODEL' : '']
      .filter(Boolean)
      .join(' and ');
    throw new ActionableError('NO_MODEL', `no LLM endpoint is configured (missing ${missing})`, ENV_HINT);
  }
  try {
    new URL(baseURL);
  } catch {
    throw new ActionableError(
      'CONFIG',
      `the LLM base URL "${baseURL}" is not a URL`,
      'pass e.g. http://127.0.0.1:8000/v1',
    );
  }
  const imageFormat = flags.imageFormat ?? env.PHONE_AGENT_IMAGE_FORMAT ?? preset?.imageFormat ?? 'jpeg';
  if (!isImageFormat(imageFormat))
    throw new ActionableError(
      'CONFIG',
      `unknown image format "${imageFormat}" (--image-format or PHONE_AGENT_IMAGE_FORMAT)`,
      `use one of ${IMAGE_FORMATS.join(', ')}`,
    );
  const apiKey = flags.apiKey ?? env.OPENAI_API_KEY ?? '';
  if (!apiKey && preset?.needsKey)
    throw new ActionableError('NO_KEY', `the ${presetName} preset needs an API key`, 'set OPENAI_API_KEY');
  return {
    baseURL,
    model,
    // The SDK refuses an empty key; local servers ignore it.
    apiKey: apiKey || 'not-needed',
    strictTools: preset?.strictTools ?? false,
    tools: flags.jsonMode ? false : (preset?.tools ?? true),
    timeoutMs: flags.timeoutMs ?? Number(env.PHONE_AGENT_LLM_TIMEOUT_MS ?? 60_000),
    maxReasks: 2,
    maxRetries: 3,
    maxRetryWaitMs: Number(env.PHONE_AGENT_LLM_MAX_WAIT_MS ?? 60_000),
    vision: flags.vision ?? envFlag(env.PHONE_AGENT_VISION) ?? preset?.vision ?? false,
    imageFormat,
  };
}

function envFlag(v: string | undefined): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  return /^(1|true|yes|on)$/i.test(v);
}
