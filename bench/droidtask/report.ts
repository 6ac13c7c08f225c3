import { CONTRADICTION_FLAG } from './contradictions.js';
import type { StepRecord } from './run.js';

/**
 * DroidTask figures from step records: AutoDroid's definitions (SOURCES.md) — action accuracy =
 * correct steps / all steps (done steps included); completion = tasks whose every step is right —
 * with the artifact's lenient variant beside it (a task whose only miss is its final done also
 * counts), per app and overall, next to AutoDroid's published figures; prompt tokens per step; the
 * two kinds of miss the issue asks to see apart.
 */

export interface Spread {
  median: number;
  p95: number;
  mean: number;
}

export interface Figures {
  steps: number;
  correct: number;
  actionAccuracy: number;
  byKind: Record<'tap' | 'input' | 'done', { steps: number; correct: number }>;
  tasks: number;
  complete: number;
  completionRate: number;
  /** AutoDroid's evaluator also counts a task whose only wrong step is the final done. */
  completeLenient: number;
  completionRateLenient: number;
  /** The step's decision requests in o200k tokens, as the bench counts them for every model. */
  promptTokensPerStep: Spread;
  /** As the endpoint counted them, re-asks included (the relay estimates characters / 4). */
  endpointPromptTokensPerStep: Spread;
  callsPerStep: number;
  misses: Record<string, number>;
  checkedBeforeDone: number;
  typedWithoutTap: number;
  /** Steps where the model scrolled through the recorded scroll states before acting. */
  scrolledSteps: number;
  /** Steps from where DroidTask's own data contradicts the gold on (./contradictions.ts), and their misses. */
  contradicted: { steps: number; tasks: number; misses: number };
}

const isContradicted = (r: StepRecord) => r.flags.some((f) => f.startsWith(CONTRADICTION_FLAG));

/** AutoDroid's published figures (../shared/fixtures/droidtask/SOURCES.md): 158 tasks, 718 steps, 13 apps. */
export const PUBLISHED = [
  {
    who: 'AutoDroid, paper abstract (LLM not named; GPT-4 likely)',
    actionAccuracy: 0.909,
    completionRate: 0.713,
    source: 'arXiv 2308.15272 v4 abstract',
  },
  {
    who: 'AutoDroid + GPT-4, artifact log (one run)',
    actionAccuracy: 0.887,
    completionRate: 0.696,
    tap: 0.905,
    input: 0.971,
    end: 0.867,
    source: 'autodroid-sys/artifacts DroidTask_datatools/logs/gpt-4/Quantitative_results.json',
  },
  {
    who: 'AutoDroid + GPT-3.5, artifact log (one run)',
    actionAccuracy: 0.684,
    completionRate: 0.405,
    tap: 0.743,
    input: 0.862,
    end: 0.557,
    source: 'autodroid-sys/artifacts DroidTask_datatools/logs/gpt-3.5/Quantitative_results.json',
  },
] as const;

function spread(xs: number[]): Spread {
  return {
    median: quantile(xs, 0.5),
    p95: quantile(xs, 0.95),
    mean: xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0,
  };
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
}

