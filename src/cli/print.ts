import type { AgentEvent, RunResult, StepSummary } from '../agent/types.js';
import { cliCommand } from './invocation.js';

/**
 * What a person reads on the terminal: one line per step, and at the end the outcome in plain
 * words with the command that continues the run (paused for consent, out of steps), what a denial
 * left done and undone, and the totals.
 */

/** The step note of a refused guarded action (src/agent/step-execute.ts): `denied by <who>: <what>`. */
const DENIED = /^denied by [^:]+: /;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The step's outcome in words: a paused or denied step did not fail. */
function outcomeOf(s: StepSummary): string {
  if (s.note?.startsWith('waiting for confirmation')) return 'paused for consent';
  if (s.note && DENIED.test(s.note)) return 'denied';
  return s.ok ? 'ok' : 'failed';
}

function noteOf(s: StepSummary): string {
  if (!s.note || s.note.startsWith('waiting for confirmation') || DENIED.test(s.note)) return '';
  return ` (${s.note})`;
}

export function progress(
  json: boolean,
  tty: boolean,
  write = (s: string) => process.stderr.write(s),
): (e: AgentEvent) => void {
  if (json) return () => {};
  return (e) => {
    if (e.kind === 'plan') write(`plan${e.cached ? ' (from memory)' : ''}: ${e.subgoals.join(' → ')}\n`);
    else if (e.kind === 'handover')
      write(`flash → pro after step ${e.step}: ${e.reason}; plan: ${e.subgoals.join(' → ')}\n`);
    else if (e.kind === 'resume') {
      write(`resuming at step ${e.fromStep}; plan: ${e.subgoals.join(' → ')}\n`);
      for (const n of e.notes) write(`  ${n}\n`);
    } else if (e.kind === 'step') {
      const s = e.summary;
      const outcome = outcomeOf(s);
      const line = `step ${s.step}/${e.max} · ${s.subgoal || '-'} · ${s.action || '(none)'} → ${outcome}${s.source === 'llm' ? '' : ` [${s.source}]`}${noteOf(s)}`;
      const mark =
        outcome === 'ok' ? '\x1b[32m✓\x1b[0m' : outcome === 'failed' ? '\x1b[31m✗\x1b[0m' : '\x1b[33m‖\x1b[0m';
      write(tty ? `\x1b[2K\r${mark} ${line}\n` : `${line}\n`);
    }
  };
}

/**
 * While the model thinks, a terminal shows how long it has been (after a second, redrawn in place
 * and erased when the answer comes); anything else gets no such line.
 */
export function modelWaitTicker(tty: boolean, write = (s: string) => process.stderr.write(s)): () => () => void {
  if (!tty) return () => () => {};
  return () => {
    const t0 = Date.now();
    let shown = false;
    const timer = setInterval(() => {
      shown = true;
      write(`\x1b[2K\r  waiting for the model… ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }, 1000);
    timer.unref();
    return () => {
      clearInterval(timer);
      if (shown) write('\x1b[2K\r');
    };
  };
}

/** The outcome in words, and what to do next. */
export function outcomeLines(r: RunResult, cmd = cliCommand()): string[] {
  const dir = r.runDir;
  switch (r.status) {
    case 'done':
      return [r.answer ? `done — answer: ${r.answer}` : 'done'];
    case 'needs_confirmation': {
      const what = (r.reason ?? '').replace(/^waiting for confirmation: /, '');
      return [
        `paused for consent — ${what}`,
        `  approve: ${cmd} resume ${dir} --yes`,
        `  refuse:  ${cmd} resume ${dir} --deny`,
      ];
    }
    case 'budget':
      return [
        `out of steps — stopped after ${plural(r.steps, 'step')}, the budget; the task is not finished`,
        `  continue: ${cmd} resume ${dir} --more-steps 10`,
      ];
    case 'infeasible':
      return [`cannot be done — ${r.reason ?? 'the model judged the task impossible on this phone'}`];
    case 'dry_run':
      return [`dry run — ${r.reason ?? 'stopped before the first action that changes the phone'}`];
    case 'ask_user':
      return r.denials > 0 ? deniedLines(r) : [`needs you — ${r.reason ?? 'the agent has a question'}`];
    default:
      return [`failed${r.reason ? ` — ${r.reason}` : ''}`];
  }
}

/** After a refusal: what was done before it, and what was not done. */
function deniedLines(r: RunResult): string[] {
  const refused = r.stepLog.filter((s) => s.note && DENIED.test(s.note)).map((s) => (s.note ?? '').replace(DENIED, ''));
  const done = r.stepLog.filter(
    (s) => s.ok && s.action && s.source !== 'gate' && !/^(done|ask_user|infeasible)\b/.test(s.action),
  );
  return [
    `denied — stopped as you asked; not done: ${refused.join('; ') || 'the guarded action'}`,
    done.length
      ? `  done before it (still on the phone): ${done.map((s) => s.action).join('; ')}`
      : '  nothing was done before it',
  ];
}

export function printResult(result: RunResult, json: boolean, out = (s: string) => process.stdout.write(s)): void {
  if (json) {
    out(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const cmd = cliCommand();
  const totals = [
    plural(result.steps, 'step'),
    plural(result.llm.calls, 'LLM call'),
    plural(result.llm.promptTokens, 'prompt token'),
    ...(result.cacheHits ? [`${result.cacheHits} replayed from memory`] : []),
  ].join(', ');
  out(
    [...outcomeLines(result, cmd), totals, `run folder: ${result.runDir}`, `report: ${cmd} report ${result.runDir}`]
      .map((l) => `${l}\n`)
      .join(''),
  );
}
