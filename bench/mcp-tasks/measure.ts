import { getEncoding } from 'js-tiktoken';
import type { McpCallRecord } from '../../src/mcp/call-log.js';

/**
 * What a client received, counted from the server's own call log (`phone-agent mcp --call-log`):
 * tool calls served, the failures among them, the o200k tokens of every result's text, and the
 * images (an image's tokens depend on the provider: the estimate is OpenAI's high-detail rule).
 */

const enc = getEncoding('o200k_base');
export const tokens = (s: string): number => enc.encode(s).length;

export interface CallFigures {
  calls: number;
  /** Calls answered with isError (a failed or refused call still costs the client a turn). */
  errors: number;
  /** Calls per tool, in the order first used. */
  byTool: Record<string, number>;
  /** o200k tokens of every result's text content. */
  resultTokens: number;
  /** The largest single result (tokens) and its tool. */
  largest: { tool: string; tokens: number } | null;
  images: number;
  /** OpenAI high-detail estimate: 85 + 170 per 512 px tile after fitting 2048 and 768 on the short side. */
  imageTokensEst: number;
  /** One line per call: seq, tool, tokens, error code. */
  trace: { seq: number; tool: string; tokens: number; ms: number; failure?: string }[];
}

export function imageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(w, h);
  if (short > 768) {
    w *= 768 / short;
    h *= 768 / short;
  }
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

export function figures(records: readonly McpCallRecord[]): CallFigures {
  const byTool: Record<string, number> = {};
  let resultTokens = 0;
  let images = 0;
  let imageTokensEst = 0;
  let largest: CallFigures['largest'] = null;
  const trace: CallFigures['trace'] = [];
  for (const r of records) {
    byTool[r.tool] = (byTool[r.tool] ?? 0) + 1;
    let t = 0;
    for (const c of r.content) {
      if (c.type === 'text' && 'text' in c) t += tokens(c.text);
      else if (c.type === 'image') {
        images++;
        const img = c as { width?: number; height?: number };
        if (img.width && img.height) imageTokensEst += imageTokens(img.width, img.height);
      }
    }
    resultTokens += t;
    if (!largest || t > largest.tokens) largest = { tool: r.tool, tokens: t };
    trace.push({
      seq: r.seq,
      tool: r.tool,
      tokens: t,
      ms: r.ms,
      ...(r.is_error ? { failure: r.failure_code ?? 'error' } : {}),
    });
  }
  return {
    calls: records.length,
    errors: records.filter((r) => r.is_error).length,
    byTool,
    resultTokens,
    largest,
    images,
    imageTokensEst,
    trace,
  };
}
