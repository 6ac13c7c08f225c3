import type { RunModel, StepFile } from './schema.js';

/** Totals summed over the step files (a broken step counts only as broken). */
export interface RunTotals {
  steps: number;
  failed: number;
  broken: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalMs: number;
  cacheHits: number;
  ruleActions: number;
  confirmations: number;
  denials: number;
}

export function totalsOf(model: RunModel): RunTotals {
  const t: RunTotals = {
    steps: model.steps.length,
    failed: 0,
    broken: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    totalMs: 0,
    cacheHits: 0,
    ruleActions: 0,
    confirmations: 0,
    denials: 0,
  };
  for (const s of model.steps) {
    if (s.kind === 'broken') {
      t.broken++;
      continue;
    }
    const r: StepFile = s.record;
    if (!r.ok) t.failed++;
    t.llmCalls += r.llm.calls;
    t.promptTokens += r.llm.promptTokens;
    t.completionTokens += r.llm.completionTokens;
    t.totalMs += r.timings.totalMs;
    if (r.source === 'cache') t.cacheHits++;
    if (r.source === 'rule') t.ruleActions++;
    if (r.guard?.verdict === 'approved') t.confirmations++;
    if (r.guard?.verdict === 'denied') t.denials++;
  }
  return t;
}