export function figures(records: readonly StepRecord[]): Figures {
  const byTask = new Map<string, StepRecord[]>();
  for (const r of records) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  let complete = 0;
  let lenient = 0;
  for (const steps of byTask.values()) {
    const wrong = steps.filter((s) => !s.score.correct);
    if (wrong.length === 0) complete++;
    const last = steps.at(-1);
    if (wrong.length === 0 || (wrong.length === 1 && wrong[0] === last && last?.goldKind === 'done')) lenient++;
  }
  const byKind = { tap: { steps: 0, correct: 0 }, input: { steps: 0, correct: 0 }, done: { steps: 0, correct: 0 } };
  const misses: Record<string, number> = {};
  for (const r of records) {
    const k = r.goldKind === 'back' ? undefined : byKind[r.goldKind];
    if (k) {
      k.steps++;
      if (r.score.correct) k.correct++;
    }
    if (r.score.miss) misses[r.score.miss] = (misses[r.score.miss] ?? 0) + 1;
  }
  const correct = records.filter((r) => r.score.correct).length;
  const tasks = byTask.size;
  return {
    steps: records.length,
    correct,
    actionAccuracy: records.length ? correct / records.length : 0,
    byKind,
    tasks,
    complete,
    completionRate: tasks ? complete / tasks : 0,
    completeLenient: lenient,
    completionRateLenient: tasks ? lenient / tasks : 0,
    promptTokensPerStep: spread(records.map((r) => r.requestTokens)),
    endpointPromptTokensPerStep: spread(records.map((r) => r.usage.promptTokens)),
    callsPerStep: records.length ? records.reduce((a, r) => a + r.usage.calls, 0) / records.length : 0,
    misses,
    checkedBeforeDone: misses.checked_before_done ?? 0,
    typedWithoutTap: misses.typed_without_tap ?? 0,
    scrolledSteps: records.filter((r) => r.scrolls > 0).length,
    contradicted: {
      steps: records.filter(isContradicted).length,
      tasks: new Set(records.filter(isContradicted).map((r) => r.task)).size,
      misses: records.filter((r) => isContradicted(r) && !r.score.correct).length,
    },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const ratio = (c: number, n: number) => (n ? `${pct(c / n)} (${c}/${n})` : '–');

export interface ReportMeta {
  model: string;
  scripted: boolean;
  date: string;
  apps: string[];
  vision: boolean;
}

export function renderMarkdown(meta: ReportMeta, records: readonly StepRecord[]): string {
  const all = figures(records);
  const apps = [...new Set(records.map((r) => r.app))].sort();
  const lines = [
    "# DroidTask, step-wise (AutoDroid's protocol), through the product",
    '',
    `Generated by \`npm run bench:droidtask\` on ${meta.date} with model **${meta.model}**${meta.vision ? ' (vision on: DroidTask recorded no screenshots, so none were shown)' : ''}.`,
    '',
    ...(meta.scripted
      ? [
          '> **Harness check, not a score.** The scripted model answers every step with its gold action, picking the',
          '> element from the screen listing in the prompt (the line whose centre is in the gold bounds). What it',
          '> measures is the harness and how many gold targets the agent’s listing shows at all; a real model’s',
          '> figures come from a run with `--model NAME --base-url URL` (see the README).',
          '',
        ]
      : []),
    'Each gold step’s recorded screen is served by the replay phone over the helper bridge, perceived by the agent,',
    'and one action is decided through the product’s planner, prompt and tools with the instruction and the gold',
    'history so far (a note/read is kept and asked again; a scroll within the step’s recorded scroll states is',
    'executed and asked again — AutoDroid showed those states as one list). The action is right when it has the',
    'gold kind and hits the gold element (its view or the container handling its tap, or the touch lands in that',
    'container) with, for input, the gold text (normalised). Completion: every step right, the final done included;',
    'AutoDroid’s evaluator also counts a task whose only miss is the final done (“lenient”).',
    '',
    `Fixture: ${apps.length} of DroidTask’s 13 apps (the other 3 are held out), ${all.tasks} tasks, ${all.steps} steps; AutoDroid’s figures are over 158 tasks / 718 steps.`,
    '',
    '| who | action accuracy | tap | input | done / end | completion | completion (lenient) | prompt tokens per step (o200k, median / p95) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| **this run** | **${ratio(all.correct, all.steps)}** | ${ratio(all.byKind.tap.correct, all.byKind.tap.steps)} | ${ratio(all.byKind.input.correct, all.byKind.input.steps)} | ${ratio(all.byKind.done.correct, all.byKind.done.steps)} | **${ratio(all.complete, all.tasks)}** | ${ratio(all.completeLenient, all.tasks)} | ${all.promptTokensPerStep.median} / ${all.promptTokensPerStep.p95} |`,
    ...PUBLISHED.map(
      (p) =>
        `| ${p.who} | ${pct(p.actionAccuracy)} | ${'tap' in p ? pct(p.tap) : '–'} | ${'input' in p ? pct(p.input) : '–'} | ${'end' in p ? pct(p.end) : '–'} | – | ${pct(p.completionRate)} | – |`,
    ),
    '',
    'AutoDroid’s completion figures follow its evaluator (the lenient column); its per-app figures were not found.',
    `Prompt tokens: the step’s decision requests (system, user, act schema; re-asks not included) in o200k tokens, counted by the bench alike for every model; as the endpoint counted them, re-asks included: median ${all.endpointPromptTokensPerStep.median}, p95 ${all.endpointPromptTokensPerStep.p95} (an endpoint may estimate them: the relay counts characters / 4).`,
    '',
    '## Per app',
    '',
    '| app | steps | action accuracy | tap | input | done | tasks | completion | lenient | tokens/step (median) | calls/step | scrolled steps |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...apps.map((a) => {
      const f = figures(records.filter((r) => r.app === a));
      return `| ${a} | ${f.steps} | ${ratio(f.correct, f.steps)} | ${ratio(f.byKind.tap.correct, f.byKind.tap.steps)} | ${ratio(f.byKind.input.correct, f.byKind.input.steps)} | ${ratio(f.byKind.done.correct, f.byKind.done.steps)} | ${f.tasks} | ${ratio(f.complete, f.tasks)} | ${ratio(f.completeLenient, f.tasks)} | ${f.promptTokensPerStep.median} | ${f.callsPerStep.toFixed(2)} | ${f.scrolledSteps} |`;
    }),
    '',
    '## Misses, by kind',
    '',
    `Reported apart, not forgiven: **not ending on a done step** (the model checked, scrolled or acted again where the gold ends): ${all.checkedBeforeDone}; **typed into a field without tapping it first** (the gold step is the tap): ${all.typedWithoutTap}.`,
    '',
    `Counted apart, not forgiven: **after DroidTask's recording contradicts its gold** (the next recorded screen shows another text than the gold typed, the gold types only part of what the instruction quotes, taps another file than the one named, or taps a radio button already selected; flagged \`${CONTRADICTION_FLAG}\` from that step to the task's end, found from the data alone): ${all.contradicted.misses} of the ${all.steps - all.correct} misses, on ${all.contradicted.steps} steps of ${all.contradicted.tasks} tasks; the other ${all.steps - all.correct - all.contradicted.misses} are the project's or the model's.`,
    '',
    '| miss | steps |',
    '| --- | ---: |',
    ...Object.entries(all.misses)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `| ${k.replace(/_/g, ' ')} | ${n} |`),
    '',
    '## Every miss',
    '',
    ...records
      .filter((r) => !r.score.correct)
      .map(
        (r) =>
          `- ${r.task} step ${r.step} (gold ${r.goldKind}${r.flags.length ? `, ${r.flags.join(', ')}` : ''}): \`${r.action}\` — ${r.score.miss}: ${r.score.why}`,
      ),
    ...(records.every((r) => r.score.correct) ? ['None.'] : []),
    '',
  ];
  return lines.join('\n');
}
