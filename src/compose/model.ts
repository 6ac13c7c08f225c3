import type { Clock } from '../core/clock.js';
import { ActionableError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { createLlmClient, type LlmClient } from '../planner/llm/client.js';
import { type LlmConfig, resolveLlmConfig } from '../planner/llm/config.js';
import type { CatalogEntry } from '../testbed/reference-model/intents.js';
import { startReferenceModel } from '../testbed/reference-model/server.js';
import { loadCatalog } from './reference-catalog.js';

/**
 * Which model decides: a configured endpoint (flags, then environment; nothing is called that
 * nobody configured), or `reference` — the built-in reference model started on loopback.
 */

export type ModelSpec =
  | { config: LlmConfig }
  | {
      model?: string;
      baseUrl?: string;
      preset?: string;
      vision?: boolean;
      /** png | jpeg (LlmConfig.imageFormat); else env, else the preset's, else jpeg. */
      imageFormat?: string;
      /** `reference` without a baseUrl starts the built-in reference model, with seeded noise (0..1). */
      noise?: number;
      seed?: number;
      /** Tasks the reference model knows beside the regression catalog (verify-device's). */
      catalog?: readonly CatalogEntry[];
    };

/**
 * Whether a model is configured at all (flags or environment, or the reference model): where none
 * is, what needs one is not offered (MCP's task tools). A configuration that is there but wrong
 * (an unknown preset) counts as configured, so the call that uses it says what is wrong.
 */
export function modelConfigured(spec: ModelSpec, env: Record<string, string | undefined>): boolean {
  if ('config' in spec || spec.model === 'reference') return true;
  try {
    resolveLlmConfig({ baseUrl: spec.baseUrl, model: spec.model, preset: spec.preset }, env);
    return true;
  } catch (e) {
    return !(e instanceof ActionableError && e.code === 'NO_MODEL');
  }
}

export interface OpenedModel {
  config: LlmConfig;
  llm: LlmClient;
  close(): Promise<void>;
}

export async function openModel(
  spec: ModelSpec,
  ctx: { clock: Clock; logger: Logger; env: Record<string, string | undefined> },
): Promise<OpenedModel> {
  let close = async () => {};
  let config: LlmConfig;
  if ('config' in spec) config = spec.config;
  else if (spec.model === 'reference' && !spec.baseUrl) {
    const catalog = [...(await loadCatalog()), ...(spec.catalog ?? [])];
    const ref = await startReferenceModel({ catalog, noise: spec.noise ?? 0, seed: spec.seed });
    close = () => ref.close();
    // It takes images (and ignores them), so the `look` path stays exercised without a real model.
    config = resolveLlmConfig(
      { baseUrl: ref.url, model: 'reference', vision: true, imageFormat: spec.imageFormat },
      { PHONE_AGENT_IMAGE_FORMAT: ctx.env.PHONE_AGENT_IMAGE_FORMAT },
    );
  } else {
    // Throws an ActionableError naming OPENAI_BASE_URL / PHONE_AGENT_MODEL when nothing is configured.
    config = resolveLlmConfig(
      {
        baseUrl: spec.baseUrl,
        model: spec.model,
        preset: spec.preset,
        vision: spec.vision,
        imageFormat: spec.imageFormat,
      },
      ctx.env,
    );
  }
  return { config, llm: createLlmClient({ config, clock: ctx.clock, logger: ctx.logger.child('llm') }), close };
}
