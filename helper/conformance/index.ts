import { actionChecks, openingChecks } from './checks-actions.js';
import { appsChecks } from './checks-apps.js';
import { compatChecks } from './checks-compat.js';
import { errorChecks } from './checks-errors.js';
import { guardChecks } from './checks-guard.js';
import { hostileChecks } from './checks-hostile.js';
import { textChecks } from './checks-text.js';
import { transportChecks } from './checks-transport.js';
import { ConformanceClient, type FetchLike } from './client.js';
import { type Check, CheckFailed, type SuiteState } from './suite.js';

/**
 * The black-box conformance suite of the helper protocol (helper/PROTOCOL.md): given a URL and a
 * token it talks HTTP only, and knows nothing of the host behind it. Checks run in order (later ones
 * use what earlier ones found, e.g. the Settings list); each yields pass or fail with a detail line.
 */

export interface ConformanceResult {
  name: string;
  status: 'pass' | 'fail';
  detail: string;
  ms: number;
}

export interface ConformanceOptions {
  url: string;
  token: string;
  fetch?: FetchLike;
  /** Per-request timeout, ms (default 60 000). */
  timeoutMs?: number;
  /** Called after each check (progress output). */
  onResult?: (r: ConformanceResult) => void;
}

export const CONFORMANCE_CHECKS: readonly Check[] = [
  ...transportChecks,
  ...hostileChecks,
  ...appsChecks,
  ...openingChecks,
  ...errorChecks,
  ...guardChecks,
  ...actionChecks,
  ...textChecks,
  ...compatChecks,
];

export async function runConformance(opts: ConformanceOptions): Promise<ConformanceResult[]> {
  const client = new ConformanceClient(opts.url, opts.token, opts.fetch ?? fetch, opts.timeoutMs);
  const state: SuiteState = {};
  const results: ConformanceResult[] = [];
  for (const check of CONFORMANCE_CHECKS) {
    const notes: string[] = [];
    const started = performance.now();
    let result: ConformanceResult;
    try {
      await check.run({ client, state, note: (l) => notes.push(l) });
      result = { name: check.name, status: 'pass', detail: notes.join('; '), ms: 0 };
    } catch (e) {
      const why =
        e instanceof CheckFailed ? e.message : `${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      result = { name: check.name, status: 'fail', detail: [why, ...notes].join('; '), ms: 0 };
    }
    result.ms = Math.round(performance.now() - started);
    results.push(result);
    opts.onResult?.(result);
  }
  return results;
}

export type { Check } from './suite.js';
